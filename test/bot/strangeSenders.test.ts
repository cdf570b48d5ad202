import { randomUUID } from 'node:crypto';
import { databaseKinds } from '../support/databases';
import { ALEX, type BotHarness, MEGAN, startBotHarness, type TeamsPerson } from './support/botHarness';
import { suiteBot } from './support/suiteBot';

/** Rows of the bot's state. */
async function stateRows(bot: BotHarness): Promise<string[]> {
  const rows = await bot.steward.steward.store.db.selectFrom('bot_state').select('key').execute();
  return rows.map((row) => row.key);
}

/** A person the directory does not know, as Teams would present them. */
function stranger(n: number): TeamsPerson {
  return {
    aadObjectId: randomUUID(),
    name: `Stranger ${n}`,
    teamsId: `29:stranger-${n}`,
    conversationId: `a:personal-stranger-${n}`,
  };
}

/** Runs `work` for 0…count-1, `lanes` at a time. */
async function inLanes(count: number, lanes: number, work: (n: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < count) await work(next++);
  };
  await Promise.all(Array.from({ length: lanes }, lane));
}

/**
 * How many strangers write: each of them left rows before (where they are reached, a language, a
 * welcome mark), so a few dozen of each kind show a row kept for anyone. Their number is not the
 * point: 1 500 took half a minute a database and showed nothing more.
 */
const STRANGERS = 150;

describe.each(databaseKinds)('the bot on %s', (kind) => {
  // One Steward for both parts: neither changes what the other checks.
  const bot = suiteBot(() => startBotHarness(kind));
  describe('activities the bot refuses at the door', () => {
    it.each([
      ['conversation.id', { conversation: { id: 'a:personal-alex\u0000x', conversationType: 'personal' } }],
      ['from.id', { from: { id: '29:alex\u0000', name: ALEX.name, aadObjectId: ALEX.aadObjectId } }],
      ['from.name', { from: { id: ALEX.teamsId, name: 'Alex\u001b[31m', aadObjectId: ALEX.aadObjectId } }],
      ['replyToId', { replyToId: 'reply\u0000to' }],
      ['channelData.tenant.id', { channelData: { tenant: { id: 'tenant\u0000' } } }],
    ])('a control character in %s is a 400 naming it; nothing is sent or kept', async (field, change) => {
      const rows = await stateRows(bot);
      const sent = bot.connector.sent.length;
      const answer = await bot.send(ALEX, { type: 'message', text: 'help', ...change });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({
        error: { code: 'invalidActivity', message: expect.stringContaining(field) },
      });
      expect(bot.connector.sent.length).toBe(sent);
      expect(await stateRows(bot)).toEqual(rows);
    });

    it('a conversation id without one is still answered', async () => {
      const sent = bot.connector.sent.length;
      expect((await bot.say(ALEX, 'help')).status).toBe(200);
      await bot.connector.waitFor(() => bot.connector.messages(ALEX.conversationId, sent)[0]);
    });
  });

  describe('senders the directory does not know', () => {
    beforeAll(async () => {
      // The channel's home is known before the strangers come.
      await bot.say(ALEX, 'help');
    });

    it(`${STRANGERS} messages from as many strangers leave no row behind, and each is answered`, async () => {
      const before = await stateRows(bot);
      const strangers = Array.from({ length: STRANGERS }, (_, n) => stranger(n));
      await inLanes(strangers.length, 16, async (n) => {
        const from = strangers[n]!;
        // Their own words, a language of their choice, an install: each kept a row for them before.
        const activity =
          n % 3 === 0
            ? { type: 'message', text: 'language fr' }
            : n % 3 === 1
              ? { type: 'installationUpdate', action: 'add' }
              : { type: 'message', text: 'my requests' };
        expect((await bot.send(from, activity)).status).toBe(200);
      });
      const after = await stateRows(bot);
      // Before: a row where each stranger is reached, a language for a third, a welcome for a third.
      expect(after.filter((key) => !before.includes(key))).toHaveLength(0);
      // Each was answered all the same: told that Steward does not know them.
      const last = strangers[strangers.length - 1]!;
      await bot.connector.waitFor(() =>
        bot.connector
          .messages(last.conversationId)
          .find((m) => /do not know you yet/.test(JSON.stringify(m.body))),
      );
    }, 120_000);

    it('someone the directory knows is still remembered where they are reached', async () => {
      await bot.say(MEGAN, 'help');
      expect(await stateRows(bot)).toContain(`users/${MEGAN.aadObjectId}`);
    });
  });
});
