import { existsSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { CACHE_UNUSED_MS, ContractValidator } from './contract';

const CACHE = path.resolve(__dirname, '..', '..', 'node_modules', '.cache', 'steward-contract');

/** A document of one operation, its model named after this run so that its cache folder is new. */
function documentOf(run: string) {
  return {
    paths: {
      '/teams/{id}': {
        get: {
          operationId: 'getTeam',
          responses: {
            '200': {
              content: {
                'application/json': { schema: { $ref: '#/components/schemas/Team' } },
              },
            },
            '404': {},
          },
        },
      },
    },
    components: {
      schemas: {
        Team: {
          type: 'object',
          required: ['id', 'createdDateTime'],
          properties: { id: { type: 'string' }, createdDateTime: { type: 'string', format: 'date-time' } },
          description: run,
        },
      },
    },
  };
}

/** What `validator` says of a few bodies of `GET /teams/42`: nothing, or its error. */
function verdicts(validator: ContractValidator): Array<string | undefined> {
  const bodies: Array<[number, unknown]> = [
    [200, { id: '42', createdDateTime: '2027-03-03T10:00:00Z' }],
    [200, { id: '42', createdDateTime: 'yesterday' }],
    [200, { id: 42 }],
    [404, { message: 'x' }],
    [500, {}],
  ];
  return bodies.map(([status, body]) => {
    try {
      validator.check('GET', '/api/v1.0/teams/42', status, body);
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  });
}

describe('the contract validator and its cache of compiled validators', () => {
  // A model no other run has: its cache folder is new, and removed after.
  const document = documentOf(`contract test ${process.pid} ${Date.now()}`);
  const folders = () => (existsSync(CACHE) ? readdirSync(CACHE) : []);
  const before = folders();
  const made = () => folders().filter((name) => !before.includes(name));
  afterAll(() => {
    for (const folder of made()) rmSync(path.join(CACHE, folder), { recursive: true, force: true });
  });
  let first: Array<string | undefined>;

  it('compiles the validator of an operation and status when first needed, and keeps it', () => {
    first = verdicts(new ContractValidator(document));
    expect(first).toEqual([
      undefined,
      expect.stringMatching(/^getTeam 200 body does not match its schema: .*must match format "date-time"/),
      expect.stringMatching(/must have required property 'createdDateTime'/),
      'getTeam 404 documents no body but sent one',
      'getTeam answered 500, which its OpenAPI entry does not document',
    ]);
    expect(made()).toHaveLength(1);
    expect(readdirSync(path.join(CACHE, made()[0]!))).toEqual(['getTeam-200.js']);
  });

  it('another validator of the same document reads it back, and says the same', () => {
    const file = path.join(CACHE, made()[0]!, 'getTeam-200.js');
    const written = statSync(file);
    expect(verdicts(new ContractValidator(document))).toEqual(first);
    // Not compiled and written again.
    expect(statSync(file)).toMatchObject({ ino: written.ino, mtimeMs: written.mtimeMs });
  });
});

describe('the contract cache keeps the documents in use', () => {
  const tag = `${process.pid}-${Date.now()}`;
  const stale = path.join(CACHE, `stale-${tag}`);
  const recent = path.join(CACHE, `recent-${tag}`);
  const document = documentOf(`contract pruning ${tag}`);
  let made: string[] = [];
  afterAll(() => {
    for (const folder of [stale, recent, ...made]) rmSync(folder, { recursive: true, force: true });
  });

  it('a new document’s folder removes the folders unused for a week, and keeps the others', () => {
    const day = 24 * 60 * 60 * 1000;
    for (const [folder, age] of [
      [stale, CACHE_UNUSED_MS + day],
      [recent, CACHE_UNUSED_MS - day],
    ] as const) {
      mkdirSync(folder, { recursive: true });
      const then = new Date(Date.now() - age);
      utimesSync(folder, then, then);
    }
    const before = readdirSync(CACHE);
    verdicts(new ContractValidator(document));
    made = readdirSync(CACHE)
      .filter((name) => !before.includes(name))
      .map((name) => path.join(CACHE, name));
    expect(made).toHaveLength(1);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(recent)).toBe(true);
  });

  it('a document in use is marked so at each run, and so never unused', () => {
    const folder = made[0]!;
    const long = new Date(Date.now() - 2 * CACHE_UNUSED_MS);
    utimesSync(folder, long, long);
    verdicts(new ContractValidator(document));
    expect(Date.now() - statSync(folder).mtimeMs).toBeLessThan(60_000);
  });
});
