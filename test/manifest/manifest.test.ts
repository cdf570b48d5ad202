import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import teamsManifestSchema from '@microsoft/app-manifest/build/json-schemas/teams/v1.25/MicrosoftTeams.schema.json';
import { pngHeader, pngPixels } from './pngImage';
import { zipEntries } from './zipEntries';

const ROOT = path.resolve(__dirname, '..', '..');
const SCRIPT = path.join(ROOT, 'scripts', 'manifest.js');
const BOT_ID = '341355bf-907c-4b6e-8e8a-8d78985f8d65';
const ENV = { PATH: process.env.PATH ?? '', STEWARD_PUBLIC_URL: 'https://steward.contoso.example' };

interface Command {
  title: string;
  description: string;
}
interface TeamsManifest {
  manifestVersion: string;
  id: string;
  version: string;
  icons: { color: string; outline: string };
  validDomains: string[];
  developer: { websiteUrl: string; privacyUrl: string };
  bots: { botId: string; scopes: string[]; commandLists: { scopes: string[]; commands: Command[] }[] }[];
}

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validateManifest = ajv.compile(teamsManifestSchema);

describe('Teams app package', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'steward-manifest-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs `npm run manifest`'s script in `cwd` (a folder of its own: no .env unless a test writes one). */
  function build(env: Record<string, string>, name = 'steward.zip', cwd = dir) {
    const out = path.join(dir, name);
    const run = spawnSync(process.execPath, [SCRIPT, '--out', out], { cwd, env, encoding: 'utf8' });
    return { ...run, out };
  }

  it('zips manifest.json and both icons at the root, with the bot id from MicrosoftAppId', () => {
    const run = build({ ...ENV, MicrosoftAppId: BOT_ID });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const entries = zipEntries(readFileSync(run.out));
    expect(entries.map((entry) => entry.name)).toEqual(['manifest.json', 'color.png', 'outline.png']);
    for (const icon of ['color.png', 'outline.png']) {
      expect(
        entries
          .find((entry) => entry.name === icon)
          ?.data.equals(readFileSync(path.join(ROOT, 'manifest', icon))),
      ).toBe(true);
    }
    const manifest = JSON.parse(entries[0]!.data.toString('utf8')) as TeamsManifest;
    expect(manifest.id).toBe(BOT_ID);
    expect(manifest.bots[0]?.botId).toBe(BOT_ID);
    expect(manifest.version).toBe(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version);
    expect(manifest.validDomains).toEqual(['steward.contoso.example']);
    expect(JSON.stringify(manifest)).not.toContain('${{');
  });

  it('produces a manifest valid against the Teams manifest schema it declares', () => {
    const run = build(
      { ...ENV, STEWARD_BOT_ID: BOT_ID, STEWARD_TEAMS_APP_ID: '0f5c6d7e-1a2b-4c3d-8e9f-a0b1c2d3e4f5' },
      'b.zip',
    );
    expect(run.status).toBe(0);
    const manifest = JSON.parse(zipEntries(readFileSync(run.out))[0]!.data.toString('utf8')) as TeamsManifest;
    const valid = validateManifest(manifest);
    expect(ajv.errorsText(validateManifest.errors)).toBe('No errors');
    expect(valid).toBe(true);
    expect(manifest.manifestVersion).toBe('1.25');
    expect(teamsManifestSchema.properties.manifestVersion.const).toBe(manifest.manifestVersion);
    expect(manifest.id).toBe('0f5c6d7e-1a2b-4c3d-8e9f-a0b1c2d3e4f5');
    expect(manifest.bots[0]?.botId).toBe(BOT_ID);
    // The schema has teeth: a wrong colour or a bot without an id is refused.
    expect(validateManifest({ ...manifest, accentColor: 'purple' })).toBe(false);
    expect(validateManifest({ ...manifest, bots: [{ scopes: ['personal'] }] })).toBe(false);
  });

  it('declares the personal and team scopes with the commands Steward understands in each', () => {
    const template = JSON.parse(
      readFileSync(path.join(ROOT, 'manifest', 'manifest.json'), 'utf8'),
    ) as TeamsManifest;
    const bot = template.bots[0]!;
    expect(bot.scopes).toEqual(['personal', 'team']);
    for (const scope of ['personal', 'team']) {
      const list = bot.commandLists.find((commands) => commands.scopes.includes(scope));
      expect(list?.commands.map((command) => command.title)).toEqual([
        'new team',
        'request',
        'my requests',
        'my approvals',
        'withdraw',
        'status',
        'language',
        'help',
      ]);
    }
  });

  it(".env's settings fill the package, the API's app registration giving single sign-on", () => {
    const project = mkdtempSync(path.join(dir, 'project-'));
    const apiApp = '6b1c0f3e-2d4a-4b5c-9e8f-7a6b5c4d3e2f';
    writeFileSync(
      path.join(project, '.env'),
      `MicrosoftAppId=${BOT_ID}\nSTEWARD_API_CLIENT_ID=${apiApp}\nSTEWARD_PUBLIC_URL=https://from-dotenv.example\n`,
    );
    const run = build({ ...ENV }, 'dotenv.zip', project);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const manifest = JSON.parse(
      zipEntries(readFileSync(run.out))[0]!.data.toString('utf8'),
    ) as TeamsManifest & {
      webApplicationInfo?: { id: string; resource: string };
    };
    expect(manifest.bots[0]?.botId).toBe(BOT_ID);
    expect(manifest.webApplicationInfo).toEqual({ id: apiApp, resource: `api://botid-${apiApp}` });
    // The environment wins over .env, as for Steward itself.
    expect(manifest.validDomains).toEqual(['steward.contoso.example']);
    expect(run.stdout).not.toContain('No single sign-on');
    const without = build({ ...ENV, MicrosoftAppId: BOT_ID }, 'no-sso.zip');
    expect(without.status).toBe(0);
    expect(without.stdout).toContain('No single sign-on in the package: set STEWARD_API_CLIENT_ID');
  });

  it('refuses to build without a bot id, with a wrong one, or without an https address', () => {
    for (const [env, message] of [
      [ENV, 'Set STEWARD_BOT_ID (or MicrosoftAppId)'],
      [{ ...ENV, STEWARD_BOT_ID: 'steward-bot' }, 'is not a GUID'],
      [{ PATH: ENV.PATH, STEWARD_BOT_ID: BOT_ID }, 'Set STEWARD_PUBLIC_URL'],
      [
        { ...ENV, STEWARD_BOT_ID: BOT_ID, STEWARD_PUBLIC_URL: 'http://steward.contoso.example' },
        'must be an https URL',
      ],
    ] as const) {
      const run = build(env, 'refused.zip');
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(message);
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(existsSync(run.out)).toBe(false);
    }
  });
});

describe('app icons', () => {
  const color = readFileSync(path.join(ROOT, 'manifest', 'color.png'));
  const outline = readFileSync(path.join(ROOT, 'manifest', 'outline.png'));

  it('are a 192×192 colour icon and a 32×32 outline icon', () => {
    expect(pngHeader(color)).toMatchObject({ width: 192, height: 192 });
    expect(pngHeader(outline)).toMatchObject({ width: 32, height: 32 });
  });

  it('outline is white on transparent; colour is fully opaque', () => {
    const pixels = pngPixels(outline);
    let transparent = 0;
    let drawn = 0;
    for (let i = 0; i < pixels.length; i += 4) {
      if (pixels[i + 3] === 0) transparent++;
      else {
        drawn++;
        expect([pixels[i], pixels[i + 1], pixels[i + 2]]).toEqual([255, 255, 255]);
      }
    }
    expect(transparent).toBeGreaterThan(0);
    expect(drawn).toBeGreaterThan(0);
    const opaque = pngPixels(color);
    for (let i = 3; i < opaque.length; i += 4)
      if (opaque[i] !== 255) throw new Error(`pixel ${(i - 3) / 4} is not opaque`);
  });

  it('are what scripts/icons.js draws', () => {
    const drawn = execFileSync(
      process.execPath,
      [
        '-e',
        "const i = require('./scripts/icons.js'); process.stdout.write(JSON.stringify([i.colorIcon().toString('base64'), i.outlineIcon().toString('base64')]))",
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(JSON.parse(drawn)).toEqual([color.toString('base64'), outline.toString('base64')]);
  });
});
