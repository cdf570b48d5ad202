import { sql } from 'kysely';
import { Client } from 'pg';
import { migrate, openStore, type Store } from '../../src/store/database';
import { seedDemoData } from '../../src/store/seed';
import { createTestDatabase, emptyDatabase, storeOptionsOf, type TestDatabase } from './databases';

/** Every table's row count, the sequences' states, the migrations recorded and their lock, of `store`. */
async function contentOf(store: Store): Promise<Record<string, unknown>> {
  const { rows: tables } = await sql<{
    name: string;
  }>`select tablename as name from pg_tables where schemaname = 'public' order by tablename`.execute(
    store.db,
  );
  const content: Record<string, unknown> = {};
  for (const { name } of tables) {
    const { rows } = await sql<{ n: string }>`select count(*) as n from ${sql.table(name)}`.execute(store.db);
    content[name] = Number(rows[0]!.n);
  }
  const { rows: sequences } = await sql<{ name: string }>`select sequencename as name from pg_sequences
    where schemaname = 'public' order by sequencename`.execute(store.db);
  for (const { name } of sequences)
    content[name] = (
      await sql`select last_value, is_called from ${sql.table(name)}`.execute(store.db)
    ).rows[0];
  content.migrations = (
    await sql<{ name: string }>`select name from kysely_migration order by name`.execute(store.db)
  ).rows.map((row) => row.name);
  content.lock = (await sql`select * from kysely_migration_lock`.execute(store.db)).rows;
  return content;
}

/** The schema digest a pooled database's slot keeps in its comment. */
async function expectedSchema(name: string): Promise<string> {
  const client = new Client({ connectionString: process.env.STEWARD_TEST_DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ schema: string }>(
      "select shobj_description(oid, 'pg_database') as schema from pg_database where datname = $1",
      [name],
    );
    return rows[0]!.schema;
  } finally {
    await client.end();
  }
}

const databaseName = (db: TestDatabase) => new URL(db.url).pathname.slice(1);

(process.env.STEWARD_TEST_DATABASE_URL ? describe : describe.skip)('pooled PostgreSQL test databases', () => {
  const opened: Array<{ db: TestDatabase; store: Store }> = [];
  const open = async () => {
    const db = await createTestDatabase('postgres');
    const store = openStore(storeOptionsOf(db));
    opened.push({ db, store });
    return { db, store };
  };
  afterAll(async () => {
    for (const { db, store } of opened.reverse()) {
      await store.close();
      await db.drop();
    }
  });

  test('a database a file used is emptied back to what a fresh copy of the template holds', async () => {
    const fresh = await createTestDatabase('postgres', { empty: true });
    const reference = openStore(storeOptionsOf(fresh));
    let expected: Record<string, unknown>;
    try {
      await migrate(reference.db);
      expected = await contentOf(reference);
    } finally {
      await reference.close();
      await fresh.drop();
    }
    const { db, store } = await open();
    // As a fresh copy: migrated, nothing more.
    expect(await contentOf(store)).toEqual(expected);

    // Used: the demo directory and catalog (foreign keys that cascade), a job with an approval
    // (a key that does not), an audit record (a sequence), the migration lock left taken.
    await seedDemoData(store);
    const now = new Date().toISOString();
    await store.db
      .insertInto('jobs')
      .values({
        id: 'job-1',
        type: 'ProvisioningRequest',
        status: 'queued',
        queued: 1,
        log: '[]',
        data: '{}',
        checkpoint: '{}',
        run_at: 0,
        requester_id: 'someone',
        created_at: now,
        updated_at: now,
      } as never)
      .execute();
    await store.db
      .insertInto('approvals')
      .values({
        id: 'approval-1',
        job_id: 'job-1',
        template_id: 'project',
        approvers: '[]',
        status: 'pending',
        created_at: now,
      } as never)
      .execute();
    await store.db
      .insertInto('audit_records')
      .values({
        id: 'audit-1',
        trail: 'governance',
        created_at: now,
        tenant_id: 't',
        actor: '{}',
        action: 'x',
        target: '{}',
        outcome: 'success',
        request_id: 'r',
      } as never)
      .execute();
    await store.db
      .insertInto('audit_counts')
      .values({ trail: 'governance', day: now.slice(0, 10), shard: 0, count: 1 })
      .execute();
    await sql`update kysely_migration_lock set is_locked = 1`.execute(store.db);
    const used = await contentOf(store);
    expect(used).not.toEqual(expected);
    expect(used.approvals).toBe(1);
    expect(used.directory_group_members).toBeGreaterThan(0);

    // Emptied while the store still holds its connections: they are ended, the rows go.
    expect(await emptyDatabase(databaseName(db), await expectedSchema(databaseName(db)))).toBe(true);
    const check = openStore(storeOptionsOf(db));
    try {
      expect(await contentOf(check)).toEqual(expected);
      // A suite's own migration finds nothing to do.
      await migrate(check.db);
      expect(await contentOf(check)).toEqual(expected);
    } finally {
      await check.close();
    }
  });

  test('a database whose schema a file changed is left as it is, to be made again', async () => {
    const { db, store } = await open();
    const name = databaseName(db);
    const schema = await expectedSchema(name);
    await seedDemoData(store);
    await store.db.schema.alterTable('jobs').addColumn('extra', 'text').execute();
    const before = await contentOf(store);
    expect(await emptyDatabase(name, schema)).toBe(false);
    const check = openStore(storeOptionsOf(db));
    try {
      expect(await contentOf(check)).toEqual(before);
    } finally {
      await check.close();
    }
  });

  test('databases taken at once are distinct, and each holds no rows', async () => {
    const taken = await Promise.all([open(), open(), open()]);
    expect(new Set(taken.map(({ db }) => db.url)).size).toBe(3);
    for (const { store } of taken)
      expect(await store.db.selectFrom('directory_users').select('id').execute()).toEqual([]);
  });
});
