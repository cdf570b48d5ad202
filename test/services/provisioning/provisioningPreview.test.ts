import type { ApiError, TeamRequestPreview } from '../../../src/contract';
import { databaseKinds } from '../../support/databases';
import { PEOPLE, suiteSteward } from '../../support/steward';
import { rowCount } from '../../support/rows';

const PREVIEW = '/api/v1.0/teams/provisioning/preview';
const REQUEST = '/api/v1.0/teams/provisioning';

/**
 * `POST /teams/provisioning/preview` (an extension): what a request would become, by the same
 * rules as the request itself, over real HTTP; it writes nothing.
 */
describe.each(databaseKinds)('previewing a team request, on %s', (kind) => {
  const suite = suiteSteward(kind, { people: { patti: { id: PEOPLE.patti, roles: ['CATALOG_MANAGER'] } } });
  beforeAll(async () => {
    // A convention that adds a suffix as well as a prefix, targeted to everyone.
    const suffixed = await suite.app.call('PUT', '/api/v1.0/catalog/templates/suffixed', {
      token: suite.patti,
      body: {
        templateConfiguration: { name: 'Suffixed' },
        newTeam: { namingConvention: 'EXT-<%= request.team.name %> (<%= user.country %>)' },
      },
    });
    expect(suffixed.status).toBe(200);
  });

  const body = (template: string, name: string, extra: Record<string, unknown> = {}) => ({
    template: { id: template },
    team: { name, ...extra },
  });
  const preview = (payload: unknown, token: string | null = suite.alex) =>
    suite.app.call<TeamRequestPreview & ApiError>('POST', PREVIEW, { token, body: payload });

  /** Rows of the tables a request writes to: jobs, the outbox, the audit trail. */
  const written = async () => {
    const count = (table: 'jobs' | 'outbox_events' | 'audit_records') => rowCount(suite.app, table);
    return {
      jobs: await count('jobs'),
      outbox: await count('outbox_events'),
      audit: await count('audit_records'),
    };
  };

  test('gives the final name with the convention’s prefix and suffix, and the room left for the typed name', async () => {
    const prefixed = await preview(body('project', 'Apollo', { description: 'Moon' }));
    expect(prefixed.status).toBe(200);
    expect(prefixed.body).toMatchObject({ displayName: 'PRJ-Apollo', problems: [] });
    expect(prefixed.body.nameMaxLength).toBe(256 - 'PRJ-'.length);

    const both = await preview(body('suffixed', 'Apollo'));
    expect(both.status).toBe(200);
    expect(both.body.displayName).toBe('EXT-Apollo (US)');
    expect(both.body.problems).toEqual([]);
    expect(both.body.nameMaxLength).toBe(256 - 'EXT- (US)'.length);

    // The requester's directory attributes fill the convention, as they would in a request.
    const client = await preview(body('client-engagement', 'Fabrikam'));
    expect(client.body.displayName).toBe('CLI-US-Fabrikam');
  });

  test('refuses a name that breaks the rules with the words a real request is refused with', async () => {
    for (const name of ['Sales/Marketing', 'x'.repeat(254)]) {
      const said = await preview(body('project', name));
      expect(said.status).toBe(200);
      expect(said.body.problems).toHaveLength(1);
      const refused = await suite.app.call<ApiError>('POST', REQUEST, {
        token: suite.alex,
        body: body('project', name),
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error.details?.map((detail) => detail.message)).toEqual(said.body.problems);
    }
  });

  test('is for signed-in people, on templates they may use', async () => {
    expect((await preview(body('project', 'Apollo'), null)).status).toBe(401);
    expect((await preview(body('project', 'Apollo'), 'not-a-token')).status).toBe(401);
    const application = await suite.app.appToken('automation-app', ['AUTHORIZED_APP']);
    expect((await preview(body('project', 'Apollo'), application)).status).toBe(403);
    // Disabled, or not targeted to the caller: as if it did not exist.
    const disabled = await preview(body('classic-community', 'Apollo'));
    expect(disabled.status).toBe(404);
    expect((await preview(body('no-such-template', 'Apollo'))).status).toBe(404);
  });

  test.each([
    ['no body', undefined],
    ['no template', { team: { name: 'Apollo' } }],
    ['no team', { template: { id: 'project' } }],
    ['a name that is not text', { template: { id: 'project' }, team: { name: 42 } }],
    [
      'a description too long',
      { template: { id: 'project' }, team: { name: 'A', description: 'd'.repeat(1025) } },
    ],
    ['an array', [1, 2]],
  ])('answers %s with 400 and says what is wrong', async (_what, payload) => {
    const res = await preview(payload);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toMatch(/./);
    expect(res.body.error.message).toMatch(/./);
  });

  test('answers a body that is not JSON with 400', async () => {
    const res = await suite.app.call<ApiError>('POST', PREVIEW, {
      token: suite.alex,
      rawBody: '{"template":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
  });

  test('writes nothing: no job, no event, no audit record', async () => {
    const before = await written();
    await preview(body('project', 'Apollo'));
    await preview(body('client-engagement', 'Fabrikam'));
    await preview(body('project', 'Sales/Marketing'));
    await preview({ template: { id: 'project' } });
    expect(await written()).toEqual(before);
    // The same request, made for real, writes: the counts above could have moved.
    const made = await suite.app.call('POST', REQUEST, {
      token: suite.alex,
      body: body('project', 'Apollo'),
    });
    expect(made.status).toBe(201);
    const after = await written();
    expect(after.jobs).toBe(before.jobs + 1);
    expect(after.audit).toBeGreaterThan(before.audit);
  });

  test('is documented in OpenAPI as an extension, open to every signed-in user', async () => {
    const res = await suite.app.call<{ paths: Record<string, Record<string, Record<string, unknown>>> }>(
      'GET',
      '/api/v1.0/openapi.json',
    );
    const operation = res.body.paths['/teams/provisioning/preview']?.post;
    expect(operation).toMatchObject({
      operationId: 'previewTeamProvisioning',
      'x-steward-extension': true,
      'x-steward-roles': ['AUTHENTICATED_USER'],
    });
    expect(res.body.paths['/teams/provisioning']?.post?.['x-steward-extension']).toBeUndefined();
  });

  test('names who would approve, stage by stage: the requester’s manager and a rule’s pick', async () => {
    const managed = await suite.app.call('PUT', '/api/v1.0/catalog/templates/managed', {
      token: suite.patti,
      body: {
        templateConfiguration: {
          name: 'Managed',
          approval: {
            requireApproval: true,
            stages: [
              { name: 'Manager', approvers: { kind: 'manager' } },
              {
                name: 'Compliance',
                approvers: {
                  kind: 'rule',
                  rule: "user.country === 'US' ? 'lynner@example.com' : 'meganb@example.com'",
                },
              },
            ],
          },
        },
      },
    });
    expect(managed.status).toBe(200);
    const answer = await preview(body('managed', 'Apollo'));
    expect(answer.status).toBe(200);
    // Alex Wilber reports to Zoé Lefèvre; Alex is in the US.
    expect(answer.body.approval).toEqual({
      stages: [
        { name: 'Manager', decision: 'any', approvers: [{ id: expect.any(String), name: 'Zoé Lefèvre' }] },
        { name: 'Compliance', decision: 'any', approvers: [{ id: PEOPLE.lynne, name: 'Lynne Robbins' }] },
      ],
    });
    // No approval, no `approval`.
    expect((await preview(body('project', 'Apollo'))).body.approval).toBeUndefined();
  });
});
