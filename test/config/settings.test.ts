import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config';
import { ClusterOptionsError, parseClusterOptions } from '../../src/config/cluster';
import { type Setting, SETTINGS } from '../../src/config/settings';
import {
  REFERENCE_END,
  REFERENCE_FILE,
  REFERENCE_START,
  renderEnvExample,
  renderReference,
} from '../../src/config/settingsReference';
import { DEMO_CHOICES } from '../support/demoChoices';

/**
 * One description of every setting (`src/config/settings.ts`): `.env.example`, the configuration
 * reference and the parsers of `src/config` must all agree with it. Each failure lists what
 * disagrees; `npm run settings` rewrites the two files.
 */

const ROOT = path.resolve(__dirname, '..', '..');
const SECRET = 'a-secret-that-is-long-enough-for-hs256-0123456789';
const GUID = '11111111-2222-3333-4444-555555555555';
const DESCRIBED = SETTINGS as Record<string, Setting>;
const NAMES = Object.keys(DESCRIBED);

/** Configurations that load without error and, between them, make the readers read every setting. */
const BASES: Record<string, Record<string, string>> = {
  embedded: { STEWARD_AUTH_SECRET: SECRET },
  graph: {
    ...DEMO_CHOICES,
    STEWARD_AUTH_SECRET: SECRET,
    STEWARD_PLATFORM: 'graph',
    STEWARD_GRAPH_TENANT_ID: GUID,
    STEWARD_GRAPH_CLIENT_ID: GUID,
    STEWARD_GRAPH_CLIENT_SECRET: 'a-graph-client-secret',
  },
  entra: {
    ...DEMO_CHOICES,
    STEWARD_AUTH_SECRET: SECRET,
    STEWARD_AUTH_MODE: 'entra',
    STEWARD_AUTH_JWKS_URI: 'https://login.example.test/keys',
    STEWARD_AUTH_ISSUER: 'https://login.example.test/tenant/v2.0',
    STEWARD_AUTH_AUDIENCE: 'api://steward-test',
  },
  postgres: {
    STEWARD_AUTH_SECRET: SECRET,
    STEWARD_DATABASE_URL: 'postgres://steward@127.0.0.1:5432/steward',
  },
  metabase: {
    STEWARD_AUTH_SECRET: SECRET,
    METABASE_SITE_URL: 'http://127.0.0.1:3000',
    METABASE_SECRET_KEY: 'k'.repeat(64),
  },
};

type Env = Readonly<Record<string, string | undefined>>;

/** A reader of the environment: `loadConfig` in one base configuration, or the cluster launcher's options. */
interface Reader {
  what: string;
  /** Reads the whole environment `env`. */
  load(env: Env): unknown;
  /**
   * The setting that puts its base beyond the embedded default, where the demo's other defaults
   * must be chosen explicitly.
   */
  beyondDemoBy?: string;
  /** Reads the base configuration with `extra` over it. */
  run(extra: Env): unknown;
  /** The message of the error that names `name`, if `run(extra)` throws one. */
  refusal(extra: Env, name: string): string | undefined;
}

describe('the settings: one description, and everything derived from it agrees', () => {
  let cwd: string;
  beforeAll(() => {
    cwd = mkdtempSync(path.join(os.tmpdir(), 'steward-settings-'));
  });
  afterAll(() => rmSync(cwd, { recursive: true, force: true }));

  const configReader = (base: string): Reader => ({
    what: `loadConfig (${base})`,
    beyondDemoBy: { graph: 'STEWARD_PLATFORM', entra: 'STEWARD_AUTH_MODE' }[base],
    load: (env) => loadConfig(env, cwd),
    run: (extra) => loadConfig({ ...BASES[base], ...extra }, cwd),
    refusal(env, name) {
      try {
        this.run(env);
      } catch (error) {
        if (error instanceof ConfigError && error.variable === name) return error.message;
        if (!(error instanceof ConfigError)) throw error;
      }
      return undefined;
    },
  });
  const clusterReader: Reader = {
    what: 'the cluster launcher',
    load: (env) => parseClusterOptions([], env),
    run: (extra) => parseClusterOptions([], extra),
    refusal(env, name) {
      try {
        this.run(env);
      } catch (error) {
        if (error instanceof ClusterOptionsError && error.message.includes(`(${name})`)) return error.message;
        if (!(error instanceof ClusterOptionsError)) throw error;
      }
      return undefined;
    },
  };

  /** For each reader, the names it reads from its base configuration. */
  const readers = (): Array<{ reader: Reader; names: Set<string> }> =>
    [
      ...Object.keys(BASES).map((base) => ({ reader: configReader(base), base: BASES[base]! })),
      { reader: clusterReader, base: {} },
    ].map(({ reader, base }) => {
      const names = new Set<string>();
      reader.load(
        new Proxy(
          { ...base },
          {
            get(target, key) {
              if (typeof key === 'string') names.add(key);
              return Reflect.get(target, key) as unknown;
            },
          },
        ),
      );
      return { reader, names };
    });

  test('.env.example is written from the description', () => {
    expect(readFileSync(path.join(ROOT, '.env.example'), 'utf8')).toBe(renderEnvExample());
  });

  test('the configuration reference (docs/reference/configuration.md) is written from the description', () => {
    expect(REFERENCE_FILE).toBe('docs/reference/configuration.md');
    const page = readFileSync(path.join(ROOT, REFERENCE_FILE), 'utf8');
    const start = page.indexOf(REFERENCE_START);
    const end = page.indexOf(REFERENCE_END);
    expect(start).toBeGreaterThan(0);
    expect(end).toBeGreaterThan(start);
    expect(page.slice(start, end + REFERENCE_END.length)).toBe(renderReference());
  });

  test('every name the readers read is described, and every described name is read by one of them', () => {
    const read = new Set(readers().flatMap(({ names }) => [...names]));
    expect({
      readButNotDescribed: [...read].filter((name) => !(name in DESCRIBED)).sort(),
      describedButReadByNoReader: NAMES.filter((name) => !read.has(name)),
    }).toEqual({ readButNotDescribed: [], describedButReadByNoReader: [] });
  });

  test('every setting name written in the source is described', () => {
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir)) {
        const file = path.join(dir, entry);
        if (statSync(file).isDirectory()) walk(file);
        else if (file.endsWith('.ts')) files.push(file);
      }
    };
    walk(path.join(ROOT, 'src'));
    const literal =
      /(['"`])((?:STEWARD|METABASE)_[A-Z0-9_]*[A-Z0-9]|MicrosoftApp[A-Za-z]+)\1|\benv\.((?:STEWARD|METABASE)_[A-Z0-9_]*[A-Z0-9])/g;
    // The inputs of `steward-mcp`, a client of Steward's (its stdio bridge), not settings of a Steward process.
    const bridge = new Map([['src/config/processEnv.ts', new Set(['STEWARD_URL', 'STEWARD_TOKEN'])]]);
    const undescribed = new Set<string>();
    for (const file of files) {
      const relative = path.relative(ROOT, file);
      for (const match of readFileSync(file, 'utf8').matchAll(literal)) {
        const name = match[2] ?? match[3]!;
        if (bridge.get(relative)?.has(name)) continue;
        if (!(name in DESCRIBED)) undescribed.add(`${relative}: ${name}`);
      }
    }
    expect([...undescribed]).toEqual([]);
  });

  test('each description is whole: one line of help, a default within its bounds or choices', () => {
    const problems: string[] = [];
    for (const [name, described] of Object.entries(DESCRIBED)) {
      if (!described.help || /\n/.test(described.help)) problems.push(`${name}: help must be one line`);
      if (described.type === 'integer') {
        const { min, max, atLeast } = described;
        if (described.default !== undefined && !(described.default >= min && described.default <= max))
          problems.push(`${name}: default ${described.default} outside ${min}–${max}`);
        if (atLeast !== undefined && DESCRIBED[atLeast]?.type !== 'integer')
          problems.push(`${name}: atLeast names ${atLeast}, not a whole-number setting`);
      }
      if (described.type === 'choice' && described.default !== undefined)
        if (!described.choices.includes(described.default))
          problems.push(`${name}: default ${described.default} is not one of its choices`);
    }
    expect(problems).toEqual([]);
  });

  test('the parsers take their defaults, bounds and choices from the description', () => {
    const all = readers();
    const problems: string[] = [];
    const accepts = (reader: Reader, name: string, value: string) => {
      const refused = reader.refusal({ [name]: value }, name);
      if (refused !== undefined) problems.push(`${reader.what}: ${name}=${value} refused (${refused})`);
    };
    const refuses = (reader: Reader, name: string, value: string, expected: string) => {
      const refused = reader.refusal({ [name]: value }, name);
      if (refused === undefined) problems.push(`${reader.what}: ${name}=${value} accepted`);
      else if (!refused.includes(expected))
        problems.push(`${reader.what}: ${name}=${value} refused with "${refused}", not "${expected}"`);
    };
    for (const [name, described] of Object.entries(DESCRIBED)) {
      for (const { reader } of all.filter((each) => each.names.has(name))) {
        const demoChoice = name in DEMO_CHOICES && reader.beyondDemoBy && reader.beyondDemoBy !== name;
        if (described.default !== undefined && demoChoice) {
          // Beyond the embedded default, a demo default is never taken: unset is refused.
          if (reader.refusal({ [name]: undefined }, name) === undefined)
            problems.push(`${reader.what}: ${name} unset is accepted beyond the embedded default`);
        } else if (described.default !== undefined) {
          const unset = reader.run({ [name]: undefined });
          const set = reader.run({ [name]: String(described.default) });
          try {
            expect(set).toEqual(unset);
          } catch {
            problems.push(`${reader.what}: ${name} unset differs from ${name}=${String(described.default)}`);
          }
        }
        switch (described.type) {
          case 'integer': {
            const floor =
              described.atLeast === undefined
                ? described.min
                : Math.max(described.min, DESCRIBED[described.atLeast]!.default as number);
            accepts(reader, name, String(floor));
            accepts(reader, name, String(described.max));
            const bounds = `expected a whole number from ${floor} to ${described.max}`;
            refuses(reader, name, String(described.max + 1), bounds);
            if (floor > 0) refuses(reader, name, String(floor - 1), bounds);
            refuses(reader, name, 'many', bounds);
            break;
          }
          case 'number':
            accepts(reader, name, '0.5');
            accepts(reader, name, '1000');
            refuses(reader, name, '0', 'expected a positive number');
            refuses(reader, name, 'fast', 'expected a positive number');
            break;
          case 'share':
            accepts(reader, name, '0.5');
            accepts(reader, name, '1');
            refuses(reader, name, '0', 'expected a positive number');
            refuses(reader, name, '1.5', 'expected a share from 0 to 1');
            break;
          case 'boolean':
            accepts(reader, name, 'true');
            accepts(reader, name, 'false');
            refuses(reader, name, 'maybe', 'expected true or false');
            break;
          case 'choice':
            for (const choice of described.choices) accepts(reader, name, choice);
            refuses(reader, name, 'none-of-these', `expected one of ${described.choices.join(', ')},`);
            break;
          case 'url':
            accepts(reader, name, 'https://steward.example.test/path');
            refuses(reader, name, 'not a url', 'expected a URL');
            break;
          case 'text':
            break;
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
