import { SEED_LABEL_IDS } from '../../../src/store/seed/directory';
import { databaseKinds } from '../../support/databases';
import { putLabelledTemplates } from '../../support/labelledTemplates';
import { PEOPLE } from '../../support/steward';
import { ADELE, ALEX, startWithApprovers } from '../support/botHarness';
import { cardSaying, ENGLISH, FRENCH, pressOnCard, pressWith } from '../support/cardTurns';
import { actionData, cardOf, cardText, verbsOf } from '../support/fakeConnector';
import { suiteBot } from '../support/suiteBot';

/**
 * "Apply the label" on a progress card: once the label is on, every card of the request says so
 * and offers the button no more, in the reader's language.
 */
describe.each(databaseKinds)('Apply the label, on %s', (kind) => {
  const bot = suiteBot(() => startWithApprovers(kind));
  beforeAll(async () => {
    const megan = await bot.steward.userToken(PEOPLE.megan, ['GLOBAL_ADMIN']);
    await putLabelledTemplates(bot.steward, megan, SEED_LABEL_IDS.general);
  });

  /** Alex's request of a labelled team, approved after his grant was lost: made without its label. */
  async function teamWithoutLabel(name: string, locale: typeof ENGLISH) {
    const mark = bot.connector.sent.length;
    const form = bot.cardOfAnswer(
      await pressWith(
        bot,
        ALEX,
        'pickTemplate',
        { templateId: 'labelled-approved' },
        `gallery-${name}`,
        locale,
      ),
    );
    await pressWith(
      bot,
      ALEX,
      'submitRequest',
      { ...actionData(form, 'submitRequest'), name },
      `form-${name}`,
      locale,
    );
    const progress = bot.progressCard(ALEX, mark);
    await bot.steward.steward.store.db.deleteFrom('delegated_grants').execute();
    const approval = await bot.connector.waitFor(() =>
      bot.connector.messages(ADELE.conversationId, mark).find((m) => verbsOf(m.body).includes('approve')),
    );
    await bot.execute(ADELE, 'approve', actionData(cardOf(approval.body), 'approve')!);
    return progress.activityId;
  }

  it.each([
    ['English', ENGLISH, /made without its sensitivity label/, /The sensitivity label is now on/],
    [
      'French',
      FRENCH,
      /sans son étiquette de confidentialité/,
      /L’étiquette de confidentialité est maintenant/,
    ],
  ])(
    '%s: the card stops saying the label is missing once it is on',
    async (_, locale, missing, applied) => {
      const activityId = await teamWithoutLabel(`Labelled ${locale.locale}`, locale);
      const before = await cardSaying(bot.connector, activityId, missing);
      expect(verbsOf(before)).toContain('applyLabel');

      const answer = bot.cardOfAnswer(await pressOnCard(bot, ALEX, activityId, 'applyLabel', locale));
      for (const card of [answer, bot.connector.currentCard(activityId)]) {
        expect(cardText(card)).not.toMatch(missing);
        expect(cardText(card)).toMatch(applied);
        expect(verbsOf(card)).not.toContain('applyLabel');
      }
    },
    60_000,
  );
});
