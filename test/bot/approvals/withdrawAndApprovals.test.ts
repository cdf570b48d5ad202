import type { Job } from '../../../src/contract';
import { databaseKinds } from '../../support/databases';
import { waitForJob } from '../../support/jobs';
import { PEOPLE } from '../../support/steward';
import { FRENCH, frenchText } from '../support/cardTurns';
import { actionData, cardOf, cardText, verbsOf } from '../support/fakeConnector';
import { ADELE, ALEX, SIOBHAN, startWithApprovers, type TeamsPerson } from '../support/botHarness';
import { suiteBot } from '../support/suiteBot';

/**
 * In chat: the requester withdraws a request while it waits for approval (asked
 * to confirm first), and every approver's card says so; an approver whose cards are gone (a
 * reloaded playground page) types "my approvals" and gets each waiting request's card again, to
 * decide on, and a list of them. Over real HTTP with the bot's real adapter.
 */
describe.each(databaseKinds)('withdraw and my approvals in chat, on %s', (kind) => {
  const bot = suiteBot(() => startWithApprovers(kind));
  let alexToken: string;
  beforeAll(async () => {
    alexToken = await bot.steward.userToken(PEOPLE.alex, [], { name: ALEX.name });
  }, 60_000);

  /** Alex requests a Client engagement team called `name`: its progress card and job id. */
  const request = async (name: string) => {
    const mark = bot.connector.sent.length;
    const form = bot.cardOfAnswer(
      await bot.execute(ALEX, 'pickTemplate', { templateId: 'client-engagement' }),
    );
    bot.cardOfAnswer(
      await bot.execute(ALEX, 'submitRequest', { ...actionData(form, 'submitRequest'), name }),
    );
    const progress = bot.progressCard(ALEX, mark);
    return { mark, progress, jobId: String(actionData(progress.card, 'showStatus')!.jobId) };
  };
  /** The approval card about `team` posted to `who` since `mark`. */
  const approvalCardOf = (who: TeamsPerson, team: string, mark: number) =>
    bot.connector.waitFor(() =>
      bot.connector
        .messages(who.conversationId, mark)
        .find((m) => verbsOf(m.body).includes('approve') && cardText(m.body).includes(team)),
    );
  const press = (who: TeamsPerson, verb: string, data: Record<string, unknown>, on: string, locale = {}) =>
    bot.send(who, {
      type: 'invoke',
      name: 'adaptiveCard/action',
      replyToId: on,
      value: { action: { type: 'Action.Execute', verb, data } },
      ...locale,
    });

  it('withdraws a waiting request after a confirmation, and every approver’s card says so', async () => {
    const { mark, progress, jobId } = await request('Litware');
    const siobhan = await approvalCardOf(SIOBHAN, 'CLI-US-Litware', mark);
    expect(verbsOf(progress.card)).toContain('withdrawRequest');

    // Withdraw asks first; Cancel brings the card back, nothing withdrawn.
    const asking = bot.cardOfAnswer(await press(ALEX, 'withdrawRequest', { jobId }, progress.activityId));
    expect(cardText(asking)).toContain('Withdraw your request for **CLI-US-Litware**?');
    expect(verbsOf(asking)).toEqual(['withdrawRequest', 'showStatus']);
    const cancel = actionData(asking, 'showStatus')!;
    const back = bot.cardOfAnswer(await press(ALEX, 'showStatus', cancel, progress.activityId));
    expect(cardText(back)).toMatch(/Waiting for approval/);
    expect(verbsOf(back)).toContain('withdrawRequest');
    const still = await bot.steward.call<Job>('GET', `/api/v1.0/jobs/${jobId}`, { token: alexToken });
    expect(still.body.status).toBe('waiting');

    // Confirmed: withdrawn, on his card and on the approvers'.
    const confirm = actionData(asking, 'withdrawRequest')!;
    expect(confirm).toEqual({ jobId, confirmed: true });
    const done = bot.cardOfAnswer(await press(ALEX, 'withdrawRequest', confirm, progress.activityId));
    expect(cardText(done)).toContain('You withdrew the request');
    expect(verbsOf(done)).not.toContain('withdrawRequest');
    expect((await waitForJob(bot.steward, alexToken, jobId)).data.approval).toMatchObject({
      status: 'withdrawn',
    });
    const withdrawnCard = await bot.connector.waitFor(() => {
      const card = bot.connector.currentCard(siobhan.activityId);
      return card && /Withdrawn/.test(cardText(card)) ? card : undefined;
    });
    expect(cardText(withdrawnCard)).toContain('Alex Wilber withdrew the request for **CLI-US-Litware**');
    expect(verbsOf(withdrawnCard)).not.toContain('approve');
    // A late press on an approval card: the withdrawn card again, never an error.
    const approvalId = String(actionData(cardOf(siobhan.body), 'approve')!.approvalId);
    const late = bot.cardOfAnswer(await press(SIOBHAN, 'approve', { approvalId }, siobhan.activityId));
    expect(cardText(late)).toMatch(/Withdrawn/);

    // Withdrawn again, from a card drawn before: said on the card, nothing changes.
    const again = bot.cardOfAnswer(await press(ALEX, 'withdrawRequest', confirm, progress.activityId));
    expect(cardText(again)).toContain('is no longer waiting for approval');
    // "my requests" says withdrawn; "withdraw" finds nothing left to withdraw.
    let before = bot.connector.sent.length;
    await bot.say(ALEX, 'my requests');
    expect(cardText(bot.lastCard(ALEX, before).card)).toContain('Withdrawn');
    before = bot.connector.sent.length;
    await bot.say(ALEX, 'withdraw');
    expect(cardText(bot.lastCard(ALEX, before).card)).toContain(
      'None of your requests is waiting for approval.',
    );
  }, 90_000);

  it('shows a withdrawal made through the API on every approver’s card, from its event', async () => {
    const { mark, jobId } = await request('Fourth Coffee');
    const siobhan = await approvalCardOf(SIOBHAN, 'CLI-US-Fourth Coffee', mark);
    const res = await bot.steward.call('POST', `/api/v1.0/jobs/${jobId}/withdraw`, { token: alexToken });
    expect(res.status).toBe(200);
    const card = await bot.connector.waitFor(() => {
      const now = bot.connector.currentCard(siobhan.activityId);
      return now && /Withdrawn/.test(cardText(now)) ? now : undefined;
    }, 20_000);
    expect(verbsOf(card)).not.toContain('approve');
  }, 90_000);

  it('lists what waits for an approver, with each card to decide on, in her language', async () => {
    const { mark, progress, jobId } = await request('Adatum');
    await approvalCardOf(ADELE, 'CLI-US-Adatum', mark);
    // "withdraw" typed lists it, with its button.
    let before = bot.connector.sent.length;
    await bot.say(ALEX, 'withdraw');
    const withdrawable = bot.lastCard(ALEX, before).card;
    expect(cardText(withdrawable)).toContain('CLI-US-Adatum');
    expect(actionData(withdrawable, 'withdrawRequest')).toEqual({ jobId });

    // Adele's page was reloaded: her card is gone. "my approvals" posts it again, then the list.
    before = bot.connector.sent.length;
    await bot.say(ADELE, 'my approvals');
    const posted = bot.connector.messages(ADELE.conversationId, before);
    const cards = posted.filter((m) => verbsOf(m.body).includes('approve'));
    expect(cards).toHaveLength(1);
    expect(cardText(cards[0]!.body)).toContain('CLI-US-Adatum');
    const list = cardText(posted[posted.length - 1]!.body);
    expect(list).toContain('1 request is waiting for your decision: its card is above.');
    expect(list).toContain('CLI-US-Adatum');
    expect(list).toContain('Alex Wilber');

    // Siobhán asks in French.
    before = bot.connector.sent.length;
    await bot.send(SIOBHAN, { type: 'message', text: 'mes approbations', ...FRENCH });
    const liste = bot.connector.messages(SIOBHAN.conversationId, before);
    expect(frenchText(cardOf(liste[liste.length - 1]!.body)!)).toContain(
      'Une demande attend votre décision : sa carte est juste au-dessus.',
    );

    // She approves on the card just posted: the request moves on, and the card is the one kept up to date.
    const approvalId = String(actionData(cardOf(cards[0]!.body), 'approve')!.approvalId);
    const decided = bot.cardOfAnswer(
      await press(ADELE, 'approve', { approvalId, comment: 'Fine' }, cards[0]!.activityId),
    );
    expect(cardText(decided)).toMatch(/Approved/);
    await bot.connector.waitFor(() => {
      const card = bot.connector.currentCard(progress.activityId);
      return card && /Your team is ready/.test(cardText(card)) ? card : undefined;
    }, 20_000);
    before = bot.connector.sent.length;
    await bot.say(ADELE, 'my approvals');
    expect(cardText(bot.lastCard(ADELE, before).card)).toContain('No request is waiting for your decision.');
  }, 90_000);
});
