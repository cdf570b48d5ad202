import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import teamsManifestSchema from '@microsoft/app-manifest/build/json-schemas/teams/v1.25/MicrosoftTeams.schema.json';
import { zipEntries } from './zipEntries';

const ROOT = path.resolve(__dirname, '..', '..');
const BOT_ID = '341355bf-907c-4b6e-8e8a-8d78985f8d65';
const SSO_ID = '0f5c6d7e-1a2b-4c3d-8e9f-a0b1c2d3e4f5';
const BASE = {
  PATH: process.env.PATH ?? '',
  STEWARD_PUBLIC_URL: 'https://steward.contoso.example',
  STEWARD_BOT_ID: BOT_ID,
};
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(teamsManifestSchema);

interface Built {
  status: number | null;
  stderr: string;
  manifest?: { webApplicationInfo?: { id: string; resource: string }; validDomains: string[] };
}

describe('npm run manifest: single sign-on and valid domains', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'steward-sso-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  let n = 0;
  function build(env: Record<string, string>): Built {
    const out = path.join(dir, `p${(n += 1)}.zip`);
    const run = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'manifest.js'), '--out', out], {
      cwd: ROOT,
      env: { ...BASE, ...env },
      encoding: 'utf8',
    });
    if (run.status !== 0) return { status: run.status, stderr: run.stderr };
    const manifest = JSON.parse(zipEntries(readFileSync(out))[0]!.data.toString('utf8')) as Built['manifest'];
    expect(validate(manifest)).toBe(true);
    return { status: run.status, stderr: run.stderr, manifest };
  }

  it('sets webApplicationInfo from STEWARD_SSO_APP_ID, the resource defaulting to api://botid-<id>', () => {
    expect(build({ STEWARD_SSO_APP_ID: SSO_ID }).manifest?.webApplicationInfo).toEqual({
      id: SSO_ID,
      resource: `api://botid-${SSO_ID}`,
    });
    expect(
      build({
        STEWARD_SSO_APP_ID: SSO_ID,
        STEWARD_SSO_RESOURCE: `api://steward.contoso.example/botid-${SSO_ID}`,
      }).manifest?.webApplicationInfo?.resource,
    ).toBe(`api://steward.contoso.example/botid-${SSO_ID}`);
  });

  it('leaves webApplicationInfo out without STEWARD_SSO_APP_ID, and refuses one that is not a GUID', () => {
    expect(build({}).manifest).not.toHaveProperty('webApplicationInfo');
    const bad = build({ STEWARD_SSO_APP_ID: 'steward' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('STEWARD_SSO_APP_ID "steward" is not a GUID.');
  });

  it('adds STEWARD_VALID_DOMAINS to the public host, and refuses a URL there', () => {
    expect(
      build({ STEWARD_VALID_DOMAINS: 'token.botframework.com, *.contoso.example' }).manifest?.validDomains,
    ).toEqual(['steward.contoso.example', 'token.botframework.com', '*.contoso.example']);
    const bad = build({ STEWARD_VALID_DOMAINS: 'https://contoso.example/x' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('is not a domain');
  });
});
