import { ALEX, type BotHarness, startBotHarness } from '../support/botHarness';
import { readTexts } from '../support/englishLeaks';
import { cardOf } from '../support/fakeConnector';

/**
 * Typed messages at the contract's rate limits, cut to a small budget: a person exploring in their
 * own words is answered every time, when the budget allows, and never told to try again.
 */
describe('typed messages at the rate limit', () => {
  let bot: BotHarness;
  beforeAll(async () => {
    // A message costs one call of its first operation's tier (templates, tier 2): two a minute here.
    bot = await startBotHarness('sqlite', { STEWARD_RATE_LIMIT_FACTOR: '0.1' });
    // Among the first files a run starts (test/support/sequencer.js), before its worker has
    // compiled anything: as long as the other bot suites give their start.
  }, 60_000);
  afterAll(() => bot?.close());

  it('answers each message when the budget allows, saying it is working on it', async () => {
    const mark = bot.connector.messages(ALEX.conversationId).length;
    const names = ['Atlas', 'Borealis', 'Cassini', 'Dorado'];
    // The Bot Connector gives a turn 15 s: a longer wait is answered in a turn of the bot's own.
    const turns: number[] = [];
    for (const name of names) {
      const started = Date.now();
      await bot.say(ALEX, `I need a project team called ${name} with Megan`);
      turns.push(Date.now() - started);
    }
    expect(Math.max(...turns)).toBeLessThan(15_000);
    const answered = () => {
      const bodies = JSON.stringify(bot.connector.messages(ALEX.conversationId, mark).map((m) => m.body));
      return names.every((name) => bodies.includes(name));
    };
    await bot.connector.waitFor(answered, 120_000);
    const sent = bot.connector.messages(ALEX.conversationId, mark);
    const texts = sent.map((message) => {
      const card = cardOf(message.body);
      return card ? readTexts(card).join('\n') : JSON.stringify(message.body);
    });
    const all = texts.join('\n');
    expect(all).not.toMatch(/busy|try again/i);
    expect(all).toMatch(/Working on it/);
    for (const name of names) expect(JSON.stringify(sent.map((message) => message.body))).toContain(name);
  }, 240_000);
});
