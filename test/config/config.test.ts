import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_TENANT_ID, redactUrl } from '../../src/config';
import { CONFIG_SECRET as SECRET, configLoads, ENTRA_AUTH } from '../support/configLoads';
import { DEMO_CHOICES } from '../support/demoChoices';

describe('loadConfig', () => {
  /** Loads with `env` only (never the process environment), in a temporary cwd of its own. */
  const folder = configLoads('config');
  const { load, failure } = folder;

  describe('defaults', () => {
    test('an empty environment gives the embedded defaults, rooted at cwd', () => {
      const config = load();
      expect(config.port).toBe(3978);
      expect(config.host).toBe('127.0.0.1');
      expect(config.role).toBe('all');
      expect(config.dataDir).toBe(path.join(folder.cwd, 'data'));
      expect(config.database).toEqual({ kind: 'sqlite', file: path.join(folder.cwd, 'data', 'steward.db') });
      expect(config.tenantId).toBe('00000000-0000-0000-0000-000000000001');
      expect(DEFAULT_TENANT_ID).toBe(config.tenantId);
      expect(config.auth.mode).toBe('embedded');
      expect(config.auth.issuer).toBe('steward-embedded');
      expect(config.auth.audience).toBe('api://steward');
      expect(config.rateLimitFactor).toBe(1);
      expect(config.seedDemoData).toBe(true);
      expect(config.bodyTimeoutMs).toBe(10_000);
      expect(config.logLevel).toBe('info');
      expect(config.publicUrl).toBeUndefined();
      expect(config.shutdownTimeoutMs).toBe(10_000);
      expect(config.heapGrowthPercent).toBe(50);
    });

    test('empty and blank values count as unset', () => {
      const config = load({
        STEWARD_PORT: '',
        STEWARD_HOST: '   ',
        STEWARD_TENANT_ID: ' ',
        STEWARD_LOG_LEVEL: '',
      });
      expect(config.port).toBe(3978);
      expect(config.host).toBe('127.0.0.1');
      expect(config.tenantId).toBe(DEFAULT_TENANT_ID);
      expect(config.logLevel).toBe('info');
    });
  });

  describe('valid values', () => {
    test('each variable is read and typed', () => {
      const config = load({
        STEWARD_PLATFORM: 'embedded',
        STEWARD_AUTH_MODE: 'embedded',
        STEWARD_PORT: '0',
        STEWARD_HOST: '0.0.0.0',
        STEWARD_ROLE: 'api',
        STEWARD_PUBLIC_URL: 'https://steward.example.com/',
        STEWARD_DATA_DIR: 'state',
        STEWARD_TENANT_ID: 'AABBCCDD-1111-2222-3333-444455556666',
        STEWARD_AUTH_SECRET: SECRET,
        STEWARD_RATE_LIMIT_FACTOR: '2.5',
        STEWARD_SEED_DEMO_DATA: 'no',
        STEWARD_LOG_LEVEL: 'silent',
        STEWARD_SHUTDOWN_TIMEOUT_MS: '2500',
        STEWARD_HEAP_GROWTH_PERCENT: '0',
      });
      expect(config.port).toBe(0);
      expect(config.host).toBe('0.0.0.0');
      expect(config.role).toBe('api');
      expect(config.publicUrl).toBe('https://steward.example.com');
      expect(config.dataDir).toBe(path.join(folder.cwd, 'state'));
      expect(config.database).toEqual({ kind: 'sqlite', file: path.join(folder.cwd, 'state', 'steward.db') });
      expect(config.tenantId).toBe('aabbccdd-1111-2222-3333-444455556666');
      expect(config.auth).toEqual({
        mode: 'embedded',
        secret: SECRET,
        issuer: 'steward-embedded',
        audience: 'api://steward',
      });
      expect(config.rateLimitFactor).toBe(2.5);
      expect(config.seedDemoData).toBe(false);
      expect(config.logLevel).toBe('silent');
      expect(config.shutdownTimeoutMs).toBe(2500);
      expect(config.heapGrowthPercent).toBe(0);
    });

    test('an absolute data dir is kept as is', () => {
      const dir = path.join(folder.cwd, 'elsewhere', 'data');
      expect(load({ STEWARD_DATA_DIR: dir, STEWARD_AUTH_SECRET: SECRET }).dataDir).toBe(dir);
    });

    test('database URLs: sqlite:<relative file>, sqlite::memory:, postgres://', () => {
      expect(
        load({ STEWARD_DATABASE_URL: 'sqlite:./db/s.db', STEWARD_AUTH_SECRET: SECRET }).database,
      ).toEqual({
        kind: 'sqlite',
        file: path.join(folder.cwd, 'db', 's.db'),
      });
      expect(load({ STEWARD_DATABASE_URL: 'sqlite::memory:', STEWARD_AUTH_SECRET: SECRET }).database).toEqual(
        {
          kind: 'sqlite',
          file: ':memory:',
        },
      );
      const pg = 'postgres://steward:pw@db.example.com:5432/steward';
      expect(
        load({ STEWARD_DATABASE_URL: pg, STEWARD_DATABASE_POOL_SIZE: '25', STEWARD_AUTH_SECRET: SECRET })
          .database,
      ).toEqual({ kind: 'postgres', url: pg, poolSize: 25 });
      expect(
        load({ STEWARD_DATABASE_URL: 'postgresql://db/steward', STEWARD_AUTH_SECRET: SECRET }).database,
      ).toEqual({ kind: 'postgres', url: 'postgresql://db/steward', poolSize: 10 });
    });

    test('booleans accept true/1/yes and false/0/no in any case', () => {
      for (const yes of ['true', '1', 'YES', 'True'])
        expect(load({ STEWARD_SEED_DEMO_DATA: yes, STEWARD_AUTH_SECRET: SECRET }).seedDemoData).toBe(true);
      for (const no of ['false', '0', 'No', 'FALSE'])
        expect(load({ STEWARD_SEED_DEMO_DATA: no, STEWARD_AUTH_SECRET: SECRET }).seedDemoData).toBe(false);
    });

    test('entra mode reads the JWKS URI, issuer and audience and needs no secret', () => {
      const config = load({
        ...DEMO_CHOICES,
        STEWARD_AUTH_MODE: 'entra',
        STEWARD_AUTH_JWKS_URI: 'https://login.microsoftonline.com/common/discovery/v2.0/keys',
        STEWARD_AUTH_ISSUER: 'https://login.microsoftonline.com/t/v2.0',
        STEWARD_AUTH_AUDIENCE: 'api://steward-prod',
      });
      expect(config.auth).toEqual({
        mode: 'entra',
        jwksUri: 'https://login.microsoftonline.com/common/discovery/v2.0/keys',
        issuer: 'https://login.microsoftonline.com/t/v2.0',
        audience: 'api://steward-prod',
      });
      expect(existsSync(path.join(folder.cwd, 'data', 'auth-secret'))).toBe(false);
    });
  });

  describe("the demo's defaults beyond the embedded default", () => {
    const entra = ENTRA_AUTH;
    const graph = {
      STEWARD_PLATFORM: 'graph',
      STEWARD_GRAPH_TENANT_ID: 'AABBCCDD-1111-2222-3333-444455556666',
      STEWARD_GRAPH_CLIENT_ID: 'c',
      STEWARD_GRAPH_CLIENT_SECRET: 's',
    };

    test('a production start on every interface with nothing chosen names all four settings', () => {
      const error = failure({
        NODE_ENV: 'production',
        STEWARD_HOST: '0.0.0.0',
        STEWARD_PUBLIC_URL: 'https://steward.example.com',
        STEWARD_AUTH_SECRET: SECRET,
      });
      expect(error.variable).toBe(
        'STEWARD_PLATFORM, STEWARD_AUTH_MODE, STEWARD_SEED_DEMO_DATA, STEWARD_TENANT_ID',
      );
      expect(error.message).toContain('listens on 0.0.0.0, beyond loopback');
      expect(error.message).toContain('STEWARD_PLATFORM=embedded|graph');
    });

    test('Entra ID tokens or Microsoft Graph on loopback name the demo defaults left', () => {
      expect(failure(entra).variable).toBe('STEWARD_PLATFORM, STEWARD_SEED_DEMO_DATA, STEWARD_TENANT_ID');
      expect(failure(entra).message).toContain('takes Entra ID tokens');
      const onGraph = failure({ ...graph, STEWARD_AUTH_SECRET: SECRET, STEWARD_SEED_DEMO_DATA: 'false' });
      expect(onGraph.variable).toBe('STEWARD_AUTH_MODE, STEWARD_TENANT_ID');
      expect(onGraph.message).toContain('runs on Microsoft Graph');
    });

    test('each chosen explicitly, even as the demo has it, starts', () => {
      const chosen = {
        STEWARD_HOST: '0.0.0.0',
        STEWARD_PUBLIC_URL: 'https://steward.example.com',
        STEWARD_BOT_ENABLED: 'false',
        STEWARD_AUTH_SECRET: SECRET,
        STEWARD_PLATFORM: 'embedded',
        STEWARD_AUTH_MODE: 'embedded',
        STEWARD_SEED_DEMO_DATA: 'true',
        STEWARD_TENANT_ID: DEFAULT_TENANT_ID,
      };
      expect(load(chosen).seedDemoData).toBe(true);
      const production = load({
        ...entra,
        ...graph,
        STEWARD_SEED_DEMO_DATA: 'false',
        STEWARD_TENANT_ID: 'AABBCCDD-1111-2222-3333-444455556666',
      });
      expect(production.seedDemoData).toBe(false);
      expect(production.platform.kind).toBe('graph');
    });
  });

  describe('bad values throw a ConfigError that names the variable', () => {
    const entra = { ...DEMO_CHOICES, ...ENTRA_AUTH };
    const cases: Array<[string, Record<string, string>]> = [
      ['STEWARD_PORT', { STEWARD_PORT: 'abc' }],
      ['STEWARD_PORT', { STEWARD_PORT: '70000' }],
      ['STEWARD_PORT', { STEWARD_PORT: '-1' }],
      ['STEWARD_PORT', { STEWARD_PORT: '0x10' }],
      ['STEWARD_PORT', { STEWARD_PORT: '1e3' }],
      ['STEWARD_PORT', { STEWARD_PORT: '80.5' }],
      ['STEWARD_ROLE', { STEWARD_ROLE: 'worker-of-doom' }],
      ['STEWARD_PUBLIC_URL', { STEWARD_PUBLIC_URL: 'not a url' }],
      ['STEWARD_BODY_TIMEOUT_MS', { STEWARD_BODY_TIMEOUT_MS: '50' }],
      ['STEWARD_BODY_TIMEOUT_MS', { STEWARD_BODY_TIMEOUT_MS: '10 s' }],
      ['STEWARD_DATABASE_URL', { STEWARD_DATABASE_URL: 'mysql://x' }],
      ['STEWARD_DATABASE_URL', { STEWARD_DATABASE_URL: 'sqlite:' }],
      [
        'STEWARD_DATABASE_POOL_SIZE',
        { STEWARD_DATABASE_URL: 'postgres://db/s', STEWARD_DATABASE_POOL_SIZE: '0' },
      ],
      ['STEWARD_TENANT_ID', { STEWARD_TENANT_ID: 'nope' }],
      ['STEWARD_TENANT_ID', { STEWARD_TENANT_ID: '00000000-0000-0000-0000-0000000000012' }],
      ['STEWARD_AUTH_MODE', { STEWARD_AUTH_MODE: 'kerberos' }],
      ['STEWARD_AUTH_SECRET', { STEWARD_AUTH_SECRET: 'short' }],
      ['STEWARD_AUTH_SECRET', { STEWARD_AUTH_SECRET: 'x'.repeat(31) }],
      ['STEWARD_RATE_LIMIT_FACTOR', { STEWARD_RATE_LIMIT_FACTOR: '0' }],
      ['STEWARD_RATE_LIMIT_FACTOR', { STEWARD_RATE_LIMIT_FACTOR: '-1' }],
      ['STEWARD_RATE_LIMIT_FACTOR', { STEWARD_RATE_LIMIT_FACTOR: 'abc' }],
      ['STEWARD_RATE_LIMIT_FACTOR', { STEWARD_RATE_LIMIT_FACTOR: 'Infinity' }],
      ['STEWARD_LOG_LEVEL', { STEWARD_LOG_LEVEL: 'loud' }],
      ['STEWARD_SEED_DEMO_DATA', { STEWARD_SEED_DEMO_DATA: 'maybe' }],
      ['STEWARD_SHUTDOWN_TIMEOUT_MS', { STEWARD_SHUTDOWN_TIMEOUT_MS: 'soon' }],
      ['STEWARD_HEAP_GROWTH_PERCENT', { STEWARD_HEAP_GROWTH_PERCENT: '401' }],
      ['STEWARD_HEAP_GROWTH_PERCENT', { STEWARD_HEAP_GROWTH_PERCENT: '-10' }],
      ['STEWARD_AUTH_JWKS_URI', { ...entra, STEWARD_AUTH_JWKS_URI: '' }],
      ['STEWARD_AUTH_JWKS_URI', { ...entra, STEWARD_AUTH_JWKS_URI: 'keys.json' }],
      ['STEWARD_AUTH_ISSUER', { ...entra, STEWARD_AUTH_ISSUER: '' }],
      ['STEWARD_AUTH_AUDIENCE', { ...entra, STEWARD_AUTH_AUDIENCE: '' }],
    ];

    test.each(cases)('%s in %j', (variable, env) => {
      const error = failure({ STEWARD_AUTH_SECRET: SECRET, ...env });
      expect(error.variable).toBe(variable);
      expect(error.message.startsWith(`${variable}: `)).toBe(true);
      expect(error.name).toBe('ConfigError');
    });

    test('entra mode without a JWKS URI says it is required', () => {
      const error = failure({ ...DEMO_CHOICES, STEWARD_AUTH_MODE: 'entra' });
      expect(error.message).toMatch(/^STEWARD_AUTH_JWKS_URI: .*required/);
    });

    test('the message quotes the bad value so it can be found', () => {
      expect(failure({ STEWARD_PORT: 'abc' }).message).toContain('"abc"');
      expect(failure({ STEWARD_LOG_LEVEL: 'loud' }).message).toContain('"loud"');
    });

    test('a too-short secret is never quoted back', () => {
      const error = failure({ STEWARD_AUTH_SECRET: 'hunter2-hunter2' });
      expect(error.message).not.toContain('hunter2');
    });
  });

  describe('the embedded signing secret', () => {
    test('is generated into <dataDir>/auth-secret with mode 0600 and reused on the next load', () => {
      const file = path.join(folder.cwd, 'data', 'auth-secret');
      expect(existsSync(file)).toBe(false);
      const first = load();
      expect(existsSync(file)).toBe(true);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      if (first.auth.mode !== 'embedded') throw new Error('expected embedded auth');
      expect(Buffer.byteLength(first.auth.secret)).toBeGreaterThanOrEqual(32);
      expect(readFileSync(file, 'utf8').trim()).toBe(first.auth.secret);
      const second = load();
      expect(second.auth).toEqual(first.auth);
    });

    test('differs between data dirs', () => {
      const a = load({ STEWARD_DATA_DIR: 'a' });
      const b = load({ STEWARD_DATA_DIR: 'b' });
      if (a.auth.mode !== 'embedded' || b.auth.mode !== 'embedded') throw new Error('expected embedded auth');
      expect(a.auth.secret).not.toBe(b.auth.secret);
    });

    test('STEWARD_AUTH_SECRET wins and nothing is written', () => {
      const config = load({ STEWARD_AUTH_SECRET: SECRET });
      expect(config.auth.mode === 'embedded' && config.auth.secret).toBe(SECRET);
      expect(existsSync(path.join(folder.cwd, 'data', 'auth-secret'))).toBe(false);
    });

    test('an existing secret file is read (trimmed), and a short one is refused', () => {
      mkdirSync(path.join(folder.cwd, 'data'));
      writeFileSync(path.join(folder.cwd, 'data', 'auth-secret'), `${SECRET}\n`, { mode: 0o600 });
      const config = load();
      expect(config.auth.mode === 'embedded' && config.auth.secret).toBe(SECRET);
      writeFileSync(path.join(folder.cwd, 'data', 'auth-secret'), 'too-short\n');
      const error = failure({});
      expect(error.variable).toBe('STEWARD_DATA_DIR');
      expect(error.message).toContain(path.join(folder.cwd, 'data', 'auth-secret'));
    });

    test('an existing secret file readable by others is tightened to 0600', () => {
      mkdirSync(path.join(folder.cwd, 'data'));
      const file = path.join(folder.cwd, 'data', 'auth-secret');
      writeFileSync(file, `${SECRET}\n`, { mode: 0o644 });
      load();
      expect(statSync(file).mode & 0o777).toBe(0o600);
    });
  });

  describe('passwords in URLs', () => {
    test('redactUrl hides the password and keeps the rest', () => {
      expect(redactUrl('postgres://steward:s3cr3t@db.example.com:5432/steward')).toBe(
        'postgres://steward:***@db.example.com:5432/steward',
      );
      expect(redactUrl('postgresql://u:p%40ss@h/d?sslmode=require')).toBe(
        'postgresql://u:***@h/d?sslmode=require',
      );
      expect(redactUrl('postgres://db.example.com/steward')).toBe('postgres://db.example.com/steward');
      expect(redactUrl('postgres://user@db.example.com/steward')).toBe(
        'postgres://user@db.example.com/steward',
      );
    });

    test('a postgres URL with a password never appears in a ConfigError', () => {
      const password = 'Sup3rS3cretPassw0rd';
      const errors = [
        failure({ STEWARD_DATABASE_URL: `postgres://steward:${password}@db host/steward` }),
        failure({
          STEWARD_DATABASE_URL: `postgres://steward:${password}@db.example.com/steward`,
          STEWARD_DATABASE_POOL_SIZE: 'lots',
        }),
        failure({ STEWARD_DATABASE_URL: `mysql://steward:${password}@db.example.com/steward` }),
      ];
      for (const error of errors) {
        expect(error.variable).toMatch(/^STEWARD_DATABASE_/);
        expect(error.message).not.toContain(password);
      }
      expect(errors[0]!.message).toContain('steward:***@');
    });

    test('a password with an unencoded @ is hidden entirely', () => {
      expect(redactUrl('postgres://steward:p@ssw0rd@db.example.com/steward')).toBe(
        'postgres://steward:***@db.example.com/steward',
      );
      const error = failure({ STEWARD_DATABASE_URL: 'postgres://steward:p@ssw0rd@db host/steward' });
      expect(error.message).not.toContain('ssw0rd');
    });
  });
});
