import { loadConfig } from '../../src/config';
import { CONFIG_SECRET as SECRET, configLoads, DEMO_ENV, ENTRA_AUTH } from '../support/configLoads';
import { DEMO_CHOICES } from '../support/demoChoices';

const KEY = '0123456789abcdef'.repeat(4);

describe('report settings', () => {
  const folder = configLoads('reports-config', DEMO_ENV);
  const { load, failure } = folder;

  test('without Metabase, report URLs are Steward pages signed from the auth secret', () => {
    expect(load().reports).toEqual({ urlSecret: SECRET });
  });

  test('entra mode uses STEWARD_AUTH_SECRET when set, else a random secret of the process', () => {
    const entra = { ...DEMO_CHOICES, ...ENTRA_AUTH };
    expect(load(entra).reports.urlSecret).toBe(SECRET);
    const random = loadConfig(entra, folder.cwd).reports.urlSecret;
    expect(random.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig(entra, folder.cwd).reports.urlSecret).not.toBe(random);
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
