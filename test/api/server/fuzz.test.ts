import { sql } from 'kysely';
import { request } from 'undici';
import { databaseKinds } from '../../support/databases';
import { suiteSteward } from '../../support/steward';

/**
 * Schema-driven fuzzing of every operation of the served OpenAPI document: malformed JSON, wrong
 * types, control characters, deep nesting and oversize values in bodies, path and query parameters.
 * Seeded (STEWARD_FUZZ_SEED) and bounded (CASES_PER_OPERATION), so a failure replays exactly.
 * Every answer must be below 500, and a refused request (4xx) must leave the store as it was.
 */
const SEED = Number(process.env.STEWARD_FUZZ_SEED ?? 0x5eed);
const CASES_PER_OPERATION = 14;

type Schema = Record<string, unknown> & {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};
interface Operation {
  operationId: string;
  parameters?: { name: string; in: 'path' | 'query' | 'header'; schema?: Schema }[];
  requestBody?: { content: { 'application/json': { schema: Schema } } };
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

/** mulberry32: a small, good-enough seeded generator. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HOSTILE_STRINGS = [
  'nul\u0000byte',
  'esc\u001b[2J',
  'x'.repeat(20_000),
  '',
  '../../etc/passwd',
  '<svg/onload=alert(1)>',
  '__proto__',
  '\ud800',
  '%00',
];
const WRONG_TYPES: unknown[] = [null, 0, -1, 1e308, true, [], {}, 'string', [[[]]]];

const DEEP = '\u0000deep-placeholder';

const deep = (levels: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
};

class Fuzzer {
  constructor(
    private readonly doc: Document,
    readonly random: () => number,
  ) {}

  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.random() * list.length)] as T;
  }

  resolve(schema: Schema | undefined): Schema {
    let current = schema ?? {};
    for (let i = 0; i < 10 && current.$ref; i++) {
      current = this.doc.components.schemas[current.$ref.split('/').pop() as string] ?? {};
    }
    return current;
  }

  /** A plausible value for `schema` (no attempt at full validity: the point is to get past the first check). */
  sample(schema: Schema | undefined, depth = 0): unknown {
    const s = this.resolve(schema);
    if (s.enum) return this.pick(s.enum);
    const alternatives = s.anyOf ?? s.oneOf;
    if (alternatives) return this.sample(this.pick(alternatives), depth);
    if (s.allOf) return Object.assign({}, ...s.allOf.map((p) => this.sample(p, depth) as object));
    const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
    if (depth > 4) return null;
    switch (type) {
      case 'object':
        return Object.fromEntries(
          Object.entries(s.properties ?? {}).map(([key, value]) => [key, this.sample(value, depth + 1)]),
        );
      case 'array':
        return [this.sample(s.items, depth + 1)];
      case 'integer':
      case 'number':
        return 1;
      case 'boolean':
        return true;
      case 'string':
        return s.format === 'email' ? 'alexw@example.com' : 'fuzz';
      default:
        return {};
    }
  }

  /** One hostile body: raw text to send. */
  body(schema: Schema): string {
    const valid = this.sample(schema);
    const kind = this.pick(['text', 'type', 'field', 'field', 'field', 'deep', 'extra', 'huge'] as const);
    switch (kind) {
      case 'text':
        return this.pick(['{', '{"a":}', '[1,2', 'nul\u0000', '"unterminated', '{"a":1}garbage', '\u0000']);
      case 'type':
        return JSON.stringify(this.pick(WRONG_TYPES));
      case 'deep': {
        // Deep nesting in place of one field (where walkers recurse), or as the whole body.
        const levels = this.pick([70, 300, 5_000]);
        const nested = `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
        if (this.random() < 0.25) return nested;
        return JSON.stringify(this.mutateField(valid, DEEP)).replace(JSON.stringify(DEEP), nested);
      }
      case 'huge':
        return JSON.stringify({ ...(valid as object), padding: 'y'.repeat(1_100_000) });
      case 'extra':
        return JSON.stringify({
          ...(valid as object),
          ['unknown\u0001key']: 1,
          constructor: { prototype: 1 },
        });
      case 'field':
        return JSON.stringify(this.mutateField(valid));
    }
  }

  /** `value` with one field, at any depth, replaced by a wrong type, a hostile string or deep nesting. */
  private mutateField(value: unknown, replacement?: unknown): unknown {
    const next = () => replacement ?? this.hostileValue();
    if (!value || typeof value !== 'object') return next();
    const copy: Record<string, unknown> = Array.isArray(value) ? { ...value } : { ...(value as object) };
    const keys = Object.keys(copy);
    if (keys.length === 0) return { field: next() };
    const key = this.pick(keys);
    copy[key] = this.random() < 0.5 ? next() : this.mutateField(copy[key], replacement);
    return Array.isArray(value) ? Object.values(copy) : copy;
  }

  private hostileValue(): unknown {
    return this.random() < 0.6
      ? this.pick(HOSTILE_STRINGS)
      : this.random() < 0.8
        ? this.pick(WRONG_TYPES)
        : deep(40);
  }

  parameter(): string {
    return encodeURIComponent(
      this.pick([...HOSTILE_STRINGS.slice(0, 2), 'x'.repeat(3_000), '0', '-1', 'fuzz', ' ']),
    );
  }
}

describe.each(databaseKinds)('fuzzing every operation of the OpenAPI document on %s', (kind) => {
  let doc: Document;

  const suite = suiteSteward(kind, {
    env: { STEWARD_WORKER_CONCURRENCY: '0' },
  });
  beforeAll(async () => {
    doc = (await suite.app.call<Document>('GET', '/api/v1.0/openapi.json')).body;
  });

  /** Row counts of everything a request could write (the security trail records refusals by design). */
  const footprint = async (): Promise<string> => {
    const tables = [
      'catalog_templates',
      'jobs',
      'approvals',
      'team_metadata',
      'outbox_events',
      'hooks',
      'hook_deliveries',
      'platform_teams',
      'platform_channels',
      'platform_tabs',
      'platform_members',
      'directory_users',
      'directory_labels',
    ];
    const counts = sql<{ n: number | string }>`${sql.join(
      tables.map((t) => sql`select count(*) as n from ${sql.table(t)}`),
      sql` union all `,
    )} union all select count(*) as n from audit_records where trail <> 'security'`;
    const rows = await counts.execute(suite.app.steward.store.db);
    return rows.rows.map((r) => String(r.n)).join(',');
  };

  test('no operation answers 5xx, and no refused request writes anything', async () => {
    const fuzzer = new Fuzzer(doc, generator(SEED));
    const failures: string[] = [];
    let sent = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const schema = operation.requestBody?.content['application/json']?.schema;
        for (let i = 0; i < CASES_PER_OPERATION; i++) {
          const url = `/api/v1.0${path.replace(/\{[^}]+\}/g, () => (fuzzer.random() < 0.5 ? 'fuzz' : fuzzer.parameter()))}`;
          const query = (operation.parameters ?? [])
            .filter((p) => p.in === 'query' && fuzzer.random() < 0.5)
            .map((p) => `${p.name}=${fuzzer.parameter()}`)
            .join('&');
          const body = schema ? fuzzer.body(schema) : undefined;
          const before = await footprint();
          const res = await request(`${suite.app.url}${url}${query ? `?${query}` : ''}`, {
            method: method.toUpperCase() as 'POST',
            headers: { authorization: `Bearer ${suite.megan}`, 'content-type': 'application/json' },
            body,
          });
          const text = await res.body.text();
          sent++;
          const label = `${operation.operationId} #${i} (seed ${SEED}) → ${res.statusCode}`;
          if (res.statusCode >= 500) failures.push(`${label}: ${text.slice(0, 200)}`);
          else if (res.statusCode >= 400 && res.statusCode !== 429 && (await footprint()) !== before) {
            failures.push(`${label}: refused, but the store changed`);
          }
        }
      }
    }
    expect(sent).toBeGreaterThan(100);
    expect(failures).toEqual([]);
  }, 240_000);
});
