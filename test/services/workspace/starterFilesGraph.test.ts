import type { Agent } from 'undici';
import type { Job } from '../../../src/contract';
import { createGraphPlatform } from '../../../src/platform/graph';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../support/databases';
import { FakeGraph } from '../../support/fakeGraph';
import { BOT, graphSettings, seedTenant } from '../../support/graphTenant';
import { waitForJob } from '../../support/jobs';
import { PEOPLE, startTestSteward, type TestSteward } from '../../support/steward';

/**
 * A template's folders and starter files on Microsoft Graph's simulator, read as Graph's own page
 * of `PUT …/content` reads ("upload or replace": no conflict behaviour taken from the query). The
 * files step parks while SharePoint makes a shared channel's site, and comes back where it stopped:
 * an owner's edit made during that wait survives, nothing is asked twice, and the job's log counts
 * only what was made.
 */
describe.each(databaseKinds)('starter files across a park, on Microsoft Graph (simulator), %s', (kind) => {
  let fake: FakeGraph;
  let dispatcher: Agent;
  let db: TestDatabase;
  let app: TestSteward;
  let alex: string;

  beforeAll(async () => {
    fake = await FakeGraph.start({ bot: BOT });
    fake.files.putConflictBehavior = 'ignored';
    dispatcher = fake.dispatcher();
    seedTenant(fake);
    db = await createTestDatabase(kind);
    const platform = createGraphPlatform(fake.config(), {
      dispatcher,
      retry: { maxAttempts: 5, baseDelayMs: 1, maxDelayMs: 1500, timeoutMs: 10_000 },
      polling: {
        initialDelayMs: 20,
        cloneInitialDelayMs: 20,
        replicationDelayMs: 20,
        maxDelayMs: 50,
        timeoutMs: 10_000,
        notFoundRetries: 3,
      },
      replicationDelayMs: 10,
      // Short looks at the site, so the job comes back from several parks within the test.
      filesFolder: { firstDelayMs: 100, maxDelayMs: 100, timeoutMs: 60_000 },
      bot: { appId: BOT.appId, appPassword: BOT.secret, appTenantId: fake.tenantId },
    });
    app = await startTestSteward(db, { STEWARD_JOB_POLL_MS: '50', ...graphSettings(fake) }, { platform });
    alex = await app.userToken(PEOPLE.alex, [], { name: 'Alex Wilber', upn: 'alexw@example.com' });
  });

  afterAll(async () => {
    await app?.close();
    await dispatcher?.close();
    await fake?.close();
    await db?.drop();
  });

  afterEach(() => {
    fake.files.siteDelayMs = undefined;
  });

  const provision = async (name: string): Promise<Job> => {
    const res = await app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
      token: alex,
      body: { template: { id: 'department-marketing' }, team: { name } },
    });
    expect(res.status).toBe(201);
    return res.body;
  };
  const job = async (id: string): Promise<Job> =>
    (await app.call<Job>('GET', `/api/v1.0/jobs/${id}`, { token: alex })).body;
  /** Polls until `ready` holds (each look is a read of the API or of the simulator), or fails. */
  const until = async (ready: () => Promise<boolean> | boolean, what: string): Promise<void> => {
    const deadline = Date.now() + 20_000;
    while (!(await ready())) {
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  const folderLooks = (channelId: string) =>
    fake.requests.filter(
      (r) => r.method === 'GET' && decodeURIComponent(r.path).endsWith(`/channels/${channelId}/filesFolder`),
    ).length;

  test("an owner's edit made while the job waits for a shared channel's site survives its resumption", async () => {
    fake.files.siteDelayMs = 10 * 60_000;
    const created = await provision('Edited while waiting');
    await until(async () => (await job(created.id)).waitingFor?.reason === 'channelFiles', 'the park');
    const parked = await job(created.id);
    const team = fake.teams.get((parked.data.team as { id: string }).id)!;
    const channel = (name: string) => team.channels.find((c) => c.displayName === name)!;
    expect(fake.files.contentOf(channel('Brand assets').id, 'README.txt')).toContain('never stretched');

    // An owner rewrites the starter file; the job comes back from two more parks meanwhile.
    fake.files.edit(channel('Brand assets').id, 'README.txt', 'Our own guidelines.');
    const looks = folderLooks(channel('Agency').id);
    await until(() => folderLooks(channel('Agency').id) >= looks + 2, 'two more looks at the site');

    fake.files.provisionNow([channel('Agency').id]);
    const done = await waitForJob(app, alex, created.id);
    expect(done.status).toBe('completed');
    expect(fake.files.contentOf(channel('Brand assets').id, 'README.txt')).toBe('Our own guidelines.');
    expect(fake.files.itemsOf(channel('Agency').id)).toEqual(['Deliveries/']);

    // The minimum: 8 folders (3 + 4 + 1) and 1 file, each asked for once; nothing replaced.
    expect(fake.files.writesIn(team.channels.map((c) => c.id))).toEqual({
      folderPosts: 8,
      foldersMade: 8,
      contentPuts: 1,
      filesMade: 1,
      filesReplaced: 0,
    });

    // The log says what was made, once per channel.
    const made = done.log.filter((line) => line.startsWith('Made '));
    expect(made).toEqual([
      'Made 3 folders and 0 starter files in "Campaigns".',
      'Made 4 folders and 1 starter file in "Brand assets".',
      'Made 1 folder and 0 starter files in "Agency".',
    ]);
  });

  test('with no wait, a team gets its folders and file with one write each, after one read per channel', async () => {
    const done = await waitForJob(app, alex, (await provision('No wait')).id);
    expect(done.status).toBe('completed');
    const team = fake.teams.get((done.data.team as { id: string }).id)!;
    expect(fake.files.writesIn(team.channels.map((c) => c.id))).toMatchObject({
      folderPosts: 8,
      contentPuts: 1,
    });
    // Each channel's new files folder is read once (it is empty: nothing under it to read).
    const folders = new Set(team.channels.map((c) => fake.files.folderItemOf(c.id)).filter(Boolean));
    const reads = fake.requests.filter(
      (r) => r.method === 'GET' && [...folders].some((id) => r.path.includes(`/items/${id}/children`)),
    );
    expect(reads).toHaveLength(3);
  });
});
