import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { EmbeddedTokenIssuer } from '../../src/services/access/tokens';
import { spawnMain } from '../support/mainProcess';
import { PEOPLE, TENANT, TEST_SECRET } from '../support/steward';
import { freePort } from '../support/ports';

describe('node dist/main.js reads .env and PORT', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'steward-env-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('settings come from .env in the working directory, the environment wins, and PORT is the port', async () => {
    const port = await freePort();
    writeFileSync(
      path.join(dir, '.env'),
      [
        '# what a copy of .env.example edited by hand looks like',
        `STEWARD_AUTH_SECRET="${TEST_SECRET}"`,
        'STEWARD_DATA_DIR=./state',
        'STEWARD_LOG_LEVEL=debug',
        'STEWARD_TENANT_ID=11111111-2222-3333-4444-555555555555',
        '',
      ].join('\n'),
    );
    // The environment (a platform's settings) overrides the file: the tenant stays the demo one.
    const main = spawnMain({ PORT: String(port), STEWARD_TENANT_ID: TENANT, STEWARD_LOG_LEVEL: 'info' }, dir);
    try {
      const listening = await main.waitForLog('Steward is listening');
      expect(listening.url).toBe(`http://127.0.0.1:${port}`);
      expect(listening.store).toBe(path.join(dir, 'state', 'steward.db'));
      // A token signed with the secret from .env, for the tenant of the environment, is accepted.
      const token = await new EmbeddedTokenIssuer(TEST_SECRET, TENANT).mint({ id: PEOPLE.alex });
      const res = await request(`http://127.0.0.1:${port}/api/v1.0/me/catalog/templates`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode).toBe(200);
      await res.body.dump();
      expect(main.logs.some((line) => line.level === 20)).toBe(false);
    } finally {
      main.child.kill('SIGTERM');
      await main.exited;
    }
  });

  test("a production start on all interfaces, with the demo's defaults unchosen, is refused", async () => {
    const main = spawnMain(
      {
        NODE_ENV: 'production',
        STEWARD_HOST: '0.0.0.0',
        STEWARD_PUBLIC_URL: 'https://steward.example.com',
        STEWARD_DATA_DIR: dir,
        STEWARD_PORT: '0',
      },
      dir,
    );
    expect(await main.exited).toEqual({ code: 1, signal: null });
    expect(main.stderr()).toMatch(
      /^Steward cannot start: STEWARD_PLATFORM, STEWARD_AUTH_MODE, STEWARD_SEED_DEMO_DATA, STEWARD_TENANT_ID: must be set: this Steward listens on 0.0.0.0, beyond loopback/,
    );
    expect(main.logs).toEqual([]);
  });

  test('listening on all interfaces without STEWARD_PUBLIC_URL is refused before anything starts', async () => {
    const main = spawnMain({ STEWARD_HOST: '0.0.0.0', STEWARD_DATA_DIR: dir, STEWARD_PORT: '0' }, dir);
    expect(await main.exited).toEqual({ code: 1, signal: null });
    expect(main.stderr()).toMatch(/^Steward cannot start: STEWARD_PUBLIC_URL: is required when STEWARD_HOST/);
    expect(main.logs).toEqual([]);
  });
});
