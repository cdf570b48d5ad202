import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, isLoopback, loadDotEnv } from '../../src/config';
import { configLoads, DEMO_ENV } from '../support/configLoads';

describe('where Steward listens', () => {
  const { load, failure } = configLoads('listen', DEMO_ENV);

  test('PORT is the port when STEWARD_PORT is unset; STEWARD_PORT wins over it', () => {
    expect(load({ PORT: '8080' }).port).toBe(8080);
    expect(load({ PORT: '8080', STEWARD_PORT: '3000' }).port).toBe(3000);
    expect(load({ PORT: ' ' }).port).toBe(3978);
    expect(failure({ PORT: 'http' }).variable).toBe('PORT');
    expect(failure({ PORT: '8080', STEWARD_PORT: '70000' }).variable).toBe('STEWARD_PORT');
  });

  test('a non-loopback address needs STEWARD_PUBLIC_URL', () => {
    for (const host of ['0.0.0.0', '::', '10.1.2.3', 'steward.internal']) {
      const error = failure({ STEWARD_HOST: host });
      expect(error.variable).toBe('STEWARD_PUBLIC_URL');
      expect(error.message).toContain(`"${host}"`);
    }
    // The bot has its own rule for non-loopback addresses (MicrosoftAppId); this test is about the URL.
    const config = load({
      STEWARD_HOST: '0.0.0.0',
      STEWARD_PUBLIC_URL: 'https://steward.contoso.com/',
      STEWARD_BOT_ENABLED: 'false',
    });
    expect(config).toMatchObject({ host: '0.0.0.0', publicUrl: 'https://steward.contoso.com' });
    expect(load({ STEWARD_HOST: '127.0.0.2' }).publicUrl).toBeUndefined();
  });

  test('loopback addresses', () => {
    for (const host of ['127.0.0.1', '127.10.0.1', 'localhost', 'LOCALHOST', '::1', '[::1]'])
      expect(isLoopback(host)).toBe(true);
    for (const host of ['0.0.0.0', '::', '128.0.0.1', '127.0.0.1.nip.io', 'localhost.contoso.com'])
      expect(isLoopback(host)).toBe(false);
  });
});

describe('loadDotEnv', () => {
  const folder = configLoads('dotenv');

  test('sets the names of .env that the environment does not set, with quotes and comments handled', () => {
    const dir = folder.cwd;
    writeFileSync(
      path.join(dir, '.env'),
      '# a comment\nSTEWARD_PORT=4000\nSTEWARD_LOG_LEVEL=debug # trailing\nMicrosoftAppPassword="p#ss word"\nEMPTY=\n',
    );
    const env: NodeJS.ProcessEnv = { STEWARD_PORT: '5000' };
    const set = loadDotEnv(dir, env);
    expect(set.sort()).toEqual(['EMPTY', 'MicrosoftAppPassword', 'STEWARD_LOG_LEVEL']);
    expect(env).toEqual({
      STEWARD_PORT: '5000',
      STEWARD_LOG_LEVEL: 'debug',
      MicrosoftAppPassword: 'p#ss word',
      EMPTY: '',
    });
  });

  test('no .env sets nothing; an unreadable one is a ConfigError', () => {
    const dir = folder.cwd;
    const env: NodeJS.ProcessEnv = {};
    expect(loadDotEnv(dir, env)).toEqual([]);
    expect(env).toEqual({});
    // A .env that is a directory cannot be read (as permissions would, for anyone but root).
    mkdirSync(path.join(dir, '.env'));
    expect(() => loadDotEnv(dir, env)).toThrow(new ConfigError('.env', 'cannot be read (EISDIR)'));
  });
});
