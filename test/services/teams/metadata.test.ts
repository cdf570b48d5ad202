import type { Job, MetadataQueryResult } from '../../../src/contract';
import { databaseKinds } from '../../support/databases';
import { waitForJob } from '../../support/jobs';
import { PEOPLE, suiteSteward } from '../../support/steward';

describe.each(databaseKinds)('team metadata on %s', (kind) => {
  const teams: string[] = [];

  /** Provisions a team from the `project` template and returns its id. */
  const provision = async (name: string, metadata?: Record<string, unknown>) => {
    const res = await suite.app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
      token: suite.alex,
      body: { template: { id: 'project' }, team: { name }, ...(metadata ? { metadata } : {}) },
    });
    expect(res.status).toBe(201);
    const job = await waitForJob(suite.app, suite.alex, res.body.id);
    expect(job.status).toBe('completed');
    return (job.data.team as { id: string }).id;
  };
  const url = (teamId: string, namespace = 'crm') => `/api/v1.0/teams/${teamId}/metadata/${namespace}`;
  const query = (body: unknown, namespace = 'crm') =>
    suite.app.call<MetadataQueryResult[]>('POST', `/api/v1.0/metadata/${namespace}/query`, {
      token: suite.megan,
      body,
    });
  const ids = (results: MetadataQueryResult[]) => results.map((r) => r.artefact_id);
  /** Everything a metadata write touches, including SQLite's index of leaves. */
  const snapshot = async () => {
    const store = suite.app.steward.store.db;
    const documents = await store.selectFrom('team_metadata').selectAll().execute();
    const leaves =
      kind === 'sqlite' ? await store.selectFrom('team_metadata_values').selectAll().execute() : [];
    return JSON.stringify([
      documents.map((r) => [r.team_id, r.namespace, r.document, r.updated_at]).sort(),
      leaves.map((r) => [r.team_id, r.namespace, r.path, r.value]).sort(),
    ]);
  };

  const suite = suiteSteward(kind, {
    env: { STEWARD_JOB_POLL_MS: '50' },
    people: { alex: { id: PEOPLE.alex } },
  });
  beforeAll(async () => {
    teams.push(await provision('Meta One', { project: { code: 'M-1' } }));
    teams.push(await provision('Meta Two'));
    teams.push(await provision('Meta Three'));
    teams.sort();
  });

  test('provisioning stored the request metadata; other namespaces read as {}', async () => {
    const all = await Promise.all(
      teams.map(
        async (id) => (await suite.app.call('GET', url(id, 'provisioning'), { token: suite.megan })).body,
      ),
    );
    expect(all).toEqual(expect.arrayContaining([{ project: { code: 'M-1' } }, {}]));
    const found = await query({ project: { code: 'M-1' } }, 'provisioning');
    expect(found.status).toBe(200);
    expect(found.body).toEqual([{ artefact_type: 'MicrosoftTeamsTeam', artefact_id: expect.any(String) }]);
    expect(await suite.app.call('GET', url(teams[0]!, 'nothing-here'), { token: suite.megan })).toMatchObject(
      {
        status: 200,
        body: {},
      },
    );
  });

  test('PUT replaces, GET reads, PATCH deep-merges and answers the merged document', async () => {
    const [a] = teams as [string];
    const put = await suite.app.call('PUT', url(a), {
      token: suite.megan,
      body: { tier: 'gold', contact: { name: 'Ann', phone: '1' }, tags: ['x', 'y'], gone: 1 },
    });
    expect(put).toMatchObject({
      status: 200,
      body: { tier: 'gold', contact: { name: 'Ann', phone: '1' }, tags: ['x', 'y'], gone: 1 },
    });
    const replaced = await suite.app.call('PUT', url(a), {
      token: suite.megan,
      body: { tier: 'silver', contact: { name: 'Ann', phone: '1' }, tags: ['x', 'y'], gone: 1 },
    });
    expect(replaced.body).toEqual({
      tier: 'silver',
      contact: { name: 'Ann', phone: '1' },
      tags: ['x', 'y'],
      gone: 1,
    });
    const patched = await suite.app.call('PATCH', url(a), {
      token: suite.megan,
      body: { contact: { phone: '2', mail: 'ann@example.com' }, tags: ['z'], gone: null },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({
      tier: 'silver',
      contact: { name: 'Ann', phone: '2', mail: 'ann@example.com' },
      tags: ['z'],
    });
    expect((await suite.app.call('GET', url(a), { token: suite.megan })).body).toEqual(patched.body);
    // PATCH on a namespace without a document merges into {}.
    const fresh = await suite.app.call('PATCH', url(a, 'fresh'), {
      token: suite.megan,
      body: { n: 1, drop: null },
    });
    expect(fresh).toMatchObject({ status: 200, body: { n: 1 } });
  });

  test('query finds the teams whose document contains the object, ordered by team id', async () => {
    const [a, b, c] = teams as [string, string, string];
    const docs: Array<[string, unknown]> = [
      [
        a,
        { tier: 'gold', region: { name: 'EU', n: 1 }, people: [{ id: 'p1', roles: ['owner'] }], tags: ['x'] },
      ],
      [b, { tier: 'gold', region: { name: 'US', n: '1' }, people: [{ id: 'p2', roles: ['member'] }] }],
      [c, { tier: 'bronze', region: { name: 'EU', n: 1 }, tags: ['x', 'y'] }],
    ];
    for (const [id, body] of docs)
      expect((await suite.app.call('PUT', url(id), { token: suite.megan, body })).status).toBe(200);
    expect(ids((await query({})).body)).toEqual([a, b, c]);
    expect(ids((await query({ tier: 'gold' })).body)).toEqual([a, b]);
    expect(ids((await query({ region: { name: 'EU' } })).body)).toEqual([a, c]);
    expect(ids((await query({ region: { n: 1 } })).body)).toEqual([a, c]);
    expect(ids((await query({ region: { n: '1' } })).body)).toEqual([b]);
    expect(ids((await query({ tags: ['x'] })).body)).toEqual([a, c]);
    expect(ids((await query({ tags: ['y', 'x'] })).body)).toEqual([c]);
    expect(ids((await query({ tags: 'x' })).body)).toEqual([]);
    expect(ids((await query({ people: [{ roles: ['owner'] }] })).body)).toEqual([a]);
    expect(ids((await query({ people: [{ id: 'p2', roles: ['owner'] }] })).body)).toEqual([]);
    expect(ids((await query({ tier: 'gold', region: { name: 'EU' } })).body)).toEqual([a]);
    expect(ids((await query({ region: {} })).body)).toEqual([a, b, c]);
    expect(ids((await query({ tags: [] })).body)).toEqual([a, c]);
    expect((await query({ tier: 'gold' }, 'other-namespace')).body).toEqual([]);
    // A write moves a team in and out of the results.
    await suite.app.call('PATCH', url(c), { token: suite.megan, body: { tier: 'gold' } });
    expect(ids((await query({ tier: 'gold' })).body)).toEqual([a, b, c]);
    await suite.app.call('PATCH', url(a), { token: suite.megan, body: { tier: null } });
    expect(ids((await query({ tier: 'gold' })).body)).toEqual([b, c]);
  });

  test('bad namespaces, non-object bodies and documents over 64 KiB are 400, and nothing is written', async () => {
    const [a] = teams as [string];
    const before = await snapshot();
    const expect400 = (res: { status: number; body: unknown }) => {
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: { code: 'validationFailed' } });
    };
    for (const namespace of ['has%20space', 'x'.repeat(65), 'a%2Fb', 'ns%3A1']) {
      expect400(await suite.app.call('GET', url(a, namespace), { token: suite.megan }));
      expect400(await suite.app.call('PUT', url(a, namespace), { token: suite.megan, body: {} }));
      expect400(await query({}, namespace));
    }
    for (const body of [[], [{ a: 1 }], 'text', 42, null]) {
      expect400(await suite.app.call('PUT', url(a), { token: suite.megan, body }));
      expect400(await suite.app.call('PATCH', url(a), { token: suite.megan, body }));
      expect400(await query(body));
    }
    const big = { pad: 'p'.repeat(64 * 1024) };
    const tooLarge = await suite.app.call('PUT', url(a), { token: suite.megan, body: big });
    expect400(tooLarge);
    expect(tooLarge.body).toMatchObject({ error: { details: [{ code: 'tooLarge', target: 'body' }] } });
    expect400(await suite.app.call('PATCH', url(a), { token: suite.megan, body: big }));
    expect(await snapshot()).toBe(before);
    // Two halves fit alone but not merged: the PATCH is refused and the first half stays.
    const half = 'h'.repeat(40 * 1024);
    expect(
      (await suite.app.call('PUT', url(a, 'halves'), { token: suite.megan, body: { one: half } })).status,
    ).toBe(200);
    const withOneHalf = await snapshot();
    expect400(await suite.app.call('PATCH', url(a, 'halves'), { token: suite.megan, body: { two: half } }));
    expect((await suite.app.call('GET', url(a, 'halves'), { token: suite.megan })).body).toEqual({
      one: half,
    });
    expect400(await suite.app.call('PUT', url(a), { token: suite.megan, body: { nul: 'a\u0000b' } }));
    expect(await snapshot()).toBe(withOneHalf);
  });

  test('an unknown team is 404 and a plain user is 403, writing nothing', async () => {
    const before = await snapshot();
    for (const method of ['GET', 'PUT', 'PATCH']) {
      const res = await suite.app.call(method, url('no-such-team'), {
        token: suite.megan,
        body: method === 'GET' ? undefined : { a: 1 },
      });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: { code: 'notFound' } });
    }
    for (const method of ['GET', 'PUT', 'PATCH']) {
      const res = await suite.app.call(method, url(teams[0]!), {
        token: suite.alex,
        body: method === 'GET' ? undefined : { a: 1 },
      });
      expect(res.status).toBe(403);
    }
    expect(
      (await suite.app.call('POST', '/api/v1.0/metadata/crm/query', { token: suite.alex, body: {} })).status,
    ).toBe(403);
    expect(await snapshot()).toBe(before);
  });
});
