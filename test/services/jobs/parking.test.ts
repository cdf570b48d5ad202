import type { Agent } from 'undici';
import type { Job } from '../../../src/contract';
import { createGraphPlatform } from '../../../src/platform/graph';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../support/databases';
import { FakeGraph } from '../../support/fakeGraph';
import { BOT, seedTenant, graphSettings } from '../../support/graphTenant';
import { expectCompleted, requestTeamsWithIsaiah } from '../../support/jobs';
import { PEOPLE, startTestSteward, type TestSteward } from '../../support/steward';
import { WAIT_DESCRIPTIONS } from '../../../src/domain/jobs';

const TEAMS = 20;
const HELD_MS = 10 * 60_000;
const SLOTS = 4;

/**
 * Jobs that wait for Graph without holding a worker: one worker with four slots carries twenty
 * provisionings whose team creation takes Graph 1.5–2 s each. Each job parks while Graph works, so
 * all twenty creations are in Graph's hands at once while no more than four jobs run.
 */
describe.each(databaseKinds)('jobs parked while Graph creates their teams (%s)', (kind) => {
  let fake: FakeGraph;
  let dispatcher: Agent;
  let db: TestDatabase;
  let app: TestSteward;

  beforeAll(async () => {
    // Graph holds every creation until the test lets them finish (below), so that "all at once" does
    // not depend on how fast a loaded machine posts the requests.
    fake = await FakeGraph.start({
      bot: BOT,
      latency: { minMs: HELD_MS, maxMs: HELD_MS },
      replicationMs: 200,
    });
    dispatcher = fake.dispatcher();
    seedTenant(fake);
    db = await createTestDatabase(kind);
    // Graph's pace (31 s, then 1.5 times longer) at a hundredth.
    const platform = createGraphPlatform(
      { ...fake.config(), timeScale: 0.01 },
      {
        dispatcher,
        bot: { appId: BOT.appId, appPassword: BOT.secret, appTenantId: fake.tenantId },
      },
    );
    app = await startTestSteward(
      db,
      {
        STEWARD_WORKER_CONCURRENCY: String(SLOTS),
        STEWARD_JOB_POLL_MS: '50',
        ...graphSettings(fake),
      },
      { platform },
    );
  });

  afterAll(async () => {
    await app?.close();
    await dispatcher?.close();
    await fake?.close();
    await db?.drop();
  });

  test(`${TEAMS} team creations in Graph's hands at once with ${SLOTS} slots; each job shows what it waits for`, async () => {
    const alex = await app.userToken(PEOPLE.alex);
    const started = Date.now();
    const ids = await requestTeamsWithIsaiah(
      app,
      alex,
      Array.from({ length: TEAMS }, (_, n) => `Parked ${n}`),
    );

    // Sample Graph's operations and the queue until every job is done.
    let inGraphsHands = 0;
    let running = 0;
    let waiting: Job | undefined;
    const store = app.steward.store.db;
    for (;;) {
      const creating = [...fake.operations.values()].filter(
        (o) => o.operationType === 'createTeam' && (o.status === 'notStarted' || o.status === 'inProgress'),
      ).length;
      inGraphsHands = Math.max(inGraphsHands, creating);
      // Once every creation is in Graph's hands (or after 30 s, to fail with the count seen), Graph
      // finishes them: each job then completes at its next check.
      if (inGraphsHands === TEAMS || Date.now() - started > 30_000) {
        for (const operation of fake.operations.values()) {
          if (operation.readyAt - Date.now() > HELD_MS / 2) operation.readyAt = Date.now();
        }
      }
      const rows = await store.selectFrom('jobs').select(['id', 'status']).execute();
      running = Math.max(running, rows.filter((r) => r.status === 'active').length);
      const parked = rows.find((r) => r.status === 'parked');
      if (parked && !waiting) {
        const seen = await app.call<Job>('GET', `/api/v1.0/jobs/${parked.id}`, { token: alex });
        if (seen.body.waitingFor) waiting = seen.body;
      }
      if (rows.filter((r) => r.status === 'completed' || r.status === 'failed').length === TEAMS) break;
      if (Date.now() - started > 90_000) throw new Error(`not done: ${JSON.stringify(rows)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const took = Date.now() - started;

    expect(inGraphsHands).toBe(TEAMS);
    expect(running).toBeLessThanOrEqual(SLOTS);
    // A parked job is `active` on the wire, its team step running, with what it waits for.
    expect(waiting).toMatchObject({
      status: 'active',
      waitingFor: {
        step: 'team',
        reason: expect.stringMatching(/^(teamCreation|replication)$/),
        description: expect.any(String),
        nextCheckDateTime: expect.any(String),
      },
    });
    expect(waiting?.steps.find((s) => s.name === 'team')?.status).toBe('running');
    // Its log says what it waits for: the team's creation, or (before it) the new group's replication.
    const said = WAIT_DESCRIPTIONS[waiting!.waitingFor!.reason as keyof typeof WAIT_DESCRIPTIONS];
    expect(waiting?.log.some((line) => line.startsWith(said))).toBe(true);
    for (const job of await expectCompleted(app, alex, ids)) expect(job.waitingFor).toBeUndefined();
    expect(fake.teams.size).toBeGreaterThanOrEqual(TEAMS);
    // One `POST /teams` per job: a job back from its park follows its operation, it does not start another.
    expect(fake.graphRequests().filter((r) => r.method === 'POST' && r.path === '/v1.0/teams')).toHaveLength(
      TEAMS,
    );
    // A worker takes parked jobs up to two polls before their next check, but looks at Graph only
    // then: no job's first look at its operation comes sooner than the first wait (31 s at a
    // hundredth) after its `POST /teams`.
    const requests = fake.graphRequests();
    const posts = requests.filter((r) => r.method === 'POST' && r.path === '/v1.0/teams');
    const looks = posts.map((post) => {
      const group = /groups\('([^']+)'\)/.exec(JSON.stringify(post.body))?.[1];
      const look = requests.find(
        (r) => r.method === 'GET' && r.path.includes(`/teams('${group}')/operations(`),
      );
      return { group, afterMs: look ? look.at - post.at : null };
    });
    // Every team was looked at (its job followed its operation), and none too soon.
    expect(looks.filter((l) => l.afterMs === null || l.afterMs < 310 - 2)).toEqual([]);
    // Each job started once in the audit trail, however often it parked.
    const starts = await store
      .selectFrom('audit_records')
      .select('target')
      .where('action', '=', 'job_started')
      .execute();
    const startedJobs = starts.map((r) => (JSON.parse(r.target) as { id: string }).id);
    expect(startedJobs.filter((id) => ids.includes(id)).sort()).toEqual([...ids].sort());
    process.stdout.write(
      `${kind}: ${TEAMS} teams with ${SLOTS} slots in ${took} ms; ${inGraphsHands} creations at once, ${running} jobs running at most\n`,
    );
  }, 120_000);
});
