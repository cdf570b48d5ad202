import { PEOPLE } from '../../support/steward';
import { databaseKinds } from '../../support/databases';
import { actionData, cardText, verbsOf } from '../support/fakeConnector';
import { ALEX, type BotAnswer, SIOBHAN, startWithApprovers, type TeamsPerson } from '../support/botHarness';
import { suiteBot } from '../support/suiteBot';

/** Neither the requester nor an approver of the request, nor an admin: a plain person of the directory. */
const ISAIAH: TeamsPerson = {
  aadObjectId: PEOPLE.isaiah,
  name: 'Isaiah Langer',
  teamsId: '29:isaiah-teams-id',
  conversationId: 'a:personal-isaiah',
};

const NAME = 'Initech';
/** What the template's description convention makes of the request's description. */
const DESCRIPTION = 'Engagement with Initech, requested by alexw@example.com';

/** Everything an answer carries, as text: the card in place, or the message. */
const everything = (answer: BotAnswer) => JSON.stringify(answer.body ?? '');

describe.each(databaseKinds)('who sees an approval through the bot, on %s', (kind) => {
  const bot = suiteBot(() => startWithApprovers(kind));
  let approvalId: string;
  let mark: number;
  beforeAll(async () => {
    await bot.say(ISAIAH, 'help');
    mark = bot.connector.sent.length;
    const form = bot.cardOfAnswer(
      await bot.execute(ALEX, 'pickTemplate', { templateId: 'client-engagement' }),
    );
    bot.cardOfAnswer(
      await bot.execute(ALEX, 'submitRequest', {
        ...actionData(form, 'submitRequest'),
        name: NAME,
      }),
    );
    const posted = await bot.connector.waitFor(() =>
      bot.connector.messages(SIOBHAN.conversationId, mark).find((m) => verbsOf(m.body).includes('approve')),
    );
    approvalId = String(actionData(bot.connector.currentCard(posted.activityId), 'approve')!.approvalId);
  });

  it.each([
    ['refreshApproval', {}],
    ['checkApprovalName', { teamName: 'Something else' }],
    ['approve', { comment: 'let me in' }],
    ['reject', {}],
  ])('%s by someone else holding the approval id shows nothing of the request', async (verb, extra) => {
    const sent = bot.connector.sent.length;
    const answer = await bot.execute(ISAIAH, verb, { approvalId, ...extra });
    expect(answer.status).toBe(200);
    expect(everything(answer)).not.toContain(NAME);
    expect(everything(answer)).not.toContain(DESCRIPTION);
    expect(everything(answer)).not.toContain('"verb":"approve"');
    expect(everything(answer)).toContain(
      'Only the requester and the approval team of this request can see it',
    );
    // Nor in a message of its own.
    for (const message of bot.connector.messages(ISAIAH.conversationId, sent))
      expect(JSON.stringify(message.body)).not.toContain(NAME);
  });

  it('the approver still gets the request with Approve / Reject, refreshed or checked', async () => {
    const refreshed = bot.cardOfAnswer(await bot.execute(SIOBHAN, 'refreshApproval', { approvalId }));
    expect(cardText(refreshed)).toContain(NAME);
    expect(cardText(refreshed)).toContain(DESCRIPTION);
    expect(verbsOf(refreshed)).toEqual(expect.arrayContaining(['approve', 'reject']));
    const checked = bot.cardOfAnswer(
      await bot.execute(SIOBHAN, 'checkApprovalName', { approvalId, teamName: 'Initrode' }),
    );
    expect(cardText(checked)).toContain('Initrode');
    expect(verbsOf(checked)).toEqual(expect.arrayContaining(['approve', 'reject']));
  });

  it('the requester sees their request, read-only', async () => {
    for (const verb of ['refreshApproval', 'checkApprovalName']) {
      const card = bot.cardOfAnswer(await bot.execute(ALEX, verb, { approvalId, teamName: 'Mine' }));
      expect(cardText(card)).toContain(NAME);
      expect(verbsOf(card)).not.toContain('approve');
    }
  });
});
