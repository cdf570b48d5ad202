import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { zipEntries } from './zipEntries';

const ROOT = path.resolve(__dirname, '..', '..');
const SCRIPT = path.join(ROOT, 'scripts', 'manifest.js');
const ENV = {
  PATH: process.env.PATH ?? '',
  STEWARD_BOT_ID: '341355bf-907c-4b6e-8e8a-8d78985f8d65',
  STEWARD_PUBLIC_URL: 'https://steward.contoso.example/',
  STEWARD_TERMS_URL: 'https://steward.contoso.example/terms',
};
const AUTH_ID = 'MmU0YjM2YjUtZDQ2Yi00ZjA2LWI3YWYtN2Q2ZGE3ZTVmNDQ5IyMxMjM0';

interface Manifest {
  copilotAgents?: { declarativeAgents: { id: string; file: string }[] };
  localizationInfo?: {
    defaultLanguageTag: string;
    defaultLanguageFile: string;
    additionalLanguages: { languageTag: string; file: string }[];
  };
  name: { short: string; full: string };
  description: { short: string; full: string };
}
interface Plugin {
  functions: { name: string; capabilities?: { confirmation?: unknown } }[];
  legal_info_url: string;
  runtimes: {
    type: string;
    auth: { type: string; reference_id: string };
    spec: { url: string; mcp_tool_description?: { tools: { name: string }[] } };
    run_for_functions: string[];
  }[];
}

/** A tools/list answer as the MCP specification words it: tools with name, description, inputSchema, annotations. */
const TOOLS_LIST = {
  jsonrpc: '2.0',
  id: 1,
  result: {
    tools: [
      {
        name: 'list_my_templates',
        description: 'The templates the caller may request a team from.',
        inputSchema: { type: 'object', properties: {} },
        annotations: { readOnlyHint: true },
      },
      {
        name: 'request_team',
        description: 'Requests a team from a template.',
        inputSchema: {
          type: 'object',
          properties: { templateId: { type: 'string' } },
          required: ['templateId'],
        },
        annotations: { readOnlyHint: false, destructiveHint: false },
      },
      {
        name: 'decide_approval',
        description: 'Approves or rejects a team request.',
        inputSchema: { type: 'object', properties: {} },
      },
    ],
  },
};

describe('the Copilot agent in the Teams app package', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'steward-copilot-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function build(env: Record<string, string>) {
    const out = path.join(dir, 'steward.zip');
    rmSync(out, { force: true });
    const run = spawnSync(process.execPath, [SCRIPT, '--out', out], { cwd: dir, env, encoding: 'utf8' });
    const entries = run.status === 0 ? zipEntries(readFileSync(out)) : [];
    const file = <T>(name: string) =>
      JSON.parse(entries.find((entry) => entry.name === name)!.data.toString('utf8')) as T;
    return { ...run, names: entries.map((entry) => entry.name), file };
  }

  it('holds the agent, its API plugin, the OpenAPI 3.0.3 description and both languages', () => {
    const run = build({ ...ENV, STEWARD_COPILOT_AUTH_ID: AUTH_ID });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('With the Copilot agent (its action: the API plugin).');
    expect(run.names).toEqual([
      'manifest.json',
      'color.png',
      'outline.png',
      'declarativeAgent.json',
      'ai-plugin.json',
      'openapi.json',
      'en.json',
      'fr.json',
    ]);
    const manifest = run.file<Manifest>('manifest.json');
    expect(manifest.copilotAgents).toEqual({
      declarativeAgents: [{ id: 'steward', file: 'declarativeAgent.json' }],
    });
    expect(manifest.localizationInfo).toEqual({
      defaultLanguageTag: 'en',
      defaultLanguageFile: 'en.json',
      additionalLanguages: [{ languageTag: 'fr', file: 'fr.json' }],
    });
    // The default language's file repeats the manifest's own strings.
    const en = run.file<Record<string, string>>('en.json');
    expect([en['name.short'], en['name.full'], en['description.short'], en['description.full']]).toEqual([
      manifest.name.short,
      manifest.name.full,
      manifest.description.short,
      manifest.description.full,
    ]);
    expect(run.file<{ actions: unknown }>('declarativeAgent.json').actions).toEqual([
      { id: 'steward', file: 'ai-plugin.json' },
    ]);
    const plugin = run.file<Plugin>('ai-plugin.json');
    expect(plugin.runtimes[0]!.auth).toEqual({ type: 'OAuthPluginVault', reference_id: AUTH_ID });
    expect(plugin.legal_info_url).toBe('https://steward.contoso.example/terms');
    const openApi = run.file<{ openapi: string; servers: unknown; info: { version: string } }>(
      'openapi.json',
    );
    expect(openApi.openapi).toBe('3.0.3');
    expect(openApi.servers).toEqual([{ url: 'https://steward.contoso.example/api/v1.0' }]);
    expect(openApi.info.version).toBe(
      JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version,
    );
    for (const name of run.names.filter((name) => name.endsWith('.json'))) {
      expect({ name, placeholder: JSON.stringify(run.file(name)).includes('${{') }).toEqual({
        name,
        placeholder: false,
      });
    }
  });

  it('leaves the agent out when its sign-in registration is not set, and says so', () => {
    const run = build(ENV);
    expect(run.status).toBe(0);
    expect(run.names).toEqual(['manifest.json', 'color.png', 'outline.png']);
    expect(run.file<Manifest>('manifest.json').copilotAgents).toBeUndefined();
    expect(run.stdout).toContain('No Copilot agent in the package: set STEWARD_COPILOT_AUTH_ID');
  });

  it('refuses a registration ID that is not one, and an unknown action', () => {
    const badId = build({ ...ENV, STEWARD_COPILOT_AUTH_ID: 'two words' });
    expect(badId.status).toBe(1);
    expect(badId.stderr).toContain('STEWARD_COPILOT_AUTH_ID "two words" is not a registration ID.');
    const badAction = build({ ...ENV, STEWARD_COPILOT_AUTH_ID: AUTH_ID, STEWARD_COPILOT_ACTION: 'graph' });
    expect(badAction.status).toBe(1);
    expect(badAction.stderr).toContain('STEWARD_COPILOT_ACTION "graph" is neither api nor mcp.');
  });

  it('makes Steward’s MCP server the action, its tools inline, a confirmation on each that may change something', () => {
    const tools = path.join(dir, 'tools.json');
    writeFileSync(tools, JSON.stringify(TOOLS_LIST));
    const run = build({
      ...ENV,
      STEWARD_COPILOT_AUTH_ID: AUTH_ID,
      STEWARD_COPILOT_ACTION: 'mcp',
      STEWARD_COPILOT_MCP_TOOLS: tools,
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.names).toEqual([
      'manifest.json',
      'color.png',
      'outline.png',
      'declarativeAgent.json',
      'mcp-plugin.json',
      'en.json',
      'fr.json',
    ]);
    expect(run.file<{ actions: unknown }>('declarativeAgent.json').actions).toEqual([
      { id: 'steward', file: 'mcp-plugin.json' },
    ]);
    const plugin = run.file<Plugin>('mcp-plugin.json');
    const runtime = plugin.runtimes[0]!;
    expect(runtime.type).toBe('RemoteMCPServer');
    expect(runtime.spec.url).toBe('https://steward.contoso.example/api/v1.0/mcp');
    expect(runtime.spec.mcp_tool_description!.tools.map((tool) => tool.name)).toEqual([
      'list_my_templates',
      'request_team',
      'decide_approval',
    ]);
    expect(runtime.run_for_functions).toEqual(['list_my_templates', 'request_team', 'decide_approval']);
    expect(plugin.functions.map((fn) => [fn.name, fn.capabilities?.confirmation !== undefined])).toEqual([
      ['list_my_templates', false],
      ['request_team', true],
      ['decide_approval', true],
    ]);
  });

  it('refuses the MCP action without a tools/list answer, or with a tool no function can be named after', () => {
    const missing = build({
      ...ENV,
      STEWARD_COPILOT_AUTH_ID: AUTH_ID,
      STEWARD_COPILOT_ACTION: 'mcp',
      STEWARD_COPILOT_MCP_TOOLS: path.join(dir, 'absent.json'),
    });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain("STEWARD_COPILOT_ACTION=mcp needs the MCP server's tools/list answer");
    const tools = path.join(dir, 'dotted.json');
    writeFileSync(
      tools,
      JSON.stringify({
        tools: [{ name: 'teams.request', description: 'x', inputSchema: { type: 'object' } }],
      }),
    );
    const dotted = build({
      ...ENV,
      STEWARD_COPILOT_AUTH_ID: AUTH_ID,
      STEWARD_COPILOT_ACTION: 'mcp',
      STEWARD_COPILOT_MCP_TOOLS: tools,
    });
    expect(dotted.status).toBe(1);
    expect(dotted.stderr).toContain('the tool name "teams.request" is not a plugin function name.');
  });
});

describe('the schemas the package build checks the agent against', () => {
  // scripts/manifest.js is CommonJS without types: loaded as such, and typed here.
  const build = createRequire(__filename)(SCRIPT) as {
    schemaProblems(document: unknown, schema: string): string[];
    COPILOT_SCHEMAS: Record<string, string | undefined>;
  };
  const agent = () =>
    JSON.parse(
      readFileSync(path.join(ROOT, 'manifest', 'copilot', 'declarativeAgent.json'), 'utf8'),
    ) as Record<string, unknown>;

  it('takes the agent as it is written, and refuses a localized instruction or a thirteenth starter', () => {
    const schema = build.COPILOT_SCHEMAS['declarativeAgent.json']!;
    expect(schema).toContain('declarative-agent/v1.8/');
    expect(build.schemaProblems(agent(), schema)).toEqual([]);
    expect(build.schemaProblems({ ...agent(), instructions: '[[agent_instructions]]' }, schema)).toEqual([
      '/instructions must match pattern "^(?!\\[\\[)((.|\\n|\\r)*?)(?<!\\]\\])$"',
    ]);
    const starters = Array.from({ length: 13 }, (_, i) => ({ text: `Starter ${i}` }));
    expect(build.schemaProblems({ ...agent(), conversation_starters: starters }, schema)).toEqual([
      '/conversation_starters must NOT have more than 12 items',
    ]);
  });

  it('refuses a French name longer than Teams shows', () => {
    const schema = build.COPILOT_SCHEMAS['fr.json']!;
    const french = JSON.parse(
      readFileSync(path.join(ROOT, 'manifest', 'copilot', 'fr.json'), 'utf8'),
    ) as object;
    expect(build.schemaProblems(french, schema)).toEqual([]);
    expect(
      build.schemaProblems({ ...french, 'name.short': 'Steward, l’assistant de gouvernance' }, schema),
    ).toEqual(['/name.short must NOT have more than 30 characters']);
  });
});
