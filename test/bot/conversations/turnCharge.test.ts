import { databaseKinds } from '../../support/databases';
import { ALEX, type BotHarness, startBotHarness } from '../support/botHarness';
import { cardText } from '../support/fakeConnector';

/** Operations whose tier (rbac.ts) is each of the three, callable by any person without side effects. */
const PROBES = [
  // Tier 1: a request with no body is refused (400) after the limit stage charged it.
  { tier: 1, method: 'POST', path: '/api/v1.0/teams/provisioning', body: {} },
  { tier: 2, method: 'GET', path: '/api/v1.0/me/catalog/templates' },
  { tier: 3, method: 'GET', path: '/api/v1.0/users?$search=zzzz' },
] as const;

/**
 * A typed message costs the person's rate-limit budget once, however many calls the bot makes as
 * them to answer it (templates, people, labels, preview): counted in the API's own rate limiter,
 * through `X-RateLimit-Remaining` of the person's next call in each tier, over real HTTP.
 */
describe.each(databaseKinds)('a typed message and the rate limit (%s)', (kind) => {
  let bot: BotHarness;
  const logLines: Array<Record<string, unknown>> = [];
  beforeAll(async () => {
    bot = await startBotHarness(kind, { STEWARD_RATE_LIMIT_FACTOR: '1' }, {}, undefined, logLines);
  });
  afterAll(() => bot.close());

  /** How many calls of each tier the person's budget has spent this minute (a probe counts itself). */
  async function spent(): Promise<number> {
    const token = await bot.steward.userToken(ALEX.aadObjectId);
    let total = 0;
    for (const probe of PROBES) {
      const answer = await bot.steward.call(probe.method, probe.path, {
        token,
        ...('body' in probe ? { body: probe.body } : {}),
      });
      const limit = Number(answer.headers['x-ratelimit-limit']);
      const remaining = Number(answer.headers['x-ratelimit-remaining']);
      expect(limit).toBeGreaterThan(0);
      total += limit - remaining - 1;
    }
    return total;
  }

  it('is charged once for all the calls the bot makes as the person', async () => {
    const before = await spent();
    const from = logLines.length;
    await bot.say(ALEX, 'a project team called Orion with Megan');
    expect(cardText(bot.lastCard(ALEX).card)).toMatch(/Orion/);
    const calls = logLines
      .slice(from)
      .filter((line) => line.msg === 'request' && line.caller === ALEX.aadObjectId);
    // The answer took several calls as Alex...
    expect(calls.length).toBeGreaterThanOrEqual(3);
    // ...and one charge: the probes themselves spent one call of each tier.
    expect((await spent()) - before - PROBES.length).toBe(1);
  }, 60_000);

  it('a person’s own token cannot claim a charged turn', async () => {
    const token = await bot.steward.userToken(ALEX.aadObjectId);
    const answer = await bot.steward.call('GET', '/api/v1.0/me/catalog/templates', {
      token,
      headers: { 'x-steward-charged-turn': `Bearer ${token}` },
    });
    expect(answer.status).toBe(403);
  });
});
