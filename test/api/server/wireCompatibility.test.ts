import type { ApiError, Job, Team } from '../../../src/contract';
import { databaseKinds } from '../../support/databases';
import { waitForJob } from '../../support/jobs';
import { PEOPLE, suiteSteward } from '../../support/steward';

/** Clients written for the public v1.0 API, on the fields and headers they rely on. */
describe.each(databaseKinds)('wire compatibility on %s', (kind) => {
  let teamId: string;

  const suite = suiteSteward(kind, {
    env: { STEWARD_JOB_POLL_MS: '50' },
    people: { alex: { id: PEOPLE.alex } },
  });
  beforeAll(async () => {
    const res = await suite.app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
      token: suite.alex,
      body: { template: { id: 'project' }, team: { name: 'Round trip' } },
    });
    const job = await waitForJob(suite.app, suite.alex, res.body.id);
    teamId = (job.data.team as { id: string }).id;
  });

  const getTeam = async () => {
    const res = await suite.app.call<Team>('GET', `/api/v1.0/teams/${teamId}`, { token: suite.megan });
    expect(res.status).toBe(200);
    return res.body;
  };
  const patch = (body: unknown) =>
    suite.app.call<ApiError>('PATCH', `/api/v1.0/teams/${teamId}`, { token: suite.megan, body });

  describe('PATCH /teams/{id}', () => {
    test('accepts the Team exactly as GET returns it, and changes nothing', async () => {
      const before = await getTeam();
      const res = await patch(before);
      expect(res.status).toBe(204);
      // No body, so no length either (RFC 9110, 8.6); the request is still named.
      expect(res.headers['content-length']).toBeUndefined();
      expect(res.headers['request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(await getTeam()).toEqual(before);
    });

    test('accepts the Team as GET returns it with writable fields changed, and applies only those', async () => {
      const before = await getTeam();
      const res = await patch({
        ...before,
        description: 'Changed by a round trip',
        messagingSettings: { ...before.messagingSettings, allowTeamMentions: false },
      });
      expect(res.status).toBe(204);
      const after = await getTeam();
      expect(after.description).toBe('Changed by a round trip');
      expect(after.messagingSettings.allowTeamMentions).toBe(false);
      expect({
        ...after,
        description: before.description,
        messagingSettings: before.messagingSettings,
      }).toEqual(before);
    });

    test('a read-only field with another value is a 400 naming it, and nothing changes', async () => {
      const before = await getTeam();
      for (const [field, value] of [
        ['id', 'another-id'],
        ['webUrl', 'https://example.com/elsewhere'],
        ['isArchived', !before.isArchived],
        ['createdDateTime', '2001-01-01T00:00:00.000Z'],
      ] as const) {
        const res = await patch({ ...before, displayName: 'Must not apply', [field]: value });
        expect(res.status).toBe(400);
        expect(res.body.error.details).toEqual([
          expect.objectContaining({ code: 'readOnly', target: `body.${field}` }),
        ]);
      }
      expect(await getTeam()).toEqual(before);
    });

    test('a description of null, as GET shows a team without one, clears it', async () => {
      expect((await patch({ description: null })).status).toBe(204);
      const cleared = await getTeam();
      expect(cleared.description ?? '').toBe('');
      expect((await patch(cleared)).status).toBe(204);
    });

    test('unknown fields are still refused', async () => {
      const res = await patch({ ...(await getTeam()), colour: 'blue' });
      expect(res.status).toBe(400);
    });
  });

  test('every API answer carries X-RateLimit-Limit, -Remaining and -Reset', async () => {
    const res = await suite.app.call('GET', `/api/v1.0/teams/${teamId}`, { token: suite.megan });
    expect(Number(res.headers['x-ratelimit-limit'])).toBeGreaterThan(0);
    expect(Number(res.headers['x-ratelimit-remaining'])).toBeGreaterThanOrEqual(0);
    const reset = Number(res.headers['x-ratelimit-reset']);
    expect(Number.isInteger(reset)).toBe(true);
    expect(reset).toBeGreaterThanOrEqual(1);
    expect(reset).toBeLessThanOrEqual(60);
    const doc = (
      await suite.app.call<{
        paths: Record<string, Record<string, { responses: Record<string, { headers: object }> }>>;
      }>('GET', '/api/v1.0/openapi.json')
    ).body;
    expect(doc.paths['/teams/{teamId}']!.get!.responses['200']!.headers).toHaveProperty('X-RateLimit-Reset');
  });
});
