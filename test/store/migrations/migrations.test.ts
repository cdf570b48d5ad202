import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { Migrator, sql } from 'kysely';
import { migrate, openStore, type Store } from '../../../src/store/database';
import { MetadataRepository } from '../../../src/store/teams/metadata';
import { migrationProvider, migrations } from '../../../src/store/migrations';
import { seedDemoData } from '../../../src/store/seed';
import { recordStatements } from '../../support/statementLog';
import {
  createTestDatabase,
  databaseKinds,
  storeOptionsOf,
  type TestDatabase,
} from '../../support/databases';

describe.each(databaseKinds)('store on %s', (kind) => {
  let db: TestDatabase;
  const stores: Store[] = [];
  const open = () => {
    const store = openStore(storeOptionsOf(db));
    stores.push(store);
    return store;
  };

  beforeEach(async () => {
    db = await createTestDatabase(kind, { empty: true });
  });
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
    await db.drop();
  });

  test('migrations apply once, in order, and a second run applies nothing', async () => {
    const store = open();
    expect(await migrate(store.db)).toEqual(Object.keys(migrations).sort());
    expect(await migrate(store.db)).toEqual([]);
    await store.ping();
  });

  test('a store already up to date is seen to be in two reads, without the migrator', async () => {
    const store = open();
    await migrate(store.db);
    const log = recordStatements();
    try {
      const statements = await log.during(() => migrate(store.db));
      expect(statements).toHaveLength(2);
      expect(statements[1]).toBe('select name from kysely_migration');
      // One migration more than the store has (a newer version): the migrator runs and applies it.
      migrations['9999_later'] = { up: async () => undefined };
      expect(await migrate(store.db)).toEqual(['9999_later']);
    } finally {
      delete migrations['9999_later'];
      log.restore();
    }
    // A store migrated by that newer version is not this one's: the migrator refuses it, as before.
    await expect(migrate(store.db)).rejects.toThrow(/9999_later/);
  });

  test('0004 keeps metadata documents written before it, and indexes them for queries', async () => {
    const store = open();
    const before = await new Migrator({ db: store.db, provider: migrationProvider }).migrateTo(
      '0003_team_metadata',
    );
    expect(before.error).toBeUndefined();
    for (const [team, document] of [
      ['t1', { tier: 'gold', tags: ['x'] }],
      ['t2', { tier: 'silver' }],
    ] as const) {
      await store.db
        .insertInto('team_metadata')
        .values({ team_id: team, namespace: 'crm', document: JSON.stringify(document), updated_at: 'then' })
        .execute();
    }
    // 0004 runs first; the later migrations follow it.
    expect(await migrate(store.db)).toEqual(Object.keys(migrations).sort().slice(3));
    expect(Object.keys(migrations).sort()[3]).toBe('0004_metadata_index');
    const metadata = new MetadataRepository(store.db);
    expect(await metadata.get('t1', 'crm')).toEqual({ tier: 'gold', tags: ['x'] });
    expect(await metadata.query('crm', { tags: ['x'] })).toEqual(['t1']);
    expect(await metadata.query('crm', {})).toEqual(['t1', 't2']);
  });

  test('0027 tells the makers of hooks already there apart, from their creation’s audit record', async () => {
    const store = open();
    const before = await new Migrator({ db: store.db, provider: migrationProvider }).migrateTo(
      '0026_hook_scopes',
    );
    expect(before.error).toBeUndefined();
    const hook = (id: string, scope: string) => ({
      id,
      name: id,
      events: '["team_created"]',
      url: 'https://example.com/h',
      content_type: 'json',
      created_by: `maker-${id}`,
      created_at: 'then',
      updated_at: 'then',
      scope,
      active: 1,
      secret_sealed: 0,
      consecutive_failures: 0,
    });
    await store.db
      .insertInto('hooks')
      .values([
        hook('by-app', 'tenant'),
        hook('by-person', 'tenant'),
        hook('mine', 'mine'),
        hook('lost', 'tenant'),
      ])
      .execute();
    const created = (id: string, type: string) => ({
      id: `record-${id}`,
      trail: 'webhooks',
      created_at: 'then',
      tenant_id: 't',
      actor: JSON.stringify({ id: `maker-${id}`, type }),
      action: 'webhook_created',
      target: JSON.stringify({ type: 'webhook', id, displayName: id }),
      outcome: 'success',
      request_id: null,
      details: null,
    });
    await store.db
      .insertInto('audit_records')
      .values([created('by-app', 'app'), created('by-person', 'user')])
      .execute();
    await migrate(store.db);
    const kinds = await store.db.selectFrom('hooks').select(['id', 'creator_kind']).orderBy('id').execute();
    expect(kinds).toEqual([
      { id: 'by-app', creator_kind: 'app' },
      { id: 'by-person', creator_kind: 'user' },
      { id: 'lost', creator_kind: null },
      { id: 'mine', creator_kind: 'user' },
    ]);
  });

  test('several processes migrating one fresh store at once apply each migration exactly once', async () => {
    const run = () =>
      new Promise<string>((resolve, reject) => {
        execFile(
          process.execPath,
          [path.join(__dirname, '..', '..', '..', 'dist', 'cli', 'migrate.js')],
          { env: { ...process.env, STEWARD_DATA_DIR: db.dataDir, STEWARD_DATABASE_URL: db.url } },
          (error, stdout, stderr) =>
            error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
        );
      });
    const outputs = await Promise.all(Array.from({ length: 8 }, run));
    expect(outputs.filter((o) => o.startsWith(`Applied ${Object.keys(migrations).join(', ')}`))).toHaveLength(
      1,
    );
    expect(outputs.filter((o) => o.includes('is up to date'))).toHaveLength(7);
    expect(await migrate(open().db)).toEqual([]);
  });

  // SQLite only: PostgreSQL's migrations wait on an advisory lock, without a timeout.
  if (kind === 'sqlite')
    test('a migration waits for another process that holds the write lock longer than the busy timeout', async () => {
      const file = db.url.slice('sqlite:'.length);
      // Another process takes the file's write lock and keeps it 3 s, as a slow migration would, and
      // says when it let go. (The migration's wait blocks this process: the holder keeps the time.)
      const holder = spawn(
        process.execPath,
        [
          '-e',
          `const db = new (require('better-sqlite3'))(process.argv[1]);
           db.pragma('journal_mode = WAL');
           db.exec('begin immediate');
           process.stdout.write('locked\\n');
           setTimeout(() => {
             db.exec('commit');
             process.stdout.write('released ' + Date.now() + '\\n');
             db.close();
           }, 3000);`,
          file,
        ],
        { cwd: path.join(__dirname, '..', '..', '..'), stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let output = '';
      holder.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise((resolve) => holder.once('exit', resolve));
      await new Promise<void>((resolve, reject) => {
        holder.stdout!.on('data', () => output.includes('locked') && resolve());
        holder.once('exit', (code) => reject(new Error(`the lock holder exited with ${code}`)));
      });
      // Ordinary statements of this store give up after 200 ms; its migration waits its turn.
      const store = openStore({ kind: 'sqlite', file, busyTimeoutMs: 200 });
      stores.push(store);
      const started = Date.now();
      expect(await migrate(store.db)).toEqual(Object.keys(migrations).sort());
      const done = Date.now();
      await exited;
      const released = Number(/released (\d+)/.exec(output)?.[1]);
      // The lock outlived the store's busy timeout after the migration asked, and it waited for it.
      expect(released - started).toBeGreaterThan(200);
      expect(done).toBeGreaterThanOrEqual(released);
      // The busy timeout of ordinary statements is the store's own again.
      const { rows } = await sql<{ timeout: number }>`pragma busy_timeout`.execute(store.db);
      expect(rows[0]!.timeout).toBe(200);
    });

  test('the demo data is seeded into an empty store once, and never over later edits', async () => {
    const store = open();
    await migrate(store.db);
    expect(await seedDemoData(store)).toBe(true);
    await store.db
      .updateTable('catalog_templates')
      .set({ name: 'Edited' })
      .where('id', '=', 'project')
      .execute();
    expect(await seedDemoData(store)).toBe(false);
    const row = await store.db
      .selectFrom('catalog_templates')
      .select('name')
      .where('id', '=', 'project')
      .executeTakeFirst();
    expect(row?.name).toBe('Edited');
    const users = await store.db
      .selectFrom('directory_users')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    expect(Number(users?.n)).toBeGreaterThanOrEqual(28);
  });
});
