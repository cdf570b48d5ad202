import type { Job } from '../../../src/contract';
import { databaseKinds } from '../../support/databases';
import { waitForJob } from '../../support/jobs';
import { PEOPLE } from '../../support/steward';
import { cardOf, cardText, verbsOf } from '../support/fakeConnector';
import { ALEX, SIOBHAN, startBotHarness } from '../support/botHarness';
import { requestInChat } from '../support/cardTurns';
import { suiteBot } from '../support/suiteBot';

/**
 * One request, one living card; one press, one effect. The confirmation card
 * has no Status of its own (and an old one's Status leaves it a confirmation instead of making a
 * second progress card); Try again posts one form however often it is pressed, on whichever card.
 */
describe.each(databaseKinds)('one request, one living card, on %s', (kind) => {
  const bot = suiteBot(async () => {
    const started = await startBotHarness(kind);
    await started.say(SIOBHAN, 'help');
    return started;
  });

  it('keeps one progress card per request and posts one form for any number of Try again', async () => {
    const { mark, confirmation, progress, jobId } = await requestInChat(
      bot,
      ALEX,
      'client-engagement',
      { name: 'Northwind' },
      'form-message',
    );
    expect(cardText(confirmation)).toContain('Request received');
    expect(verbsOf(confirmation)).toEqual([]);

    // Status pressed on a confirmation card drawn before it lost the button: still a confirmation,
    // nothing posted, and the request's card is the only one following it.
    const before = bot.connector.sent.length;
    const status = bot.cardOfAnswer(await bot.execute(ALEX, 'showStatus', { jobId }, 'form-message'));
    expect(cardText(status)).toContain('Request received');
    expect(cardText(status)).not.toMatch(/Waiting for approval/);
    expect(bot.connector.messages(ALEX.conversationId, before)).toHaveLength(0);
    // Refresh on the progress card brings that card up to date.
    const refreshed = bot.cardOfAnswer(await bot.execute(ALEX, 'showStatus', { jobId }, progress.activityId));
    expect(cardText(refreshed)).toMatch(/Waiting for approval/);

    // Siobhán rejects it: the card and the "ended" message offer Try again.
    const siobhan = await bot.steward.userToken(SIOBHAN.aadObjectId, [], { name: SIOBHAN.name });
    const alex = await bot.steward.userToken(PEOPLE.alex, [], { name: ALEX.name });
    const job = await bot.steward.call<Job>('GET', `/api/v1.0/jobs/${jobId}`, { token: alex });
    const approvalId = (job.body.data.approval as { id: string }).id;
    const rejected = await bot.steward.call('POST', `/api/v1.0/approvals/${approvalId}/reject`, {
      token: siobhan,
      body: { message: 'Use the existing team' },
    });
    expect(rejected.status).toBe(200);
    expect((await waitForJob(bot.steward, alex, jobId)).status).toBe('failed');
    await bot.connector.waitFor(() =>
      verbsOf(bot.connector.currentCard(progress.activityId)).includes('retryRequest'),
    );
    const ended = await bot.connector.waitFor(() =>
      bot.connector
        .messages(ALEX.conversationId, mark)
        .find((m) => m.activityId !== progress.activityId && verbsOf(m.body).includes('retryRequest')),
    );

    // Try again, pressed three times on the card and once on the message: one form.
    const pressed = bot.connector.sent.length;
    const answers = [];
    for (const where of [progress.activityId, progress.activityId, ended.activityId, progress.activityId])
      answers.push(bot.cardOfAnswer(await bot.execute(ALEX, 'retryRequest', { jobId }, where)));
    const forms = bot.connector
      .messages(ALEX.conversationId, pressed)
      .filter((m) => verbsOf(cardOf(m.body) ?? {}).includes('submitRequest'));
    expect(forms).toHaveLength(1);
    expect(cardText(cardOf(forms[0]!.body))).toContain('Northwind');
    for (const answer of answers) {
      expect(verbsOf(answer)).not.toContain('retryRequest');
      expect(cardText(answer)).toContain('You asked to try again: the form is in a message below.');
    }
    // The card itself was redrawn without the button, so no client keeps offering it.
    expect(verbsOf(bot.connector.currentCard(progress.activityId))).not.toContain('retryRequest');
  }, 90_000);
});
