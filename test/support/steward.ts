import pino from 'pino';
import { request } from 'undici';
import { type Steward, type StewardOverrides, startSteward } from '../../src/main';
import { loadConfig } from '../../src/config';
import type { AppRole } from '../../src/contract/roles';
import { EmbeddedTokenIssuer } from '../../src/services/access/tokens';
import { ContractValidator } from './contract';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from './databases';
import { DEMO_CHOICES } from './demoChoices';

export const TEST_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
export const TENANT = '00000000-0000-0000-0000-000000000001';

/** The people of the seeded directory that tests act as. */
export const PEOPLE = {
  alex: '00000000-0000-0000-0000-000000000020', // plain user, Marketing, US
  megan: '00000000-0000-0000-0000-000000000021', // GLOBAL_ADMIN
  adele: '00000000-0000-0000-0000-000000000022', // approver
  isaiah: '00000000-0000-0000-0000-000000000023',
  patti: '00000000-0000-0000-0000-000000000024', // CATALOG_MANAGER
  lynne: '00000000-0000-0000-0000-000000000025', // GOVERNANCE_MANAGER
} as const;

/** A response as tests see it. */
export interface TestResponse<T = unknown> {
  status: number;
  headers: Record<string, string>;
  body: T;
  text: string;
}

export interface CallOptions {
  token?: string | null;
  body?: unknown;
  /** Sent as-is instead of JSON-encoding `body`. */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

/** A Steward started in this process on a loopback port, with helpers to call it. */
export interface TestSteward {
  url: string;
  steward: Steward;
  contract: ContractValidator;
  /** A user token for a seeded person (roles as given; default none beyond AUTHENTICATED_USER). */
  userToken(id: string, roles?: AppRole[], extra?: { name?: string; upn?: string }): Promise<string>;
  /** An application token. */
  appToken(id: string, roles?: AppRole[]): Promise<string>;
  /** Calls the API over HTTP; every answer is checked against the served OpenAPI document. */
  call<T = unknown>(method: string, path: string, options?: CallOptions): Promise<TestResponse<T>>;
  close(): Promise<void>;
}

/** The validators of this file's Stewards, by their document's paths and models. */
const contracts = new Map<string, ContractValidator>();

/**
 * A validator for `document`: one per distinct document in a test file, so the schemas a file's
 * second Steward answers with (the same API on the other database) are compiled once.
 */
function contractOf(document: ConstructorParameters<typeof ContractValidator>[0]): ContractValidator {
  const key = JSON.stringify([document.paths, document.components]);
  let contract = contracts.get(key);
  if (!contract) {
    contract = new ContractValidator(document, key);
    contracts.set(key, contract);
  }
  return contract;
}

/**
 * Starts Steward on `database` with test settings (`env` overrides them); `overrides` reach the
 * composition root (e.g. a Graph platform pointed at a fake Graph).
 */
export async function startTestSteward(
  database: TestDatabase,
  env: Record<string, string> = {},
  overrides: StewardOverrides = {},
  /** Where Steward's log lines go (parsed), when a test reads them; otherwise nowhere. */
  logLines?: Array<Record<string, unknown>>,
): Promise<TestSteward> {
  const config = loadConfig({
    ...DEMO_CHOICES,
    STEWARD_PORT: '0',
    STEWARD_HOST: '127.0.0.1',
    STEWARD_DATA_DIR: database.dataDir,
    STEWARD_DATABASE_URL: database.url,
    STEWARD_AUTH_SECRET: TEST_SECRET,
    STEWARD_RATE_LIMIT_FACTOR: '1000',
    STEWARD_LOG_LEVEL: 'silent',
    // The bot registers a webhook at start-up; suites of the API alone run without it.
    STEWARD_BOT_ENABLED: 'false',
    ...env,
  });
  const logger = logLines
    ? pino({ level: 'info' }, { write: (line: string) => void logLines.push(JSON.parse(line)) })
    : pino({ level: config.logLevel });
  const steward = await startSteward(config, logger, overrides);
  const issuer = new EmbeddedTokenIssuer(TEST_SECRET, TENANT);
  const raw = async (method: string, path: string, options: CallOptions = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | Buffer | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await request(`${steward.url}${path}`, { method: method as 'GET', headers, body });
    const text = await res.body.text();
    const type = String(res.headers['content-type'] ?? '');
    return {
      status: res.statusCode,
      headers: Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, String(v)])),
      body: type.includes('json') && text ? JSON.parse(text) : text === '' ? undefined : text,
      text,
    };
  };
  const document = (await raw('GET', '/api/v1.0/openapi.json')).body as ConstructorParameters<
    typeof ContractValidator
  >[0];
  const contract = contractOf(document);
  return {
    url: steward.url,
    steward,
    contract,
    userToken: (id, roles = [], extra = {}) => issuer.mint({ id, roles, ...extra }),
    appToken: (id, roles = []) => issuer.mint({ id, roles, app: true }),
    call: async <T>(method: string, path: string, options?: CallOptions) => {
      const res = await raw(method, path, options);
      contract.check(method, path, res.status, res.body);
      return res as TestResponse<T>;
    },
    close: () => steward.close(),
  };
}

/** A person a suite acts as: a token for `id` with `roles`, naming them as `name` and `upn` say. */
export interface SuitePerson {
  id: string;
  roles?: AppRole[];
  name?: string;
  upn?: string;
}

/** Alex Wilber, a plain user, named with name and UPN. */
export const ALEX: SuitePerson = { id: PEOPLE.alex, name: 'Alex Wilber', upn: 'alexw@example.com' };
/** The seeded people as a token names them by display name alone (roles to be added). */
export const NAMED = {
  alex: { id: PEOPLE.alex, name: 'Alex Wilber' },
  megan: { id: PEOPLE.megan, name: 'Megan Bowen' },
  adele: { id: PEOPLE.adele, name: 'Adele Vance' },
  isaiah: { id: PEOPLE.isaiah, name: 'Isaiah Langer' },
  patti: { id: PEOPLE.patti, name: 'Patti Fernandez' },
  lynne: { id: PEOPLE.lynne, name: 'Lynne Robbins' },
} satisfies Record<keyof typeof PEOPLE, SuitePerson>;
/** Megan Bowen, GLOBAL_ADMIN, with no name in her token. */
export const MEGAN: SuitePerson = { id: PEOPLE.megan, roles: ['GLOBAL_ADMIN'] };

export interface SuiteStewardOptions<P extends string> {
  /** Settings over the test settings; a function when an earlier `beforeAll` makes them. */
  env?: Record<string, string> | (() => Record<string, string>);
  /** What reaches the composition root; a function when an earlier `beforeAll` makes it (a fake Graph). */
  overrides?: StewardOverrides | (() => StewardOverrides);
  /** Tokens besides Alex's and Megan's (or in their place), by the name the suite reads them under. */
  people?: Record<P, SuitePerson>;
}

/** A suite's Steward, its database and its people's tokens: read them in tests and hooks, not before. */
export type SuiteSteward<P extends string = never> = {
  readonly db: TestDatabase;
  readonly app: TestSteward;
} & { readonly [K in 'alex' | 'megan' | P]: string };

/**
 * One Steward for the enclosing `describe`: its `beforeAll` creates a `kind` database, starts
 * Steward on it and mints the tokens (Alex as {@link ALEX}, Megan as {@link MEGAN}, then `people`);
 * its `afterAll` closes Steward and drops the database. Hooks declared after this call run after
 * the start, so they may use the suite.
 */
export function suiteSteward<P extends string = never>(
  kind: DatabaseKind,
  options: SuiteStewardOptions<P> = {},
): SuiteSteward<P> {
  let db: TestDatabase | undefined;
  let app: TestSteward | undefined;
  const tokens = new Map<string, string>();
  const people: Record<string, SuitePerson> = { alex: ALEX, megan: MEGAN, ...options.people };
  beforeAll(async () => {
    db = await createTestDatabase(kind);
    const { env, overrides } = options;
    app = await startTestSteward(
      db,
      typeof env === 'function' ? env() : env,
      typeof overrides === 'function' ? overrides() : overrides,
    );
    for (const [key, { id, roles, ...extra }] of Object.entries(people)) {
      tokens.set(key, await app.userToken(id, roles, extra));
    }
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the suite Steward starts in beforeAll');
    return value;
  };
  const suite = {
    get db() {
      return started(db);
    },
    get app() {
      return started(app);
    },
  };
  for (const key of Object.keys(people)) {
    Object.defineProperty(suite, key, { get: () => started(tokens.get(key)), enumerable: true });
  }
  return suite as SuiteSteward<P>;
}
