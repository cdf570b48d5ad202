import { sql } from 'kysely';
import type { Job } from '../../../src/contract';
import { openStore, type Store } from '../../../src/store/database';
import { writeQueuePaused } from '../../../src/store/jobs/queuePause';
import {
  createTestDatabase,
  databaseKinds,
  storeOptionsOf,
  type TestDatabase,
} from '../../support/databases';
import { waitForJob } from '../../support/jobs';
import { recordStatements, type StatementLog } from '../../support/statementLog';
import { PEOPLE, startTestSteward, type TestSteward } from '../../support/steward';

/**
 * Every answer that shows a job says whether the queue is paused (`steward_meta`). The value is kept
 * in memory until the table changes, and a change made anywhere (another process, an operator's
 * SQL, this process) is seen.
 */
describe.each(databaseKinds)('the queue state in job answers on %s', (kind) => {
  let db: TestDatabase;
  let app: TestSteward;
  let other: Store;
  let log: StatementLog;
  let token: string;
  let jobId: string;

  beforeAll(async () => {
    log = recordStatements();
    db = await createTestDatabase(kind);
    // The API alone: no worker runs the job, so it shows `waiting` or `paused`.
    app = await startTestSteward(db, { STEWARD_ROLE: 'api' });
    // Another process's connection to the same database.
    other = openStore(storeOptionsOf(db));
    token = await app.userToken(PEOPLE.alex);
    const res = await app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
      token,
      body: { template: { id: 'project' }, team: { name: 'Queue state' } },
    });
    expect(res.status).toBe(201);
    jobId = res.body.id;
  });
  afterAll(async () => {
    log.restore();
    await other.close();
    await app.close();
    await db.drop();
  });

  const getJob = () => app.call<Job>('GET', `/api/v1.0/jobs/${jobId}`, { token });
  const metaReads = (statements: string[]) => statements.filter((s) => s.includes('steward_meta'));
  const waitForStatus = (status: string) => waitForJob(app, token, jobId, [status], 15_000);

  test('a job answer does not read steward_meta while it is unchanged', async () => {
    // PostgreSQL: the process starts listening for changes at its first read; until it listens, it reads.
    const deadline = Date.now() + 15_000;
    while (metaReads(await log.during(getJob)).length > 0) {
      if (Date.now() > deadline) throw new Error('every job answer still reads steward_meta');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const statements = await log.during(async () => {
      for (let i = 0; i < 5; i++) expect((await getJob()).body.status).toBe('waiting');
    });
    expect(metaReads(statements)).toEqual([]);
  });

  test('a pause by another process is seen', async () => {
    await writeQueuePaused(other.db, true);
    // SQLite sees it at the next answer (data_version); PostgreSQL once the notification arrives.
    if (kind === 'sqlite') expect((await getJob()).body.status).toBe('paused');
    else await waitForStatus('paused');
  });

  test('an operator’s SQL on steward_meta is seen too', async () => {
    await other.db
      .updateTable('steward_meta')
      .set({ value: 'false' })
      .where('key', '=', 'queue_paused')
      .execute();
    if (kind === 'sqlite') expect((await getJob()).body.status).toBe('waiting');
    else await waitForStatus('waiting');
  });

  test('a write by the process itself is seen by its next answer', async () => {
    await writeQueuePaused(app.steward.store.db, true);
    expect((await getJob()).body.status).toBe('paused');
    await writeQueuePaused(app.steward.store.db, false);
    expect((await getJob()).body.status).toBe('waiting');
  });

  if (kind === 'postgres') {
    test('a change made while the listening connection is down is not missed', async () => {
      await waitForStatus('waiting');
      const { rows } = await sql<{ pid: number }>`
        select pg_terminate_backend(pid) as pid from pg_stat_activity
        where datname = current_database() and query = 'LISTEN steward_meta_changed'`.execute(other.db);
      expect(rows).toHaveLength(1);
      await writeQueuePaused(other.db, true);
      await waitForStatus('paused');
      await writeQueuePaused(other.db, false);
      await waitForStatus('waiting');
    });
  }
});
