import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { loadConfig } from '../../src/config';
import { STEWARD_BOT_APP_ID } from '../../src/store/seed/directory';
import { createTestDatabase, type TestDatabase } from '../support/databases';
import { PEOPLE, startTestSteward, TENANT, TEST_SECRET } from '../support/steward';
import { migrations } from '../../src/store/migrations';

const ROOT = path.resolve(__dirname, '..', '..');
const TOKEN = path.join(ROOT, 'dist', 'cli', 'token.js');
const MIGRATE = path.join(ROOT, 'dist', 'cli', 'migrate.js');
const JWT_LINE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * A command's start-up takes seconds on a loaded two-core machine, and a test runs up to three of
 * them besides Stewards of its own: these bounds catch a hang, not slowness.
 */
const RUN_TIMEOUT_MS = 60_000;
jest.setTimeout(3 * RUN_TIMEOUT_MS);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a compiled command with `env` only (nothing inherited but PATH), never through a shell. */
function run(script: string, args: string[], env: Record<string, string>, cwd: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [script, ...args],
      { cwd, env: { PATH: process.env.PATH ?? '', ...env }, timeout: RUN_TIMEOUT_MS },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

/** The one token line a successful `token` run prints. */
function tokenOf(result: Run): string {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const lines = result.stdout.split('\n');
  expect(lines).toHaveLength(2);
  expect(lines[1]).toBe('');
  expect(lines[0]).toMatch(JWT_LINE);
  return lines[0]!;
}

describe('npm run token (dist/cli/token.js)', () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  const token = (...args: string[]) => run(TOKEN, args, env, db.dataDir);

  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
    env = { STEWARD_DATA_DIR: db.dataDir, STEWARD_AUTH_SECRET: TEST_SECRET, STEWARD_LOG_LEVEL: 'silent' };
  });
  afterAll(async () => {
    await db.drop();
  });

  test('--user <mail> prints one JWT for that person, signed with the secret', async () => {
    const jwt = tokenOf(await token('--user', 'alexw@example.com'));
    expect(decodeProtectedHeader(jwt)).toMatchObject({ alg: 'HS256', typ: 'JWT' });
    const claims = decodeJwt(jwt);
    expect(claims).toMatchObject({
      oid: '00000000-0000-0000-0000-000000000020',
      tid: TENANT,
      name: 'Alex Wilber',
      preferred_username: 'alexw@example.com',
      iss: 'steward-embedded',
      aud: 'api://steward',
      idtyp: 'user',
      roles: [],
    });
    expect(claims.oid).toBe(PEOPLE.alex);
    // iat and exp are read from the clock separately: they may straddle a second.
    expect(claims.exp! - claims.iat!).toBeGreaterThanOrEqual(3600);
    expect(claims.exp! - claims.iat!).toBeLessThanOrEqual(3601);
    const { payload } = await jwtVerify(jwt, new TextEncoder().encode(TEST_SECRET), {
      issuer: 'steward-embedded',
      audience: 'api://steward',
      algorithms: ['HS256'],
    });
    expect(payload.oid).toBe(PEOPLE.alex);
    await expect(
      jwtVerify(jwt, new TextEncoder().encode(`${TEST_SECRET}-other`), { algorithms: ['HS256'] }),
    ).rejects.toThrow();
  });

  test('keeps the code it compiles in Node.js’s compile cache, and reads it back the next time', async () => {
    // The command's temporary directory, where Node.js keeps the cache unless NODE_COMPILE_CACHE
    // names another (that variable would turn the cache on by itself).
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'steward-cli-tmp-'));
    const cache = path.join(tmp, 'node-compile-cache');
    try {
      const cached = { ...env, TMPDIR: tmp };
      expect(
        decodeJwt(tokenOf(await run(TOKEN, ['--user', 'alexw@example.com'], cached, db.dataDir))).oid,
      ).toBe(PEOPLE.alex);
      // Node.js keeps one folder per version and flags, with a file per compiled module.
      const kept = readdirSync(cache, { recursive: true, withFileTypes: true }).filter((entry) =>
        entry.isFile(),
      );
      expect(kept.length).toBeGreaterThan(100);
      const written = new Map(
        kept.map((entry) => [
          path.join(entry.parentPath, entry.name),
          statSync(path.join(entry.parentPath, entry.name)).mtimeMs,
        ]),
      );
      expect(
        decodeJwt(tokenOf(await run(TOKEN, ['--user', 'alexw@example.com'], cached, db.dataDir))).oid,
      ).toBe(PEOPLE.alex);
      // The second run read the modules back: none was compiled and written again.
      for (const [file, mtime] of written) expect(statSync(file).mtimeMs).toBe(mtime);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  test('the object id or the UPN in any case find the same person', async () => {
    for (const key of [PEOPLE.alex, 'ALEXW@example.COM']) {
      expect(decodeJwt(tokenOf(await token('--user', key))).oid).toBe(PEOPLE.alex);
    }
  });

  test('roles come from the directory: meganb@example.com is GLOBAL_ADMIN', async () => {
    const claims = decodeJwt(tokenOf(await token('--user', 'meganb@example.com')));
    expect(claims.oid).toBe(PEOPLE.megan);
    expect(claims.roles).toEqual(['GLOBAL_ADMIN']);
  });

  test('--roles overrides the directory, and --roles "" gives none', async () => {
    const alex = decodeJwt(tokenOf(await token('--user', 'alexw@example.com', '--roles', 'CATALOG_MANAGER')));
    expect(alex.roles).toEqual(['CATALOG_MANAGER']);
    const megan = decodeJwt(
      tokenOf(await token('--user', 'meganb@example.com', '--roles', 'CATALOG_MANAGER, GOVERNANCE_MANAGER')),
    );
    expect(megan.roles).toEqual(['CATALOG_MANAGER', 'GOVERNANCE_MANAGER']);
    expect(decodeJwt(tokenOf(await token('--user', 'meganb@example.com', '--roles', ''))).roles).toEqual([]);
  });

  test('--ttl sets the lifetime', async () => {
    const claims = decodeJwt(tokenOf(await token('--user', 'alexw@example.com', '--ttl', '60')));
    expect(claims.exp! - claims.iat!).toBeGreaterThanOrEqual(60);
    expect(claims.exp! - claims.iat!).toBeLessThanOrEqual(61);
    for (const ttl of ['0', 'soon', '604801']) {
      const result = await token('--user', 'alexw@example.com', '--ttl', ttl);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/--ttl/);
    }
  });

  test('--roles NOPE fails with exit code 1 and names the role', async () => {
    const result = await token('--user', 'alexw@example.com', '--roles', 'CATALOG_MANAGER,NOPE');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^token: .*NOPE/);
    expect(result.stderr).not.toMatch(/Unknown role\(s\): CATALOG_MANAGER/);
  });

  test('an unknown user fails with exit code 1 and prints no token', async () => {
    const result = await token('--user', 'nobody@example.com');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('nobody@example.com');
  });

  test('--app --user <bot app id> mints an app token with the app roles of the directory', async () => {
    const claims = decodeJwt(tokenOf(await token('--app', '--user', STEWARD_BOT_APP_ID)));
    expect(claims).toMatchObject({
      idtyp: 'app',
      azp: STEWARD_BOT_APP_ID,
      tid: TENANT,
      name: 'Steward bot',
      roles: ['INTEGRATION_MANAGER'],
      iss: 'steward-embedded',
      aud: 'api://steward',
    });
    expect(claims.preferred_username).toBeUndefined();
  });

  test('--app with an unknown app fails unless --roles is given', async () => {
    const unknownApp = '99999999-9999-4999-8999-999999999999';
    const refused = await token('--app', '--user', unknownApp);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(unknownApp);
    const claims = decodeJwt(
      tokenOf(await token('--app', '--user', unknownApp, '--roles', 'AUTHORIZED_APP')),
    );
    expect(claims).toMatchObject({ idtyp: 'app', azp: unknownApp, roles: ['AUTHORIZED_APP'] });
  });

  test('without --user it prints the usage and exits 2; --help exits 0', async () => {
    const missing = await token();
    expect(missing.code).toBe(2);
    expect(missing.stdout).toContain('--user');
    const help = await token('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--roles');
  });

  test('it refuses to mint in entra mode', async () => {
    const result = await run(
      TOKEN,
      ['--user', 'alexw@example.com'],
      {
        ...env,
        STEWARD_AUTH_MODE: 'entra',
        STEWARD_AUTH_JWKS_URI: 'http://127.0.0.1:9/keys',
        STEWARD_AUTH_ISSUER: 'https://login.example.com/t/v2.0',
        STEWARD_AUTH_AUDIENCE: 'api://steward',
      },
      db.dataDir,
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/embedded/);
  });

  test('a token it mints is accepted by a Steward on the same data dir', async () => {
    const catalogManager = tokenOf(await token('--user', 'alexw@example.com', '--roles', 'CATALOG_MANAGER'));
    const bot = tokenOf(await token('--app', '--user', STEWARD_BOT_APP_ID));
    const app = await startTestSteward(db, { STEWARD_AUTH_SECRET: TEST_SECRET });
    try {
      expect(
        (await app.call('GET', '/api/v1.0/me/catalog/templates', { token: catalogManager })).status,
      ).toBe(200);
      expect((await app.call('GET', '/api/v1.0/catalog/templates', { token: catalogManager })).status).toBe(
        200,
      );
      expect((await app.call('GET', '/api/v1.0/catalog/templates', { token: bot })).status).toBe(200);
      const other = await startTestSteward(db, {
        STEWARD_AUTH_SECRET: 'a-different-secret-that-is-long-enough-0123456789',
      });
      try {
        expect(
          (await other.call('GET', '/api/v1.0/me/catalog/templates', { token: catalogManager })).status,
        ).toBe(401);
      } finally {
        await other.close();
      }
    } finally {
      await app.close();
    }
  });

  test('without STEWARD_AUTH_SECRET it signs with the secret generated in the data dir', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'steward-cli-'));
    try {
      const jwt = tokenOf(
        await run(TOKEN, ['--user', 'alexw@example.com'], { STEWARD_DATA_DIR: dataDir }, dataDir),
      );
      const config = loadConfig({ STEWARD_DATA_DIR: dataDir }, dataDir);
      if (config.auth.mode !== 'embedded') throw new Error('expected embedded auth');
      const { payload } = await jwtVerify(jwt, new TextEncoder().encode(config.auth.secret), {
        algorithms: ['HS256'],
      });
      expect(payload.oid).toBe(PEOPLE.alex);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('npm run migrate (dist/cli/migrate.js)', () => {
  let dataDir: string;

  beforeEach(() => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'steward-cli-'));
  });
  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('applies every migration the first time and is up to date the second time', async () => {
    const env = { STEWARD_DATA_DIR: dataDir, STEWARD_AUTH_SECRET: TEST_SECRET };
    const file = path.join(dataDir, 'steward.db');
    const first = await run(MIGRATE, [], env, dataDir);
    expect(first).toEqual({
      code: 0,
      stdout: `Applied ${Object.keys(migrations).sort().join(', ')} to ${file}\n`,
      stderr: '',
    });
    const second = await run(MIGRATE, [], env, dataDir);
    expect(second).toEqual({ code: 0, stdout: `${file} is up to date\n`, stderr: '' });
  });
});

describe('a bad environment', () => {
  let dataDir: string;

  beforeAll(() => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'steward-cli-'));
  });
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  test.each([
    ['token', TOKEN, ['--user', 'alexw@example.com']],
    ['migrate', MIGRATE, []],
  ])('makes %s exit 1 naming STEWARD_PORT', async (name, script, args) => {
    const env = { STEWARD_DATA_DIR: dataDir, STEWARD_AUTH_SECRET: TEST_SECRET, STEWARD_PORT: 'abc' };
    const result = await run(script, args, env, dataDir);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(new RegExp(`^${name}: STEWARD_PORT: `));
  });

  test('a database URL password is not printed when the URL is refused', async () => {
    const env = {
      STEWARD_DATA_DIR: dataDir,
      STEWARD_AUTH_SECRET: TEST_SECRET,
      STEWARD_DATABASE_URL: 'postgres://steward:Sup3rS3cret@bad host/steward',
    };
    const result = await run(MIGRATE, [], env, dataDir);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^migrate: STEWARD_DATABASE_URL: /);
    expect(result.stderr).not.toContain('Sup3rS3cret');
  });
});
