import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { zipEntries } from './zipEntries';

/**
 * The Microsoft 365 Agents Toolkit's own checks of the Copilot agent: `atk validate` on the package
 * `npm run manifest` builds with the agent (the app manifest, the declarative agent, its plugin and
 * the language files against their schemas), with either action; and the Toolkit's OpenAPI parser,
 * with the options it uses for a declarative agent's API plugin, on the curated description. Like
 * test/manifest/toolkit, skipped without the CLI except in CI.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const ATK = process.env.STEWARD_ATK_CLI;
const available = ATK !== undefined && existsSync(ATK);
const ENV = {
  PATH: process.env.PATH ?? '',
  STEWARD_BOT_ID: '341355bf-907c-4b6e-8e8a-8d78985f8d65',
  STEWARD_PUBLIC_URL: 'https://steward.contoso.example/',
  STEWARD_API_CLIENT_ID: '341355bf-907c-4b6e-8e8a-8d78985f8d65',
  STEWARD_COPILOT_AUTH_ID: 'MmU0YjM2YjUtZDQ2Yi00ZjA2LWI3YWYtN2Q2ZGE3ZTVmNDQ5IyMxMjM0',
};

if (!available && process.env.CI !== 'true') {
  process.stderr.write(
    '\n*** test/manifest/toolkitCopilot SKIPPED: STEWARD_ATK_CLI names no atk CLI. ***\n\n',
  );
}
if (!available && process.env.CI === 'true') {
  test('the Agents Toolkit CLI is installed in CI', () => {
    throw new Error(`STEWARD_ATK_CLI (${ATK ?? 'unset'}) does not name the atk CLI: .ci/run installs it`);
  });
}

/**
 * In a process of its own (the Toolkit's modules are not Jest's to load): the OpenAPI description
 * named by the second argument through swagger-parser's validation (the OpenAPI 3.0 schema) and
 * the Toolkit's own spec parser with the options of a declarative agent's API plugin; prints the
 * outcome as JSON.
 */
const PARSE_OPENAPI = `
const path = require('node:path');
const { readFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const [cli, file] = process.argv.slice(1);
const requireFromCli = createRequire(path.join(cli, 'package.json'));
const SwaggerParser = requireFromCli('@apidevtools/swagger-parser');
const { SpecParser, ProjectType } = requireFromCli('@microsoft/m365-spec-parser');
const core = path.dirname(requireFromCli.resolve('@microsoft/teamsfx-core/package.json'));
const { getParserOptions } = requireFromCli(path.join(core, 'build', 'common', 'openApiParserOptions.js'));
const doc = JSON.parse(readFileSync(file, 'utf8'));
(async () => {
  let swagger = 'valid';
  try {
    await SwaggerParser.validate(structuredClone(doc));
  } catch (error) {
    swagger = String(error.message);
  }
  const parser = new SpecParser(structuredClone(doc), getParserOptions(ProjectType.Copilot, true));
  const { status, errors, warnings } = await parser.validate();
  const { APIs } = await parser.list();
  const apis = APIs.map(({ operationId, isValid, reason }) => ({ operationId, isValid, reason }));
  process.stdout.write(JSON.stringify({ swagger, validation: { status, errors, warnings }, apis }));
})().catch((error) => {
  process.stderr.write(String(error.stack));
  process.exitCode = 1;
});
`;

(available ? describe : describe.skip)('the Agents Toolkit on the Copilot agent', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'steward-atk-copilot-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Builds the package with `env` into a folder of its own and unzips it there. */
  function unpacked(name: string, env: Record<string, string>): string {
    const folder = path.join(dir, name);
    mkdirSync(folder);
    const out = path.join(dir, `${name}.zip`);
    const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'manifest.js'), '--out', out], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...ENV, ...env },
    });
    expect(build.stderr).toBe('');
    expect(build.status).toBe(0);
    for (const entry of zipEntries(readFileSync(out)))
      writeFileSync(path.join(folder, entry.name), entry.data);
    return folder;
  }

  function atkValidate(folder: string) {
    const run = spawnSync(
      ATK!,
      ['validate', '--manifest-file', 'manifest.json', '--telemetry', 'false', '--interactive', 'false'],
      { cwd: folder, encoding: 'utf8', timeout: 120_000, env: { ...process.env, CI: 'true' } },
    );
    return { status: run.status, output: `${run.stdout}${run.stderr}` };
  }

  test('atk validate passes the package with the agent and its API plugin', () => {
    const run = atkValidate(unpacked('api', {}));
    expect(run.output).toContain('All passed');
    expect(run.status).toBe(0);
  }, 150_000);

  test('atk validate checks the agent’s files: a broken plugin and a too long French name fail', () => {
    const folder = unpacked('broken', {});
    const plugin = JSON.parse(readFileSync(path.join(folder, 'ai-plugin.json'), 'utf8'));
    plugin.runtimes[0].type = 'Graph';
    writeFileSync(path.join(folder, 'ai-plugin.json'), JSON.stringify(plugin));
    const french = JSON.parse(readFileSync(path.join(folder, 'fr.json'), 'utf8'));
    french['name.short'] = 'Steward, l’assistant de gouvernance';
    writeFileSync(path.join(folder, 'fr.json'), JSON.stringify(french));
    const run = atkValidate(folder);
    expect(run.status).not.toBe(0);
    expect(run.output).toContain('/runtimes/0/type must be equal to one of the allowed values');
    expect(run.output).toContain('/name.short must NOT have more than 30 characters');
  }, 150_000);

  test('atk validate passes the package whose action is Steward’s MCP server', () => {
    const tools = path.join(dir, 'tools.json');
    writeFileSync(
      tools,
      JSON.stringify({
        tools: [
          {
            name: 'request_team',
            description: 'Requests a team from a template.',
            inputSchema: { type: 'object', properties: { templateId: { type: 'string' } } },
            annotations: { readOnlyHint: false },
          },
        ],
      }),
    );
    const run = atkValidate(
      unpacked('mcp', { STEWARD_COPILOT_ACTION: 'mcp', STEWARD_COPILOT_MCP_TOOLS: tools }),
    );
    expect(run.output).toContain('All passed');
    expect(run.status).toBe(0);
  }, 150_000);

  test('the Toolkit’s OpenAPI parsers take the curated description: valid 3.0.3, every function supported', () => {
    const folder = unpacked('spec', {});
    const cli = path.dirname(realpathSync(ATK!));
    const run = spawnSync(process.execPath, ['-e', PARSE_OPENAPI, cli, path.join(folder, 'openapi.json')], {
      encoding: 'utf8',
      timeout: 120_000,
      env: { PATH: process.env.PATH ?? '' },
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const result = JSON.parse(run.stdout) as {
      swagger: string;
      validation: { status: number; errors: unknown[]; warnings: unknown[] };
      apis: { operationId: string; isValid: boolean; reason: string[] }[];
    };
    expect(result.swagger).toBe('valid');
    expect(result.validation).toEqual({ status: 0, errors: [], warnings: [] });
    const functions = (
      JSON.parse(readFileSync(path.join(folder, 'ai-plugin.json'), 'utf8')) as {
        functions: { name: string }[];
      }
    ).functions.map((fn) => fn.name);
    expect(result.apis.filter((api) => !api.isValid)).toEqual([]);
    expect(result.apis.map((api) => api.operationId).sort()).toEqual(functions.sort());
    // What the conversion is for: the same parser refuses the description as OpenAPI 3.1.
    const as31 = path.join(folder, 'openapi31.json');
    writeFileSync(
      as31,
      readFileSync(path.join(folder, 'openapi.json'), 'utf8').replace('"3.0.3"', '"3.1.0"'),
    );
    const refused = spawnSync(process.execPath, ['-e', PARSE_OPENAPI, cli, as31], {
      encoding: 'utf8',
      timeout: 120_000,
      env: { PATH: process.env.PATH ?? '' },
    });
    expect(JSON.parse(refused.stdout).validation).toMatchObject({
      status: 2,
      errors: [{ type: 'spec-version-not-supported' }],
    });
  }, 150_000);
});
