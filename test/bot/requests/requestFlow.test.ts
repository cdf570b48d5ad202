import { databaseKinds } from '../../support/databases';
import { actionData, cardText, verbsOf } from '../support/fakeConnector';
import { requestInChat } from '../support/cardTurns';
import { ADELE, ALEX, SIOBHAN, startBotHarness } from '../support/botHarness';
import { suiteBot } from '../support/suiteBot';

describe.each(databaseKinds)('request → approval → completed, on %s', (kind) => {
  const bot = suiteBot(() => startBotHarness(kind));
  it('runs the whole flow with the progress card updated in place and every approver’s card refreshed', async () => {
    // Siobhán has talked to the bot (her Teams id is known); Adele never has.
    await bot.say(SIOBHAN, 'help');
    const mark = bot.connector.sent.length;

    const form = bot.cardOfAnswer(
      await bot.execute(ALEX, 'pickTemplate', { templateId: 'client-engagement' }),
    );
    const submit = actionData(form, 'submitRequest')!;
    const confirmation = bot.cardOfAnswer(
      await bot.execute(ALEX, 'submitRequest', {
        ...submit,
        name: 'Fabrikam',
        description: 'Our work with Fabrikam',
        owners: 'isaiah@example.com',
      }),
    );
    expect(cardText(confirmation)).toContain('CLI-US-Fabrikam');
    // The confirmation has no button: the request's one living card is its progress card.
    expect(verbsOf(confirmation)).toEqual([]);
    const jobId = String(actionData(bot.progressCard(ALEX, mark).card, 'showStatus')!.jobId);

    // The requester's progress card, waiting for the approval team.
    const progress = bot.progressCard(ALEX, mark);
    expect(cardText(progress.card)).toMatch(/Waiting for approval/);

    // Each approver gets a card in a 1:1 chat: Siobhán in hers, Adele in one the bot creates.
    const created = await bot.connector.waitFor(() => bot.connector.sent.find((s) => s.kind === 'create'));
    expect(created.body).toMatchObject({
      isGroup: false,
      members: [expect.objectContaining({ aadObjectId: ADELE.aadObjectId })],
    });
    const siobhanCard = await bot.connector.waitFor(() =>
      bot.connector.messages(SIOBHAN.conversationId, mark).find((m) => verbsOf(m.body).includes('approve')),
    );
    const adeleCard = await bot.connector.waitFor(() =>
      bot.connector.messages(created.conversationId).find((m) => verbsOf(m.body).includes('approve')),
    );
    const approvalCard = bot.connector.currentCard(siobhanCard.activityId)!;
    expect(cardText(approvalCard)).toContain('CLI-US-Fabrikam');
    expect(approvalCard.refresh).toMatchObject({ userIds: [SIOBHAN.teamsId] });
    const approvalId = String(actionData(approvalCard, 'approve')!.approvalId);

    // Alex is not an approver: a read-only card, not an error.
    const readOnly = bot.cardOfAnswer(await bot.execute(ALEX, 'approve', { approvalId }));
    expect(verbsOf(readOnly)).not.toContain('approve');
    expect(cardText(readOnly)).toMatch(/Only this template's approval team/);

    // Adele approves: her card becomes the decided card in place, Siobhán's is updated to it.
    const decided = bot.cardOfAnswer(
      await bot.execute(ADELE, 'approve', { approvalId, comment: 'Go ahead' }, adeleCard.activityId),
    );
    expect(cardText(decided)).toMatch(/Approved/);
    expect(cardText(decided)).toContain('Adele Vance');
    await bot.connector.waitFor(() =>
      /Approved/.test(cardText(bot.connector.currentCard(siobhanCard.activityId))),
    );
    expect(verbsOf(bot.connector.currentCard(siobhanCard.activityId))).not.toContain('approve');

    // A second click, by Siobhán, after the decision: the decided card again.
    const late = bot.cardOfAnswer(
      await bot.execute(SIOBHAN, 'reject', { approvalId }, siobhanCard.activityId),
    );
    expect(cardText(late)).toMatch(/Approved/);
    expect(cardText(late)).toContain('Adele Vance');

    // Teams refreshing the card shows the decision too.
    const refreshed = bot.cardOfAnswer(await bot.execute(SIOBHAN, 'refreshApproval', { approvalId }));
    expect(cardText(refreshed)).toMatch(/Approved/);

    // The requester's card moves on, in place, until the team is ready.
    const ready = await bot.connector.waitFor(() => {
      const card = bot.connector.currentCard(progress.activityId);
      return card && /Your team is ready/.test(cardText(card)) ? card : undefined;
    }, 20_000);
    expect(JSON.stringify(ready)).toContain('Action.OpenUrl');
    expect(bot.connector.updates(progress.activityId)).toBeGreaterThanOrEqual(2);
    // One progress card: every change was an update of it.
    expect(
      bot.connector
        .messages(ALEX.conversationId, mark)
        .filter((m) => /Waiting for approval|Creating/.test(cardText(m.body))),
    ).toHaveLength(1);

    // "status <id>" and "my requests" agree.
    const before = bot.connector.sent.length;
    await bot.say(ALEX, `status ${jobId}`);
    expect(cardText(bot.lastCard(ALEX, before).card)).toMatch(/Your team is ready/);
    const listed = bot.connector.sent.length;
    await bot.say(ALEX, 'my requests');
    expect(cardText(bot.lastCard(ALEX, listed).card)).toContain('CLI-US-Fabrikam');
  }, 60_000);

  it('tells the requester when the approver rejects, with Try again', async () => {
    const { mark, progress } = await requestInChat(bot, ALEX, 'client-engagement', { name: 'Contoso Ltd' });
    const siobhanCard = await bot.connector.waitFor(() =>
      bot.connector.messages(SIOBHAN.conversationId, mark).find((m) => verbsOf(m.body).includes('approve')),
    );
    const approvalId = String(
      actionData(bot.connector.currentCard(siobhanCard.activityId), 'approve')!.approvalId,
    );
    const decided = bot.cardOfAnswer(
      await bot.execute(SIOBHAN, 'reject', { approvalId, comment: 'Use the existing team' }),
    );
    expect(cardText(decided)).toMatch(/Rejected/);
    const rejected = await bot.connector.waitFor(() => {
      const card = bot.connector.currentCard(progress.activityId);
      return card && /rejected/i.test(cardText(card)) ? card : undefined;
    });
    expect(verbsOf(rejected)).toContain('retryRequest');
    const jobId = String(actionData(rejected, 'retryRequest')!.jobId);
    const retried = bot.connector.sent.length;
    await bot.execute(ALEX, 'retryRequest', { jobId });
    expect(JSON.stringify(bot.lastCard(ALEX, retried).card)).toContain('Contoso Ltd');
  }, 60_000);
});
