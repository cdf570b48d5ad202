import { databaseKinds } from '../../support/databases';
import { ADELE, ALEX, SIOBHAN, startWithApprovers } from '../support/botHarness';
import { approvalCardTo, requestInChat } from '../support/cardTurns';
import { suiteBot } from '../support/suiteBot';
import { actionData, cardOf, cardText, type SentCard, verbsOf } from '../support/fakeConnector';

/** Every card showing a request stays true, decisions reach the requester. */
describe.each(databaseKinds)('cards that stay true, on %s', (kind) => {
  const bot = suiteBot(() => startWithApprovers(kind));

  /** Alex requests a Client engagement team; resolves to its confirmation, progress card and job id. */
  async function request(name: string) {
    const { mark, confirmation, progress, jobId } = await requestInChat(
      bot,
      ALEX,
      'client-engagement',
      { name },
      `form-${name}`,
    );
    const approval = await approvalCardTo(bot.connector, ADELE, mark);
    const approvalId = String(actionData(cardOf(approval.body), 'approve')!.approvalId);
    return { mark, confirmation, progress, jobId, approvalId, formMessage: `form-${name}` };
  }

  const shows = (activityId: string, pattern: RegExp) => () => {
    const card = bot.connector.currentCard(activityId);
    return card && pattern.test(cardText(card)) ? card : undefined;
  };

  it('keeps every card of a request moving: Refresh, Status and "status <id>" before the approval', async () => {
    const { mark, progress, jobId, approvalId, formMessage } = await request('Northwind');

    // Refresh on the progress card: that card, in place, not a second card.
    const refreshed = bot.cardOfAnswer(await bot.execute(ALEX, 'showStatus', { jobId }, progress.activityId));
    expect(cardText(refreshed)).toMatch(/Waiting for approval/);
    // Status on a confirmation card drawn when it had that button (the form's message): it stays
    // the confirmation, so the request keeps one living card.
    const status = bot.cardOfAnswer(await bot.execute(ALEX, 'showStatus', { jobId }, formMessage));
    expect(cardText(status)).toContain('Request received');
    // "status <id>" typed: a new card, which follows the request too.
    const typedMark = bot.connector.sent.length;
    await bot.say(ALEX, `status ${jobId}`);
    const typed = bot.lastCard(ALEX, typedMark);
    expect(
      bot.connector
        .messages(ALEX.conversationId, mark)
        .filter((m) => /Waiting for approval/.test(cardText(m.body))),
    ).toHaveLength(2);

    await bot.execute(ADELE, 'approve', { approvalId, comment: 'Looks good, go ahead' });

    // Every card that shows the request ends at "ready", with the approver's name and words.
    for (const activityId of [progress.activityId, typed.activityId]) {
      const ready = await bot.connector.waitFor(shows(activityId, /Your team is ready/), 20_000);
      expect(cardText(ready)).toContain('Approved by Adele Vance');
      expect(cardText(ready)).toContain('Looks good, go ahead');
      expect(JSON.stringify(ready)).toContain('Action.OpenUrl');
    }
  }, 60_000);

  it('posts one new message when the team is ready, with Open team and the approver’s words', async () => {
    const { progress, approvalId } = await request('Tailspin');
    const approved = bot.connector.sent.length;
    await bot.execute(ADELE, 'approve', { approvalId, comment: 'Fine by me' });
    await bot.connector.waitFor(shows(progress.activityId, /Your team is ready/), 20_000);
    const notice = await bot.connector.waitFor(() =>
      bot.connector.messages(ALEX.conversationId, approved).find((m) => /is ready\./.test(cardText(m.body))),
    );
    const card = cardOf(notice.body) as SentCard;
    expect(cardText(card)).toContain('CLI-US-Tailspin');
    expect(cardText(card)).toContain('Fine by me');
    expect(JSON.stringify(card)).toContain('Action.OpenUrl');
    // Later deliveries and polls see the same end: still one message.
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(
      bot.connector
        .messages(ALEX.conversationId, approved)
        .filter((m) => /is ready\./.test(cardText(m.body))),
    ).toHaveLength(1);
  }, 60_000);

  it('tells the requester who rejected and why, on the card and in a new message', async () => {
    const { progress, approvalId } = await request('Wingtip');
    const decided = bot.connector.sent.length;
    await bot.execute(SIOBHAN, 'reject', { approvalId, comment: 'Use the existing Wingtip team' });
    const rejected = await bot.connector.waitFor(shows(progress.activityId, /Rejected by/), 20_000);
    expect(cardText(rejected)).toContain("Rejected by Siobhán O'Connor");
    expect(cardText(rejected)).toContain('Use the existing Wingtip team');
    const notice = await bot.connector.waitFor(() =>
      bot.connector.messages(ALEX.conversationId, decided).find((m) => /was rejected/.test(cardText(m.body))),
    );
    expect(cardText(notice.body)).toContain('Use the existing Wingtip team');
    expect(verbsOf(notice.body)).toContain('retryRequest');
  }, 60_000);

  it('understands "status" alone, an unknown id, a greeting, and offers Open team on ready requests', async () => {
    let mark = bot.connector.sent.length;
    await bot.say(ALEX, 'status');
    const list = bot.lastCard(ALEX, mark).card;
    expect(cardText(list)).toContain('My requests');
    // The ready request of the first test has its link on the list.
    expect(JSON.stringify(list)).toMatch(/"Action.OpenUrl","title":"Open team"|"title":"Open team"/);

    mark = bot.connector.sent.length;
    await bot.say(ALEX, 'status 0b7a1c3e-1111-4444-8888-123456789012');
    const [unknown] = bot.connector.messages(ALEX.conversationId, mark);
    expect(unknown!.body.text).toMatch(
      /no request of yours for a team called "0b7a1c3e-1111-4444-8888-123456789012"/,
    );
    expect(String(unknown!.body.text)).not.toMatch(/no longer exists/);

    mark = bot.connector.sent.length;
    await bot.say(ALEX, 'Hello!');
    const hello = bot.lastCard(ALEX, mark).card;
    expect(cardText(hello)).toContain('Hi Alex');
    expect(cardText(hello)).not.toMatch(/did not understand/);
  }, 30_000);
});
