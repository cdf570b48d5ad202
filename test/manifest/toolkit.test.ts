import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Ajv from 'ajv';
import { zipEntries } from './zipEntries';

/**
 * The Microsoft 365 Agents Toolkit's own checks of Steward's Teams app: `atk validate` on the
 * manifest template with the sample environment (as `atk provision` fills it), and on the package
 * `npm run manifest` builds; the Entra app registration (aad.manifest.json) through the Toolkit's
 * own aadApp/update build; and the three m365agents*.yml files against the Toolkit's YAML schema.
 * The CLI is not a dependency of the project (hundreds of packages): `.ci/run` installs it apart
 * and names it in STEWARD_ATK_CLI. Without it the suite is skipped, saying so, except in CI.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const SAMPLE_ENV = path.join(ROOT, 'env', '.env.sample');
const ATK = process.env.STEWARD_ATK_CLI;
const available = ATK !== undefined && existsSync(ATK);

if (!available && process.env.CI !== 'true') {
  process.stderr.write(
    '\n*** test/manifest/toolkit SKIPPED: the Agents Toolkit CLI is not installed. Install it with ' +
      '`npm install --prefix <dir> --ignore-scripts @microsoft/m365agentstoolkit-cli` and set ' +
      'STEWARD_ATK_CLI=<dir>/node_modules/.bin/atk (CI does). ***\n\n',
  );
}

/** `atk validate` with `args`, offline, no telemetry; its exit status and output. */
function atkValidate(args: string[], cwd: string) {
  const run = spawnSync(ATK!, ['validate', ...args, '--telemetry', 'false', '--interactive', 'false'], {
    cwd,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, CI: 'true' },
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** The sample environment as NAME=value pairs. */
function sampleEnv(): Record<string, string> {
  return Object.fromEntries(
    readFileSync(SAMPLE_ENV, 'utf8')
      .split('\n')
      .filter((line) => /^\w+=/.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

/**
 * Runs the Toolkit's own aadApp/update manifest build (`buildAadManifest`, what the action does
 * before it sends the manifest to Microsoft Graph) with the CLI folder, the manifest and the output
 * path as arguments; prints the manifest and the warnings it logs as JSON, or the error and exits 1.
 */
const BUILD_AAD_MANIFEST = `
const path = require('node:path');
const { createRequire } = require('node:module');
const [cli, manifestPath, outputPath] = process.argv.slice(1);
const requireFromCli = createRequire(path.join(cli, 'package.json'));
const { buildAadManifest } = requireFromCli(
  '@microsoft/teamsfx-core/build/component/driver/aad/utility/buildAadManifest',
);
const warnings = [];
const quiet = () => undefined;
const logProvider = { warning: (m) => warnings.push(m), info: quiet, debug: quiet, verbose: quiet, error: quiet };
buildAadManifest({ projectPath: process.cwd(), logProvider }, manifestPath, outputPath, {}).then(
  (manifest) => process.stdout.write(JSON.stringify({ warnings, manifest })),
  (error) => {
    process.stderr.write(String(error.name) + ': ' + String(error.message));
    process.exitCode = 1;
  },
);
`;

if (!available && process.env.CI === 'true') {
  test('the Agents Toolkit CLI is installed in CI', () => {
    throw new Error(`STEWARD_ATK_CLI (${ATK ?? 'unset'}) does not name the atk CLI: .ci/run installs it`);
  });
}

(available ? describe : describe.skip)('Microsoft 365 Agents Toolkit checks', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'steward-atk-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('atk validate passes the manifest template filled from the sample environment', () => {
    const run = atkValidate(['--manifest-file', 'manifest/manifest.json', '--env-file', SAMPLE_ENV], ROOT);
    expect(run.output).toContain('All passed');
    expect(run.status).toBe(0);
  }, 150_000);

  test('atk validate passes the package npm run manifest builds from the same values', () => {
    const env = sampleEnv();
    const out = path.join(dir, 'steward.zip');
    const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'manifest.js'), '--out', out], {
      cwd: ROOT,
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH ?? '',
        STEWARD_BOT_ID: env.BOT_ID,
        STEWARD_TEAMS_APP_ID: env.TEAMS_APP_ID,
        STEWARD_PUBLIC_URL: env.WEBSITE_URL,
      },
    });
    expect(build.stderr).toBe('');
    expect(build.status).toBe(0);
    for (const entry of zipEntries(readFileSync(out))) writeFileSync(path.join(dir, entry.name), entry.data);
    const run = atkValidate(['--manifest-file', path.join(dir, 'manifest.json')], dir);
    expect(run.output).toContain('All passed');
    expect(run.status).toBe(0);
  }, 150_000);

  test('atk validate refuses the template when a value is missing, naming it', () => {
    const partial = path.join(dir, '.env.partial');
    writeFileSync(
      partial,
      readFileSync(SAMPLE_ENV, 'utf8')
        .split('\n')
        .filter((line) => !line.startsWith('PUBLIC_HOST='))
        .join('\n'),
    );
    const run = atkValidate(['--manifest-file', 'manifest/manifest.json', '--env-file', partial], ROOT);
    expect(run.status).not.toBe(0);
    expect(run.output).toContain('PUBLIC_HOST');
  }, 150_000);

  test('the Toolkit builds the API registration aadApp/update applies, without a warning', () => {
    // Both provisioning files apply aad.manifest.json; their YAML parser comes with the CLI.
    const cli = path.dirname(realpathSync(ATK!));
    const yaml = createRequire(path.join(cli, 'package.json'))('js-yaml') as { load(text: string): unknown };
    for (const file of ['m365agents.yml', 'm365agents.local.yml']) {
      const project = yaml.load(readFileSync(path.join(ROOT, file), 'utf8')) as {
        provision: { uses: string; with?: { manifestPath?: string } }[];
      };
      const updates = project.provision.filter((step) => step.uses === 'aadApp/update');
      expect({ file, manifests: updates.map((step) => step.with?.manifestPath) }).toEqual({
        file,
        manifests: ['./aad.manifest.json'],
      });
    }
    // The action's own first step, in a process of its own: fill the placeholders from the sample
    // environment, resolve Graph permission names, and collect the Toolkit's warnings.
    const out = path.join(dir, 'aad.manifest.sample.json');
    const run = spawnSync(process.execPath, ['-e', BUILD_AAD_MANIFEST, cli, 'aad.manifest.json', out], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 120_000,
      env: { PATH: process.env.PATH ?? '', ...sampleEnv() },
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const result = JSON.parse(run.stdout) as { warnings: string[]; manifest: Record<string, unknown> };
    expect(result.warnings).toEqual([]);
    const env = sampleEnv();
    expect(result.manifest).toMatchObject({
      id: env.SSO_APP_OBJECT_ID,
      appId: env.SSO_APP_ID,
      identifierUris: [env.SSO_RESOURCE],
      requiredResourceAccess: [{ resourceAppId: '00000003-0000-0000-c000-000000000000' }],
    });
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(result.manifest);
  }, 150_000);

  test('the Toolkit refuses the API registration when a value is missing, naming it', () => {
    const cli = path.dirname(realpathSync(ATK!));
    const env: Record<string, string> = sampleEnv();
    delete env.SSO_APP_OBJECT_ID;
    const run = spawnSync(
      process.execPath,
      ['-e', BUILD_AAD_MANIFEST, cli, 'aad.manifest.json', path.join(dir, 'aad.manifest.partial.json')],
      { cwd: ROOT, encoding: 'utf8', timeout: 120_000, env: { PATH: process.env.PATH ?? '', ...env } },
    );
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('SSO_APP_OBJECT_ID');
  }, 150_000);

  test('the m365agents*.yml files follow the Toolkit schema they declare', () => {
    // The schema and a YAML parser come with the CLI itself.
    const cli = path.dirname(realpathSync(ATK!));
    const requireFromCli = createRequire(path.join(cli, 'package.json'));
    const yaml = requireFromCli('js-yaml') as { load(text: string): unknown };
    const schema = JSON.parse(
      readFileSync(path.join(cli, 'resource', 'yaml-schema', 'v1.13', 'yaml.schema.json'), 'utf8'),
    ) as object;
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    for (const file of ['m365agents.yml', 'm365agents.local.yml', 'm365agents.playground.yml']) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      expect(text).toContain('$schema=https://aka.ms/teams-toolkit/v1.13/yaml.schema.json');
      const valid = validate(yaml.load(text));
      expect({ file, errors: validate.errors ?? [] }).toEqual({ file, errors: [] });
      expect(valid).toBe(true);
    }
  });
});
