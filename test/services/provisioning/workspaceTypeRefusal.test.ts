import type {
  ApiError,
  AuditTrailRecord,
  Job,
  ODataCollection,
  TeamRequestPreview,
} from '../../../src/contract';
import { databaseKinds } from '../../support/databases';
import { rowCount } from '../../support/rows';
import { PEOPLE, suiteSteward } from '../../support/steward';

/**
 * A request from a template of a workspace type Steward cannot provision yet (every type but
 * `team`) is refused before anything is made: no job, no approval, no team, no event; the refusal
 * is in the provisioning trail.
 */
describe.each(databaseKinds)('requests for workspace types not provisioned yet on %s', (kind) => {
  const suite = suiteSteward(kind, {
    people: { patti: { id: PEOPLE.patti, roles: ['CATALOG_MANAGER'] } },
  });

  const save = async (id: string, workspaceType: string, extra: Record<string, unknown> = {}) => {
    const res = await suite.app.call('PUT', `/api/v1.0/catalog/templates/${id}`, {
      token: suite.patti,
      body: {
        templateConfiguration: { name: `A ${workspaceType}`, workspaceType, ...extra },
        newTeam: { namingConvention: 'WS-<%= request.team.name %>' },
      },
    });
    expect(res.status).toBe(200);
  };
  const request = (template: string, name: string) =>
    suite.app.call<Job & ApiError>('POST', '/api/v1.0/teams/provisioning', {
      token: suite.alex,
      body: { template: { id: template }, team: { name } },
    });
  const counts = async () => ({
    jobs: await rowCount(suite.app, 'jobs'),
    approvals: await rowCount(suite.app, 'approvals'),
    teams: await rowCount(suite.app, 'platform_teams'),
    outbox: await rowCount(suite.app, 'outbox_events'),
  });

  test.each(['group', 'communicationSite', 'community'])(
    'a request from a %s template: 400 workspaceTypeNotProvisionable, nothing created, the refusal audited',
    async (workspaceType) => {
      const id = `not-yet-${workspaceType.toLowerCase()}`;
      await save(id, workspaceType);
      const before = await counts();
      const res = await request(id, 'Cyclists');
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('validationFailed');
      expect(res.body.error.details).toEqual([
        {
          code: 'workspaceTypeNotProvisionable',
          target: 'template.id',
          message: expect.stringContaining(`workspace type "${workspaceType}"`),
        },
      ]);
      expect(await counts()).toEqual(before);

      const trail = await suite.app.call<ODataCollection<AuditTrailRecord>>(
        'GET',
        '/api/v1.0/audit_trails/team_provisioning/records?$top=5',
        { token: suite.megan },
      );
      const refused = trail.body.value.find((r) => r.action === 'provisioning_refused' && r.target.id === id);
      expect(refused).toMatchObject({
        outcome: 'denied',
        actor: { id: PEOPLE.alex },
        target: { type: 'template', id, displayName: `A ${workspaceType}` },
        details: { templateId: id, workspaceType, reason: 'workspaceTypeNotProvisionable' },
      });
    },
  );

  test('a template that needs approval is refused before any approval is asked for', async () => {
    await save('not-yet-approved-group', 'group', {
      approval: { requireApproval: true, approvalTeam: [{ id: PEOPLE.megan }] },
    });
    const before = await counts();
    const res = await request('not-yet-approved-group', 'Finance');
    expect(res.status).toBe(400);
    expect(res.body.error.details!.map((d) => d.code)).toEqual(['workspaceTypeNotProvisionable']);
    expect(await counts()).toEqual(before);
  });

  test('the preview says so before anything is sent; a team template is still served', async () => {
    await save('not-yet-preview', 'community');
    const preview = await suite.app.call<TeamRequestPreview>('POST', '/api/v1.0/teams/provisioning/preview', {
      token: suite.alex,
      body: { template: { id: 'not-yet-preview' }, team: { name: 'Readers' } },
    });
    expect(preview.status).toBe(200);
    expect(preview.body.problems).toEqual([expect.stringContaining('cannot provision yet')]);
    const team = await request('project', 'Still a team');
    expect(team.status).toBe(201);
  });
});
