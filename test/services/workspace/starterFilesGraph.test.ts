import type { Job } from '../../../src/contract';
import { databaseKinds } from '../../support/databases';
import { filesGraphOptions, suiteGraphSteward } from '../../support/graphTenant';
import { waitForJob } from '../../support/jobs';

/**
 * A template's folders and starter files on Microsoft Graph's simulator, read as Graph's own page
 * of `PUT …/content` reads ("upload or replace": no conflict behaviour taken from the query). The
 * files step parks while SharePoint makes a shared channel's site, and comes back where it stopped:
 * an owner's edit made during that wait survives, nothing is asked twice, and the job's log counts
 * only what was made.
 */
describe.each(databaseKinds)('starter files across a park, on Microsoft Graph (simulator), %s', (kind) => {
  const suite = suiteGraphSteward(kind, {
    seed: (fake) => {
      fake.files.putConflictBehavior = 'ignored';
    },
    // Short looks at the site, so the job comes back from several parks within the test.
    options: (fake, dispatcher) => filesGraphOptions(fake, dispatcher, 100),
    env: { STEWARD_JOB_POLL_MS: '50' },
  });

  afterEach(() => {
    suite.fake.files.siteDelayMs = undefined;
  });

  const provision = async (name: string): Promise<Job> => {
    const res = await suite.app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
      token: suite.alex,
      body: { template: { id: 'department-marketing' }, team: { name } },
    });
    expect(res.status).toBe(201);
    return res.body;
  };
  const job = async (id: string): Promise<Job> =>
    (await suite.app.call<Job>('GET', `/api/v1.0/jobs/${id}`, { token: suite.alex })).body;
  /** Polls until `ready` holds (each look is a read of the API or of the simulator), or fails. */
  const until = async (ready: () => Promise<boolean> | boolean, what: string): Promise<void> => {
    const deadline = Date.now() + 20_000;
    while (!(await ready())) {
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  const folderLooks = (channelId: string) =>
    suite.fake.requests.filter(
      (r) => r.method === 'GET' && decodeURIComponent(r.path).endsWith(`/channels/${channelId}/filesFolder`),
    ).length;

  test("an owner's edit made while the job waits for a shared channel's site survives its resumption", async () => {
    suite.fake.files.siteDelayMs = 10 * 60_000;
    const created = await provision('Edited while waiting');
    await until(async () => (await job(created.id)).waitingFor?.reason === 'channelFiles', 'the park');
    const parked = await job(created.id);
    const team = suite.fake.teams.get((parked.data.team as { id: string }).id)!;
    const channel = (name: string) => team.channels.find((c) => c.displayName === name)!;
    expect(suite.fake.files.contentOf(channel('Brand assets').id, 'README.txt')).toContain('never stretched');

    // An owner rewrites the starter file; the job comes back from two more parks meanwhile.
    suite.fake.files.edit(channel('Brand assets').id, 'README.txt', 'Our own guidelines.');
    const looks = folderLooks(channel('Agency').id);
    await until(() => folderLooks(channel('Agency').id) >= looks + 2, 'two more looks at the site');

    suite.fake.files.provisionNow([channel('Agency').id]);
    const done = await waitForJob(suite.app, suite.alex, created.id);
    expect(done.status).toBe('completed');
    expect(suite.fake.files.contentOf(channel('Brand assets').id, 'README.txt')).toBe('Our own guidelines.');
    expect(suite.fake.files.itemsOf(channel('Agency').id)).toEqual(['Deliveries/']);

    // The minimum: 8 folders (3 + 4 + 1) and 1 file, each asked for once; nothing replaced.
    expect(suite.fake.files.writesIn(team.channels.map((c) => c.id))).toEqual({
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
    const done = await waitForJob(suite.app, suite.alex, (await provision('No wait')).id);
    expect(done.status).toBe('completed');
    const team = suite.fake.teams.get((done.data.team as { id: string }).id)!;
    expect(suite.fake.files.writesIn(team.channels.map((c) => c.id))).toMatchObject({
      folderPosts: 8,
      contentPuts: 1,
    });
    // Each channel's new files folder is read once (it is empty: nothing under it to read).
    const folders = new Set(team.channels.map((c) => suite.fake.files.folderItemOf(c.id)).filter(Boolean));
    const reads = suite.fake.requests.filter(
      (r) => r.method === 'GET' && [...folders].some((id) => r.path.includes(`/items/${id}/children`)),
    );
    expect(reads).toHaveLength(3);
  });
});
