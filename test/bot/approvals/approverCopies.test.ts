import { databaseKinds } from '../../support/databases';
import { ALEX, SIOBHAN, startWithApprovers, type TeamsPerson } from '../support/botHarness';
import { cardSaying, ENGLISH, FRENCH, pressWith } from '../support/cardTurns';
import { actionData, cardText, verbsOf } from '../support/fakeConnector';
import { suiteBot } from '../support/suiteBot';

/**
 * Every card of an approval in an approver's chat stays true: the one "my approvals" posts again
 * and the earlier one, the name an approver amended, and who must decide.
 */
describe.each(databaseKinds)('an approver’s cards, on %s', (kind) => {
  const bot = suiteBot(() => startWithApprovers(kind));
  const LANGUAGES = [
    {
      language: 'English',
      locale: ENGLISH,
      hello: 'help',
      myApprovals: 'my approvals',
      approved: /Approved/,
      anyOne: "Any one of Adele Vance and Siobhán O'Connor decides",
    },
    {
      language: 'French',
      locale: FRENCH,
      hello: 'bonjour',
      myApprovals: 'mes approbations',
      approved: /Approuvée/,
      anyOne: "Une seule de ces personnes décide : Adele Vance et Siobhán O'Connor",
    },
  ];

  /** Alex requests a Client engagement team `name`; Siobhán's approval card of it. */
  async function request(name: string) {
    const mark = bot.connector.sent.length;
    const form = bot.cardOfAnswer(
      await bot.execute(ALEX, 'pickTemplate', { templateId: 'client-engagement' }),
    );
    await bot.execute(ALEX, 'submitRequest', { ...actionData(form, 'submitRequest'), name });
    const progress = bot.progressCard(ALEX, mark);
    const approval = await bot.connector.waitFor(() =>
      bot.connector
        .messages(SIOBHAN.conversationId, mark)
        .find((m) => verbsOf(m.body).includes('approve') && cardText(m.body).includes(name)),
    );
    return {
      progress,
      approval,
      approvalId: String(actionData(bot.connector.currentCard(approval.activityId), 'approve')!.approvalId),
    };
  }

  const say = (who: TeamsPerson, text: string, locale: object) =>
    bot.send(who, { type: 'message', text, ...locale });

  it.each(LANGUAGES)(
    '$language: a decision on the card "my approvals" posted again updates the earlier one too',
    async (l) => {
      await say(SIOBHAN, l.hello, l.locale);
      const { approval } = await request(`Copies ${l.language}`);

      const mark = bot.connector.sent.length;
      await say(SIOBHAN, l.myApprovals, l.locale);
      const again = bot.connector
        .messages(SIOBHAN.conversationId, mark)
        .find(
          (m) => verbsOf(m.body).includes('approve') && cardText(m.body).includes(`Copies ${l.language}`),
        )!;
      expect(again.activityId).not.toBe(approval.activityId);
      const data = actionData(bot.connector.currentCard(again.activityId), 'approve')!;
      bot.cardOfAnswer(await pressWith(bot, SIOBHAN, 'approve', data, again.activityId, l.locale));

      const earlier = await cardSaying(bot.connector, approval.activityId, l.approved);
      expect(verbsOf(earlier)).not.toContain('approve');
      expect(verbsOf(earlier)).not.toContain('reject');
    },
    60_000,
  );

  it.each(LANGUAGES)(
    '$language: the approver who amended the name sees it on every card of hers',
    async (l) => {
      await say(SIOBHAN, l.hello, l.locale);
      const name = `Amend ${l.language}`;
      const { progress, approval, approvalId } = await request(name);
      // Who must decide: either approver settles it.
      expect(cardText(bot.connector.currentCard(approval.activityId))).toContain(l.anyOne);
      const decided = bot.cardOfAnswer(
        await pressWith(
          bot,
          SIOBHAN,
          'approve',
          { approvalId, teamName: `${name} Labs` },
          approval.activityId,
          l.locale,
        ),
      );
      expect(cardText(decided)).toContain(`CLI-US-${name} Labs`);
      await cardSaying(bot.connector, progress.activityId, new RegExp(`CLI-US-${name} Labs`));
      // What Teams shows when she opens the chat again: the card refreshed, and as it was last updated.
      const refreshed = bot.cardOfAnswer(
        await bot.send(SIOBHAN, {
          type: 'invoke',
          name: 'adaptiveCard/action',
          replyToId: approval.activityId,
          value: {
            trigger: 'automatic',
            action: { type: 'Action.Execute', verb: 'refreshApproval', data: { approvalId } },
          },
          ...l.locale,
        }),
      );
      for (const card of [refreshed, bot.connector.currentCard(approval.activityId)]) {
        expect(cardText(card)).toContain(`CLI-US-${name} Labs`);
        expect(cardText(card)).not.toMatch(new RegExp(`CLI-US-${name}$`, 'm'));
        expect(verbsOf(card)).not.toContain('approve');
      }
    },
    60_000,
  );
});
