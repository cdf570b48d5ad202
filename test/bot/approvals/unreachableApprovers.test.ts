import { databaseKinds } from '../../support/databases';
import { ADELE, ALEX, type BotHarness, botRestarts, SIOBHAN, startBotHarness } from '../support/botHarness';
import { approvalCardTo, requestInChat } from '../support/cardTurns';
import { cardText, verbsOf } from '../support/fakeConnector';

/** An approver the bot cannot reach. */
describe.each(databaseKinds)('an approver the bot cannot reach, on %s', (kind) => {
  let bot: BotHarness | undefined;
  const logs: Array<Record<string, unknown>> = [];
  const parts = botRestarts(kind, () => bot);
  const { connector } = parts;

  const refusals = () => connector.sent.filter((s) => s.kind === 'refused').length;
  /** Waits as the connector does; a timeout names the bot's warnings, which say why it did not try. */
  const retried = (predicate: () => boolean, timeoutMs: number) =>
    connector.waitFor(predicate, timeoutMs).catch((error: unknown) => {
      const warnings = logs
        .filter((line) => Number(line.level) >= 40)
        .map((line) => ({ msg: line.msg, err: (line.err as { message?: string } | undefined)?.message }));
      throw new Error(`${String(error)}; the bot warned: ${JSON.stringify(warnings)}`);
    });

  it('logs once at warn, posts no error anywhere, tells the requester, retries durably and delivers', async () => {
    bot = await startBotHarness(kind, {}, {}, parts, logs);
    // Adele has a chat with the bot; Siobhán has none and the bot may not start one yet.
    await bot.say(ADELE, 'help');
    connector.unreachable.add(SIOBHAN.aadObjectId);

    const { mark, progress } = await requestInChat(bot, ALEX, 'client-engagement', { name: 'Litware' });
    await approvalCardTo(connector, ADELE, mark);

    // The requester's card names who could not be reached.
    await connector.waitFor(() =>
      /could not reach Siobhán O'Connor/.test(cardText(connector.currentCard(progress.activityId))),
    );

    // Retried with backoff, in the background.
    await retried(() => refusals() >= 2, 10_000);

    // Across a restart: the note is in the database, and the new process keeps trying.
    await bot.close();
    const before = refusals();
    bot = await startBotHarness(kind, {}, {}, parts, logs);
    await retried(() => refusals() > before, 10_000);

    // One warning for the card, whatever the number of attempts; no error, no stack, no apology.
    const warnings = logs.filter(
      (line) => line.msg === 'could not deliver an approval card; trying again with backoff',
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40, approverId: SIOBHAN.aadObjectId });
    expect(JSON.stringify(warnings[0])).not.toMatch(/\bat \w+ \(/);
    expect(logs.filter((line) => Number(line.level) >= 50)).toEqual([]);
    expect(connector.sent.filter((s) => /something went wrong/i.test(JSON.stringify(s.body)))).toEqual([]);

    // Siobhán becomes reachable: her card arrives, and the requester's card stops naming her.
    connector.unreachable.delete(SIOBHAN.aadObjectId);
    const created = await connector.waitFor(
      () =>
        connector.sent.find(
          (s) => s.kind === 'create' && JSON.stringify(s.body).includes(SIOBHAN.aadObjectId),
        ),
      15_000,
    );
    await connector.waitFor(() =>
      connector.messages(created.conversationId).find((m) => verbsOf(m.body).includes('approve')),
    );
    await connector.waitFor(
      () => !/could not reach/.test(cardText(connector.currentCard(progress.activityId))),
      10_000,
    );
    const settled = refusals();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(refusals()).toBe(settled);
  }, 90_000);
});
