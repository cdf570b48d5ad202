import { databaseKinds } from '../../support/databases';
import { ALEX, type BotHarness, startBotHarness } from '../support/botHarness';
import { cardSaying, ENGLISH, FRENCH, pressWith } from '../support/cardTurns';
import { actionData } from '../support/fakeConnector';

/**
 * A request that needs no approval is ready a moment after the click: its card follows at once,
 * not at the first poll (5 s, as deployed).
 */
describe.each(databaseKinds)('a request with no approval, on %s', (kind) => {
  let bot: BotHarness;
  beforeAll(async () => {
    bot = await startBotHarness(kind, { STEWARD_BOT_POLL_MS: '5000', STEWARD_BOT_POLL_MAX_MS: '5000' });
  });
  afterAll(() => bot?.close());

  it.each([
    ['English', ENGLISH, /Your team is ready/],
    ['French', FRENCH, /Votre équipe est prête/],
  ])(
    '%s: the card says ready within 2 s of the click',
    async (_, locale, ready) => {
      const form = bot.cardOfAnswer(
        await pressWith(bot, ALEX, 'pickTemplate', { templateId: 'project' }, 'gallery', locale),
      );
      const mark = bot.connector.sent.length;
      const clicked = Date.now();
      await pressWith(
        bot,
        ALEX,
        'submitRequest',
        { ...actionData(form, 'submitRequest'), name: `Quick ${locale.locale}` },
        'form',
        locale,
      );
      const progress = bot.progressCard(ALEX, mark);
      await cardSaying(bot.connector, progress.activityId, ready, 4_000);
      expect(Date.now() - clicked).toBeLessThan(2_000);
    },
    30_000,
  );
});
