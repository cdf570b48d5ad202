import { readFileSync } from 'node:fs';
import path from 'node:path';
import { COPILOT_OPERATIONS } from '../../../src/api/copilot/operations';
import type { OpenApi31 } from '../../../src/api/copilot/openApi30';
import { confirmationKeys, copilotActionFiles } from '../../../src/api/copilot/plugin';
import { generatedFiles } from '../../../src/cli/copilot';
import { suiteSteward } from '../../support/steward';

const DIR = path.join(__dirname, '..', '..', '..', 'manifest', 'copilot');
const committed = (name: string) => readFileSync(path.join(DIR, name), 'utf8');
const json = <T>(name: string) => JSON.parse(committed(name)) as T;

interface Operation {
  operationId: string;
  'x-oai-isConsequential'?: boolean;
}
interface Document30 {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
}
interface PluginFunction {
  name: string;
  capabilities: { confirmation?: { type: string; title: string; body: string } };
}
interface Plugin {
  functions: PluginFunction[];
  runtimes: { type: string; spec: { url: string }; run_for_functions: string[] }[];
}

/** Every value of `key` anywhere in `value`. */
function valuesOf(value: unknown, key: string, found: unknown[] = []): unknown[] {
  if (Array.isArray(value)) for (const item of value) valuesOf(item, key, found);
  else if (typeof value === 'object' && value !== null)
    for (const [name, inner] of Object.entries(value)) {
      if (name === key) found.push(inner);
      valuesOf(inner, key, found);
    }
  return found;
}

/**
 * The Copilot agent's action is generated from the API's contract: the committed files equal a
 * fresh generation from the document Steward serves, so they cannot drift from it.
 */
describe('the Copilot agent’s action', () => {
  const suite = suiteSteward('sqlite');
  let served: OpenApi31;

  beforeAll(async () => {
    served = (await suite.app.call<OpenApi31>('GET', '/api/v1.0/openapi.json')).body;
  });

  test('the committed files equal their generation from the served document (npm run copilot)', () => {
    const files = copilotActionFiles(served);
    expect(Object.keys(files).sort()).toEqual(['ai-plugin.json', 'mcp-plugin.json', 'openapi.json']);
    for (const [name, document] of Object.entries(files)) {
      expect({ name, text: committed(name) }).toEqual({
        name,
        text: `${JSON.stringify(document, null, 2)}\n`,
      });
    }
  });

  test('npm run copilot generates the same files from the route table', () => {
    for (const [name, text] of Object.entries(generatedFiles())) {
      expect({ name, text: committed(name) }).toEqual({ name, text });
    }
  });

  test('the OpenAPI description is 3.0.3 throughout: no 2020-12 keyword, every reference resolved', () => {
    const doc = json<Document30>('openapi.json');
    expect(doc.openapi).toBe('3.0.3');
    const text = committed('openapi.json');
    for (const keyword of [
      '"const"',
      '"examples"',
      '"$defs"',
      '"jsonSchemaDialect"',
      '"webhooks"',
      '"propertyNames"',
    ])
      expect({ keyword, found: text.includes(keyword) }).toEqual({ keyword, found: false });
    // A schema's `type` is one name in 3.0 (a property may be called `type`: its value is a schema).
    expect(valuesOf(doc, 'type').filter((type) => Array.isArray(type))).toEqual([]);
    expect(valuesOf(doc, 'nullable').length).toBeGreaterThan(5);
    for (const bound of [...valuesOf(doc, 'exclusiveMinimum'), ...valuesOf(doc, 'exclusiveMaximum')])
      expect(typeof bound).toBe('boolean');
    const refs = valuesOf(doc, '$ref') as string[];
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(doc.components.schemas[ref.slice('#/components/schemas/'.length)]).toBeDefined();
    }
  });

  test('every plugin function is an operation of the description, and every write has a confirmation', () => {
    const doc = json<Document30>('openapi.json');
    const plugin = json<Plugin>('ai-plugin.json');
    const operations = new Map(
      Object.values(doc.paths).flatMap((methods) =>
        Object.entries(methods).map(([method, op]) => [op.operationId, { method, op }] as const),
      ),
    );
    const names = plugin.functions.map((fn) => fn.name);
    expect(names.sort()).toEqual([...operations.keys()].sort());
    expect(plugin.runtimes).toHaveLength(1);
    expect(plugin.runtimes[0]!.type).toBe('OpenApi');
    expect(plugin.runtimes[0]!.spec.url).toBe('openapi.json');
    expect([...plugin.runtimes[0]!.run_for_functions].sort()).toEqual(names.sort());
    const writes: string[] = COPILOT_OPERATIONS.filter((op) => op.writes).map((op) => op.operationId);
    expect(writes.length).toBeGreaterThanOrEqual(6);
    for (const fn of plugin.functions) {
      const { method, op } = operations.get(fn.name)!;
      // Copilot asks before any call that is not a GET, unless it is marked non-consequential.
      const consequential = method !== 'get' && op['x-oai-isConsequential'] !== false;
      expect({ fn: fn.name, consequential }).toEqual({
        fn: fn.name,
        consequential: writes.includes(fn.name),
      });
      const keys = confirmationKeys(fn.name);
      expect({ fn: fn.name, confirmation: fn.capabilities.confirmation }).toEqual({
        fn: fn.name,
        confirmation: consequential
          ? { type: 'AdaptiveCard', title: `[[${keys.title}]]`, body: `[[${keys.body}]]` }
          : undefined,
      });
    }
  });

  test('the writes are the served document’s POST operations, the reads its GETs and the preview', () => {
    for (const op of COPILOT_OPERATIONS) {
      const method = Object.values(served.paths)
        .flatMap((methods) => Object.entries(methods))
        .find(([, inner]) => inner.operationId === op.operationId)?.[0];
      const expected = op.writes ? 'post' : op.operationId === 'previewTeamProvisioning' ? 'post' : 'get';
      expect({ op: op.operationId, method }).toEqual({ op: op.operationId, method: expected });
    }
  });

  test('every string the agent and its plugins use has an English and a French value', () => {
    const used = new Set(
      ['declarativeAgent.json', 'ai-plugin.json', 'mcp-plugin.json'].flatMap((name) =>
        [...committed(name).matchAll(/"\[\[(\w+)\]\]"/g)].map((match) => match[1]!),
      ),
    );
    used.add('confirm_mcp_tool_title').add('confirm_mcp_tool_body');
    expect(used.size).toBeGreaterThan(20);
    for (const language of ['en.json', 'fr.json']) {
      const keys = Object.keys(json<{ localizationKeys: Record<string, string> }>(language).localizationKeys);
      expect({ language, missing: [...used].filter((key) => !keys.includes(key)) }).toEqual({
        language,
        missing: [],
      });
      expect({ language, unused: keys.filter((key) => !used.has(key)) }).toEqual({ language, unused: [] });
    }
  });
});
