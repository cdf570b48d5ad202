import { databaseKinds } from '../../support/databases';
import { actionData, cardText, verbsOf } from '../support/fakeConnector';
import { requestInChat } from '../support/cardTurns';
import { ADELE, ALEX, LYNNE, startBotHarness, type TeamsPerson } from '../support/botHarness';
import { suiteBot } from '../support/suiteBot';

/**
 * A two-stage request in chat (the demo's `partner-workspace`: Legal, then Compliance), through
 * `/api/messages` with a real adapter: each approver's card, and the requester's card between.
 */
describe.each(databaseKinds)('a two-stage approval in chat, on %s', (kind) => {
  const bot = suiteBot(() => startBotHarness(kind));
  beforeAll(async () => {
    await bot.say(ADELE, 'help');
    await bot.say(LYNNE, 'help');
  });

  const approvalCardIn = (who: TeamsPerson, mark: number) =>
    bot.connector.waitFor(() =>
      bot.connector.messages(who.conversationId, mark).find((m) => verbsOf(m.body).includes('approve')),
    );
  const progressSays = (activityId: string, pattern: RegExp) =>
    bot.connector.waitFor(() => {
      const card = bot.connector.currentCard(activityId);
      return card && pattern.test(cardText(card)) ? card : undefined;
    }, 20_000);

  it('shows the stages to the requester and to each stage’s approvers, with the earlier decisions', async () => {
    const { mark, progress, confirmation } = await requestInChat(bot, ALEX, 'partner-workspace', {
      name: 'Fabrikam',
    });
    // The confirmation names who decides each stage, not only the first one's approvers.
    expect(cardText(confirmation)).toContain('This template needs approval in 2 stages');
    expect(cardText(confirmation)).toContain(
      'Stage 1: Legal\nAdele Vance\nStage 2: Compliance\nLynne Robbins',
    );
    await progressSays(progress.activityId, /Stage 1 of 2: Legal, waiting for Adele Vance/);

    // Stage 1: Adele's card says which stage it is; Lynne has nothing yet.
    const adeleCard = await approvalCardIn(ADELE, mark);
    const first = bot.connector.currentCard(adeleCard.activityId)!;
    expect(cardText(first)).toContain('Stage 1 of 2: Legal');
    expect(cardText(first)).toContain('PTR-Fabrikam');
    expect(
      bot.connector.messages(LYNNE.conversationId, mark).filter((m) => verbsOf(m.body).includes('approve')),
    ).toEqual([]);
    const legalId = String(actionData(first, 'approve')!.approvalId);
    const decided = bot.cardOfAnswer(
      await bot.execute(
        ADELE,
        'approve',
        { approvalId: legalId, comment: 'Contract reviewed' },
        adeleCard.activityId,
      ),
    );
    expect(cardText(decided)).toMatch(/Approved/);

    // Stage 2: Lynne's card, with Legal's decision and comment; the requester's card moves on.
    const lynneCard = await approvalCardIn(LYNNE, mark);
    const second = bot.connector.currentCard(lynneCard.activityId)!;
    expect(cardText(second)).toContain('Stage 2 of 2: Compliance');
    expect(cardText(second)).toContain('Legal: approved by Adele Vance: “Contract reviewed”');
    const complianceId = String(actionData(second, 'approve')!.approvalId);
    expect(complianceId).not.toBe(legalId);
    await progressSays(progress.activityId, /Stage 2 of 2: Compliance, waiting for Lynne Robbins/);
    // Adele's earlier card cannot decide stage 2, and pressing it again shows her decision.
    const again = bot.cardOfAnswer(await bot.execute(ADELE, 'approve', { approvalId: legalId }));
    expect(cardText(again)).toMatch(/Approved/);

    bot.cardOfAnswer(await bot.execute(LYNNE, 'approve', { approvalId: complianceId }, lynneCard.activityId));
    await progressSays(progress.activityId, /Your team is ready/);
  }, 60_000);
});
