import { JOBS_A_READ } from '../../../src/client';
import { STEWARD_BOT_APP_ID } from '../../../src/store/seed/directory';
import { databaseKinds } from '../../support/databases';
import { PEOPLE, suiteSteward } from '../../support/steward';

const HEADER = 'x-steward-on-behalf-of';
const OTHER_APP = '7d3c1f0e-2b4a-4c5d-8e9f-0a1b2c3d4e5f';

interface Jobs {
  value: Array<{ id: string }>;
}

/** The bot's reads for people (`GET /jobs?ids=`, `X-Steward-On-Behalf-Of`), at the contract's limits. */
describe.each(databaseKinds)('reading jobs for people, on %s', (kind) => {
  let bot: string;

  const suite = suiteSteward(kind, { env: { STEWARD_RATE_LIMIT_FACTOR: '1' } });
  beforeAll(async () => {
    bot = await suite.app.appToken(STEWARD_BOT_APP_ID, ['INTEGRATION_MANAGER']);
  });

  const request = async (person: string, name: string) => {
    const res = await suite.app.call<{ id: string }>('POST', '/api/v1.0/teams/provisioning', {
      token: await suite.app.userToken(person),
      body: { template: { id: 'project' }, team: { name } },
    });
    expect(res.status).toBe(201);
    return res.body.id;
  };

  it('counts a call the bot makes for a person against that person’s budget, not the bot’s', async () => {
    const jobId = await request(PEOPLE.isaiah, 'For Isaiah');
    const path = `/api/v1.0/jobs?ids=${jobId}`;
    const forIsaiah = { token: bot, headers: { [HEADER]: PEOPLE.isaiah } };
    for (let i = 1; i <= 60; i++) {
      const res = await suite.app.call<Jobs>('GET', path, forIsaiah);
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-remaining']).toBe(String(60 - i));
      expect(res.body.value.map((job) => job.id)).toEqual([jobId]);
    }
    // Isaiah's tier-3 minute is spent: his own call is refused, and so is the bot's next one for him…
    const own = await suite.app.call('GET', '/api/v1.0/users?$top=1', {
      token: await suite.app.userToken(PEOPLE.isaiah),
    });
    expect(own.status).toBe(429);
    expect((await suite.app.call('GET', path, forIsaiah)).status).toBe(429);
    // …while the bot's own budget is whole, and so is another person's.
    const mine = await suite.app.call('GET', path, { token: bot });
    expect(mine.status).toBe(200);
    expect(mine.headers['x-ratelimit-remaining']).toBe('59');
    const forAlex = await suite.app.call('GET', path, { token: bot, headers: { [HEADER]: PEOPLE.alex } });
    expect(forAlex.headers['x-ratelimit-remaining']).toBe('59');
  });

  it('lets only the bot’s own app token name a person, and only a person of the directory', async () => {
    const jobId = await request(PEOPLE.adele, 'For Adele');
    const path = `/api/v1.0/jobs?ids=${jobId}`;
    const other = await suite.app.appToken(OTHER_APP, ['INTEGRATION_MANAGER']);
    for (const token of [
      other,
      await suite.app.userToken(PEOPLE.adele),
      await suite.app.userToken(PEOPLE.megan, ['GLOBAL_ADMIN']),
    ]) {
      const refused = await suite.app.call('GET', path, { token, headers: { [HEADER]: PEOPLE.adele } });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ error: { code: 'forbidden' } });
    }
    for (const value of ['adele', `${PEOPLE.adele},${PEOPLE.alex}`, '99999999-0000-0000-0000-000000000099']) {
      const invalid = await suite.app.call('GET', path, { token: bot, headers: { [HEADER]: value } });
      expect(invalid.status).toBe(400);
      expect(invalid.body).toMatchObject({
        error: { code: 'validationFailed', details: [{ target: HEADER }] },
      });
    }
    // None of those spent Adele's budget.
    const res = await suite.app.call('GET', path, { token: bot, headers: { [HEADER]: PEOPLE.adele } });
    expect(res.status).toBe(200);
    expect(res.headers['x-ratelimit-remaining']).toBe('59');
  });

  it('reads the jobs the caller may see, in the order asked, up to the client’s JOBS_A_READ at once', async () => {
    const first = await request(PEOPLE.alex, 'Alex one');
    const second = await request(PEOPLE.alex, 'Alex two');
    const lynnes = await request(PEOPLE.lynne, 'Lynne’s');
    const unknown = '00000000-aaaa-bbbb-cccc-000000000000';
    const ids = [second, lynnes, unknown, first, second].join(',');
    const read = async (token: string, query = ids) =>
      suite.app.call<Jobs>('GET', `/api/v1.0/jobs?ids=${query}`, { token });

    const alex = await read(await suite.app.userToken(PEOPLE.alex));
    expect(alex.status).toBe(200);
    expect(alex.body.value.map((job) => job.id)).toEqual([second, first]);
    const admin = await read(await suite.app.userToken(PEOPLE.megan, ['GLOBAL_ADMIN']));
    expect(admin.body.value.map((job) => job.id)).toEqual([second, lynnes, first]);
    expect((await read(bot)).body.value.map((job) => job.id)).toEqual([second, lynnes, first]);

    const hundred = Array.from({ length: JOBS_A_READ }, (_, i) =>
      i === 0 ? first : `${unknown.slice(0, -3)}${String(i).padStart(3, '0')}`,
    );
    expect((await read(bot, hundred.join(','))).status).toBe(200);
    const tooMany = await read(bot, [...hundred, second].join(','));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ error: { code: 'validationFailed' } });
    for (const query of ['', `${first},,${second}`, `${first};drop`])
      expect((await read(bot, query)).status).toBe(400);
  });
});
