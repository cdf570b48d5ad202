import { databaseKinds } from '../../support/databases';
import { ALEX, startWithApprovers } from '../support/botHarness';
import { ENGLISH, FRENCH, pressWith } from '../support/cardTurns';
import { actionData, cardOf, cardText, verbsOf } from '../support/fakeConnector';
import { suiteBot } from '../support/suiteBot';

/** Status on a "my requests" list shows the request on one card, however often it is pressed. */
describe.each(databaseKinds)('Status on my requests, on %s', (kind) => {
  const bot = suiteBot(() => startWithApprovers(kind));
  it.each([
    ['English', ENGLISH, 'my requests', /Waiting for approval/],
    ['French', FRENCH, 'mes demandes', /En attente de l’approbation/],
  ])(
    '%s: a second press updates the card the first posted',
    async (_, locale, command, waiting) => {
      const name = `Listed ${locale.locale}`;
      const form = bot.cardOfAnswer(
        await pressWith(bot, ALEX, 'pickTemplate', { templateId: 'client-engagement' }, 'gallery', locale),
      );
      await pressWith(
        bot,
        ALEX,
        'submitRequest',
        { ...actionData(form, 'submitRequest'), name },
        'form',
        locale,
      );
      let mark = bot.connector.sent.length;
      await bot.send(ALEX, { type: 'message', text: command, ...locale });
      const list = bot.lastCard(ALEX, mark);
      const status = actionData(list.card, 'showStatus')!;
      expect(status.newCard).toBe(true);

      mark = bot.connector.sent.length;
      for (let press = 0; press < 3; press += 1)
        await pressWith(bot, ALEX, 'showStatus', status, list.activityId, locale);
      const posted = bot.connector
        .messages(ALEX.conversationId, mark)
        .filter((m) => cardOf(m.body) && waiting.test(cardText(cardOf(m.body))));
      expect(posted).toHaveLength(1);
      expect(bot.connector.updates(posted[0]!.activityId)).toBeGreaterThanOrEqual(2);
      expect(verbsOf(bot.connector.currentCard(posted[0]!.activityId))).toContain('withdrawRequest');
    },
    60_000,
  );
});
