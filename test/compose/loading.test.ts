import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnMain } from '../support/mainProcess';

/**
 * What a start loads: the embedded tenant's API process never loads what only Microsoft Graph or an
 * Azure identity needs (Graph's adapter, Azure's identity library and what it brings: a sixth of
 * the modules of a start).
 */
describe('an embedded start', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'steward-loading-'));
    // Writes the packages and Steward's folders the process loaded, as it exits.
    writeFileSync(
      path.join(dir, 'loaded.js'),
      `process.on('exit', () => {
        const parts = new Set(Object.keys(require.cache).map((file) => {
          const packages = file.split('/node_modules/');
          if (packages.length > 1) return packages.at(-1).split('/').slice(0, packages.at(-1).startsWith('@') ? 2 : 1).join('/');
          return 'steward:' + path.relative(${JSON.stringify(path.resolve(__dirname, '..', '..', 'dist'))}, path.dirname(file));
        }));
        process.stderr.write('loaded ' + JSON.stringify([...parts]) + '\\n');
      });
      const path = require('node:path');`,
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('of the API alone loads neither Graph’s adapter nor Azure’s identity library', async () => {
    const main = spawnMain({
      NODE_OPTIONS: `--require ${path.join(dir, 'loaded.js')}`,
      STEWARD_ROLE: 'api',
      STEWARD_PORT: '0',
      STEWARD_HOST: '127.0.0.1',
      STEWARD_DATA_DIR: path.join(dir, 'data'),
      STEWARD_AUTH_SECRET: 'loading-test-secret-that-is-long-enough-for-hs256',
    });
    await main.waitForLog('Steward is listening');
    main.child.kill('SIGTERM');
    expect(await main.exited).toEqual({ code: 0, signal: null });
    const line = main
      .stderr()
      .split('\n')
      .find((text) => text.startsWith('loaded '));
    const loaded = JSON.parse(line!.slice('loaded '.length)) as string[];
    // It did start: the store, the API and the embedded tenant are there.
    expect(loaded).toEqual(expect.arrayContaining(['kysely', 'restify', 'steward:platform/embedded']));
    expect(loaded.filter((part) => /^@azure\/|^steward:platform\/graph$/.test(part))).toEqual([]);
  }, 60_000);
});
