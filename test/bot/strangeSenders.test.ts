import { databaseKinds } from '../support/databases';
import { ALEX, type BotHarness, startBotHarness } from './support/botHarness';

/** Rows of the bot's state. */
async function stateRows(bot: BotHarness): Promise<string[]> {
  const rows = await bot.steward.steward.store.db.selectFrom('bot_state').select('key').execute();
  return rows.map((row) => row.key);
}

describe.each(databaseKinds)('activities the bot refuses at the door, on %s', (kind) => {
  let bot: BotHarness;
  beforeAll(async () => {
    bot = await startBotHarness(kind);
  });
  afterAll(() => bot?.close());

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
