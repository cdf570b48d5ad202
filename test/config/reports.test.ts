import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config';
import { DEMO_CHOICES } from '../support/demoChoices';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const KEY = '0123456789abcdef'.repeat(4);

describe('report settings', () => {
  let cwd: string;
  beforeEach(() => {
    cwd = mkdtempSync(path.join(os.tmpdir(), 'steward-reports-config-'));
  });
  afterEach(() => rmSync(cwd, { recursive: true, force: true }));
  const load = (env: Record<string, string> = {}) =>
    loadConfig({ ...DEMO_CHOICES, STEWARD_AUTH_SECRET: SECRET, ...env }, cwd);
  const failure = (env: Record<string, string>): ConfigError => {
    try {
      load(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return error as ConfigError;
    }
    throw new Error('no ConfigError');
  };

  test('without Metabase, report URLs are Steward pages signed from the auth secret', () => {
    expect(load().reports).toEqual({ urlSecret: SECRET });
  });

  test('entra mode uses STEWARD_AUTH_SECRET when set, else a random secret of the process', () => {
    const entra = {
      ...DEMO_CHOICES,
      STEWARD_AUTH_MODE: 'entra',
      STEWARD_AUTH_JWKS_URI: 'https://login.example.com/keys',
      STEWARD_AUTH_ISSUER: 'https://login.example.com/v2.0',
      STEWARD_AUTH_AUDIENCE: 'api://steward',
    };
    expect(load(entra).reports.urlSecret).toBe(SECRET);
    const random = loadConfig(entra, cwd).reports.urlSecret;
    expect(random.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig(entra, cwd).reports.urlSecret).not.toBe(random);
  });

  test('Metabase needs both variables, an http(s) site and a long key', () => {
    expect(
      load({
        METABASE_SITE_URL: 'https://metabase.example.com/',
        METABASE_SECRET_KEY: KEY,
        METABASE_RESOURCE_IDS: 'teams-created:12, orphaned-teams:7',
      }).reports.metabase,
    ).toEqual({
      siteUrl: 'https://metabase.example.com',
      secretKey: KEY,
      resourceIds: { 'teams-created': 12, 'orphaned-teams': 7 },
    });
    expect(failure({ METABASE_SITE_URL: 'https://m.example.com' }).message).toBe(
      'METABASE_SECRET_KEY: is required when METABASE_SITE_URL is set',
    );
    expect(failure({ METABASE_SECRET_KEY: KEY }).variable).toBe('METABASE_SITE_URL');
    expect(failure({ METABASE_SITE_URL: 'ftp://m.example.com', METABASE_SECRET_KEY: KEY }).variable).toBe(
      'METABASE_SITE_URL',
    );
    const short = failure({ METABASE_SITE_URL: 'https://m.example.com', METABASE_SECRET_KEY: 'short-key' });
    expect(short.variable).toBe('METABASE_SECRET_KEY');
    expect(short.message).not.toContain('short-key');
  });

  test('Metabase resource ids name known reports and positive numbers', () => {
    const metabase = { METABASE_SITE_URL: 'https://m.example.com', METABASE_SECRET_KEY: KEY };
    for (const value of ['teams-created', 'teams-created:0', 'teams-created:x', 'no-such-report:3']) {
      expect(failure({ ...metabase, METABASE_RESOURCE_IDS: value }).variable).toBe('METABASE_RESOURCE_IDS');
    }
  });
});
