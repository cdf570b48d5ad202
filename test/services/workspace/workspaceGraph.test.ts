import { request as httpRequest } from 'undici';
import type { Job } from '../../../src/contract';
import { databaseKinds } from '../../support/databases';
import { type LoggedRequest } from '../../support/fakeGraph';
import { filesGraphOptions, suiteGraphSteward } from '../../support/graphTenant';
import { requestProvisioning, waitForJob } from '../../support/jobs';
import { PEOPLE } from '../../support/steward';

/**
 * Workspace templates (docs/guides/templates.md) on Microsoft Graph's simulator: a shared channel made through
 * Graph's asynchronous operation with its one owner, the template's settings in the team's
 * creation request, each channel's files folder waited for with the job parked (its worker's one
 * slot free for other jobs), and folders and starter files made where a read of the folder found
 * none, so a job interrupted after some of them resumes without asking for any twice.
 */
describe.each(databaseKinds)('workspace templates on Microsoft Graph (simulator), %s', (kind) => {
  const suite = suiteGraphSteward(kind, {
    options: (fake, dispatcher) => filesGraphOptions(fake, dispatcher, 1000),
    // One worker slot: a job parked on a files folder must leave it to others.
    env: { STEWARD_JOB_POLL_MS: '50', STEWARD_WORKER_CONCURRENCY: '1' },
  });

  afterEach(() => {
    suite.fake.clearFaults();
    suite.fake.files.siteDelayMs = undefined;
  });

  const since = (mark: number): LoggedRequest[] =>
    suite.fake.requests
      .slice(mark)
      .filter((r) => r.path.startsWith('/v1.0/'))
      .map((r) => ({ ...r, path: decodeURIComponent(r.path) }));
  const provision = (template: string, name: string) =>
    requestProvisioning(suite.app, suite.alex, template, name);
  const channelOf = (job: Job, name: string) =>
    suite.fake.teams.get((job.data.team as { id: string }).id)!.channels.find((c) => c.displayName === name)!;

  test('a shared channel, settings, folders and a starter file, made through Graph', async () => {
    const mark = suite.fake.requests.length;
    const job = await waitForJob(
      suite.app,
      suite.alex,
      (await provision('department-marketing', 'Autumn launch')).id,
    );
    expect(job.status).toBe('completed');
    const teamId = (job.data.team as { id: string }).id;
    const calls = since(mark);

    // The settings go with the team's creation request.
    const [creation] = calls.filter((r) => r.method === 'POST' && r.path === '/v1.0/teams');
    expect(creation?.body).toMatchObject({
      memberSettings: { allowCreatePrivateChannels: false, allowDeleteChannels: false },
      guestSettings: { allowCreateUpdateChannels: false, allowDeleteChannels: false },
      funSettings: { allowGiphy: true, giphyContentRating: 'strict' },
    });
    expect(suite.fake.teams.get(teamId)!.settings.funSettings).toMatchObject({
      giphyContentRating: 'strict',
    });
    expect(calls.filter((r) => r.method === 'PATCH' && r.path === `/v1.0/teams/${teamId}`)).toEqual([]);

    // The shared channel: one owner, accepted (202), then its operation followed while parked.
    const agencyPost = calls.find(
      (r) =>
        r.method === 'POST' &&
        r.path === `/v1.0/teams/${teamId}/channels` &&
        (r.body as { displayName: string }).displayName === 'Agency',
    );
    expect(agencyPost?.body).toEqual({
      displayName: 'Agency',
      description: 'Work with our agency, shared with their people.',
      membershipType: 'shared',
      members: [
        {
          '@odata.type': '#microsoft.graph.aadUserConversationMember',
          roles: ['owner'],
          'user@odata.bind': `${suite.fake.baseUrl}/users('${PEOPLE.alex}')`,
        },
      ],
    });
    expect(
      calls.some((r) => r.method === 'GET' && new RegExp(`^/v1.0/teams/${teamId}/operations/`).test(r.path)),
    ).toBe(true);
    expect(job.log.join('\n')).toContain('Microsoft Teams is creating a shared channel.');
    expect(channelOf(job, 'Agency').membershipType).toBe('shared');

    // Folders and the starter file, in each channel's files folder, each made once.
    expect(suite.fake.files.itemsOf(channelOf(job, 'Brand assets').id)).toEqual([
      'Logos/',
      'Logos/Print/',
      'Logos/Web/',
      'README.txt',
      'Templates/',
    ]);
    expect(suite.fake.files.contentOf(channelOf(job, 'Brand assets').id, 'README.txt')).toContain(
      'never stretched',
    );
    expect(suite.fake.files.itemsOf(channelOf(job, 'Campaigns').id)).toEqual([
      'Briefs/',
      'Reports/',
      'Reports/Monthly/',
    ]);
    expect(suite.fake.files.itemsOf(channelOf(job, 'Agency').id)).toEqual(['Deliveries/']);
    const folderPosts = calls.filter((r) => r.method === 'POST' && r.path.endsWith('/children'));
    expect(folderPosts).toHaveLength(8);
    expect(
      folderPosts.every(
        (r) => (r.body as Record<string, unknown>)['@microsoft.graph.conflictBehavior'] === 'fail',
      ),
    ).toBe(true);
    const upload = calls.filter(
      (r) =>
        r.method === 'PUT' && r.path.endsWith(':/README.txt:/content?@microsoft.graph.conflictBehavior=fail'),
    );
    expect(upload).toHaveLength(1);
    expect(upload[0]?.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  test('a job that fails after some folders resumes: nothing made twice, what was there kept', async () => {
    // `Logos/Print` (under Logos) fails until the client gives up: the job is retried later.
    suite.fake.fail({ method: 'POST', path: /:\/Logos:\/children$/, times: 5, status: 503 });
    const mark = suite.fake.requests.length;
    const job = await waitForJob(
      suite.app,
      suite.alex,
      (await provision('department-marketing', 'Winter launch')).id,
    );
    expect(job.status).toBe('completed');
    expect(job.log.join('\n')).toMatch(/Attempt 1 failed: .*503/);
    expect(job.log.join('\n')).toContain(
      'Made 0 folders and 0 starter files in "Campaigns"; kept 3 items already there.',
    );
    expect(job.log.join('\n')).toContain(
      'Made 3 folders and 1 starter file in "Brand assets"; kept 1 item already there.',
    );
    expect(suite.fake.files.itemsOf(channelOf(job, 'Campaigns').id)).toEqual([
      'Briefs/',
      'Reports/',
      'Reports/Monthly/',
    ]);
    expect(suite.fake.files.itemsOf(channelOf(job, 'Brand assets').id)).toEqual([
      'Logos/',
      'Logos/Print/',
      'Logos/Web/',
      'README.txt',
      'Templates/',
    ]);
    // 8 folders asked for once each (the next attempt reads what the first made and keeps it), and
    // the 5 attempts Graph answered 503.
    const folderPosts = since(mark).filter((r) => r.method === 'POST' && r.path.endsWith('/children'));
    expect(folderPosts).toHaveLength(8 + 5);
    // The shared channel was made once.
    const team = suite.fake.teams.get((job.data.team as { id: string }).id)!;
    expect(team.channels.filter((c) => c.displayName === 'Agency')).toHaveLength(1);
  });

  test("a channel's files folder not made yet: the job parks after the other steps, its one worker slot serves another job", async () => {
    suite.fake.files.siteDelayMs = 10 * 60_000;
    const waiting = await provision('department-marketing', 'Slow site');
    let parked: Job | undefined;
    const deadline = Date.now() + 15_000;
    while (!parked && Date.now() < deadline) {
      const res = await suite.app.call<Job>('GET', `/api/v1.0/jobs/${waiting.id}`, { token: suite.alex });
      if (res.body.waitingFor?.reason === 'channelFiles') parked = res.body;
      else await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(parked?.status).toBe('active');
    expect(parked?.waitingFor).toMatchObject({
      step: 'files',
      reason: 'channelFiles',
      description: "Waiting for SharePoint to make a channel's files folder.",
    });
    expect(parked?.steps.find((s) => s.name === 'files')?.status).toBe('running');
    // What does not need the files is not held behind the site: the members, the welcome and
    // every step before them are done while the files step waits.
    const statusOf = (name: string) => parked?.steps.find((s) => s.name === name)?.status;
    for (const name of ['team', 'settings', 'channels', 'tabs', 'members', 'welcome'])
      expect([name, statusOf(name)]).toEqual([name, expect.stringMatching(/^(done|skipped)$/)]);
    expect(statusOf('members')).toBe('done');
    const slowTeam = suite.fake.teams.get((parked!.data.team as { id: string }).id)!;
    expect(slowTeam.members.length).toBeGreaterThan(0);
    // Stored as parked, held by no worker, between two looks at the folder.
    const row = () =>
      suite.app.steward.store.db
        .selectFrom('jobs')
        .select(['status', 'lease_owner'])
        .where('id', '=', waiting.id)
        .executeTakeFirstOrThrow();
    let stored = await row();
    while (stored.status !== 'parked' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      stored = await row();
    }
    expect(stored).toEqual({ status: 'parked', lease_owner: null });

    // With the one slot, another team is made from start to end while this job waits.
    const other = await waitForJob(suite.app, suite.alex, (await provision('project', 'Meanwhile')).id);
    expect(other.status).toBe('completed');
    const still = await suite.app.call<Job>('GET', `/api/v1.0/jobs/${waiting.id}`, { token: suite.alex });
    expect(still.body.status).toBe('active');
    expect(still.body.waitingFor?.reason).toBe('channelFiles');

    // SharePoint makes the sites: the job goes on from where it waited, and ends.
    const team = suite.fake.teams.get((still.body.data.team as { id: string }).id)!;
    suite.fake.files.provisionNow(team.channels.map((c) => c.id));
    const done = await waitForJob(suite.app, suite.alex, waiting.id);
    expect(done.status).toBe('completed');
    expect(done.waitingFor ?? null).toBeNull();
    expect(suite.fake.files.itemsOf(team.channels.find((c) => c.displayName === 'Agency')!.id)).toEqual([
      'Deliveries/',
    ]);
  });

  test('a shared channel whose creation answer was lost: the job looks again later and makes it once', async () => {
    const patti = await suite.app.userToken(PEOPLE.patti, ['CATALOG_MANAGER']);
    const put = await suite.app.call('PUT', '/api/v1.0/catalog/templates/partners-only', {
      token: patti,
      body: {
        templateConfiguration: { name: 'Partners only' },
        newTeam: {
          channels: [{ displayName: 'Partners', membershipType: 'shared', folders: ['Inbox'] }],
        },
      },
    });
    expect(put.status).toBe(200);
    // Graph accepts the shared channel, but its answer never arrives (a gateway timeout).
    suite.fake.fail({
      method: 'POST',
      path: /^\/teams\/[^/]+\/channels$/,
      times: 1,
      status: 504,
      afterHandling: true,
    });
    const created = await provision('partners-only', 'Lost answer');
    // The next attempt finds the channel still being made: not listed, its name taken (409).
    let current: Job | undefined;
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      current = (await suite.app.call<Job>('GET', `/api/v1.0/jobs/${created.id}`, { token: suite.alex }))
        .body;
      if (current.status === 'failed' || current.log.some((line) => line.startsWith('Attempt 2 failed')))
        break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(current?.status).toBe('delayed');
    expect(current?.log.some((line) => line.startsWith('Attempt 2 failed'))).toBe(true);
    // Graph finishes the channel on its own; the job's next attempt finds it.
    suite.fake.settle();
    const job = await waitForJob(suite.app, suite.alex, created.id);
    expect(job.status).toBe('completed');
    expect(job.log.join('\n')).toContain(
      'A channel named "Partners" is being made but is not listed yet; the job looks again later.',
    );
    const team = suite.fake.teams.get((job.data.team as { id: string }).id)!;
    expect(team.channels.filter((c) => c.displayName === 'Partners')).toHaveLength(1);
    expect(suite.fake.files.itemsOf(team.channels.find((c) => c.displayName === 'Partners')!.id)).toEqual([
      'Inbox/',
    ]);
  });

  test('Graph refuses a shared channel with two owners at creation, and a folder name SharePoint forbids', async () => {
    const job = await waitForJob(suite.app, suite.alex, (await provision('project', 'Refusals')).id);
    const teamId = (job.data.team as { id: string }).id;
    // Straight to the simulator, with the app's token: two owners is Graph's 400.
    const auth = suite.fake.requests.filter((r) => r.path.startsWith('/v1.0/')).at(-1)!.headers
      .authorization!;
    const owner = (id: string) => ({
      '@odata.type': '#microsoft.graph.aadUserConversationMember',
      roles: ['owner'],
      'user@odata.bind': `${suite.fake.baseUrl}/users('${id}')`,
    });
    const res = await httpRequest(`${suite.fake.baseUrl}/teams/${teamId}/channels`, {
      method: 'POST',
      dispatcher: suite.dispatcher,
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        displayName: 'Two owners',
        membershipType: 'shared',
        members: [owner(PEOPLE.alex), owner(PEOPLE.adele)],
      }),
    });
    expect(res.statusCode).toBe(400);
    await res.body.text();
    // Through the adapter: the folder name is refused by SharePoint, not written.
    const general = suite.fake.teams.get(teamId)!.channels[0]!;
    const folder = await suite.platform.teams.files.filesFolder(teamId, general.id);
    await expect(suite.platform.teams.files.createFolder(folder, 'Plans: 2026')).rejects.toMatchObject({
      status: 400,
    });
    await expect(suite.platform.teams.files.createFolder(folder, 'Plans')).resolves.toBe(true);
    await expect(suite.platform.teams.files.createFolder(folder, 'plans')).resolves.toBe(false);
    expect(suite.fake.files.itemsOf(general.id)).toEqual(['Plans/']);
  });
});
