import type { CatalogTemplate, Job } from '../../../src/contract';
import { databaseKinds } from '../../support/databases';
import { botGraphOptions, suiteGraphSteward } from '../../support/graphTenant';
import { PEOPLE } from '../../support/steward';

const HOUR = 3_600_000;

interface Stage {
  id: string;
  status: string;
  approvers: Array<{ id: string }>;
  escalated?: string;
}

/**
 * Escalation with Microsoft Graph (the simulator), where roles come in tokens and the governance
 * managers cannot be listed: a policy that escalates must name its escalation team, refused at save
 * time otherwise; named, the team joins the stage when the escalation comes (Steward's clock moved).
 */
describe.each(databaseKinds)('escalation on Microsoft Graph (simulator), %s', (kind) => {
  let offset = 0;

  const suite = suiteGraphSteward(kind, {
    options: botGraphOptions,
    env: { STEWARD_JOB_POLL_MS: '25' },
    overrides: () => ({ clock: () => Date.now() + offset }),
  });

  const policy = (extra: Record<string, unknown>) => ({
    templateConfiguration: {
      name: 'Escalating',
      approval: {
        requireApproval: true,
        stages: [{ name: 'Legal', approvers: { kind: 'people', people: [{ id: 'adelev@example.com' }] } }],
        escalateAfterHours: 72,
        ...extra,
      },
    },
  });
  const put = async (id: string, body: unknown) =>
    suite.app.call<CatalogTemplate & { error?: { details: unknown[] } }>(
      'PUT',
      `/api/v1.0/catalog/templates/${id}`,
      {
        token: await suite.app.userToken(PEOPLE.patti, ['CATALOG_MANAGER']),
        body,
      },
    );

  test('a policy that escalates with no escalation team is refused when saved, naming the field', async () => {
    const res = await put('escalates-to-nobody', policy({}));
    expect(res.status).toBe(400);
    expect(res.body.error!.details).toEqual([
      expect.objectContaining({
        code: 'escalationTeamRequired',
        target: 'templateConfiguration.approval.escalationTeam',
        message: expect.stringContaining('Microsoft Graph cannot list the governance managers'),
      }),
    ]);
    // Nothing was stored.
    const read = await suite.app.call('GET', '/api/v1.0/catalog/templates/escalates-to-nobody', {
      token: await suite.app.userToken(PEOPLE.patti, ['CATALOG_MANAGER']),
    });
    expect(read.status).toBe(404);
    // An empty team is no team; a policy that does not escalate needs none.
    expect((await put('escalates-to-empty', policy({ escalationTeam: [] }))).status).toBe(400);
    const quiet = policy({});
    delete (quiet.templateConfiguration.approval as { escalateAfterHours?: number }).escalateAfterHours;
    expect((await put('never-escalates', quiet)).status).toBe(200);
  });

  test('with its escalation team named, the escalation reaches that team through Graph', async () => {
    expect(
      (await put('escalates-to-lynne', policy({ escalationTeam: [{ id: 'lynner@example.com' }] }))).status,
    ).toBe(200);
    const alex = await suite.app.userToken(PEOPLE.alex);
    const created = await suite.app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
      token: alex,
      body: { template: { id: 'escalates-to-lynne' }, team: { name: 'Escalated on Graph' } },
    });
    expect(created.status).toBe(201);
    offset = 73 * HOUR;
    const deadline = Date.now() + 15_000;
    let stage: Stage | undefined;
    for (;;) {
      const job = (await suite.app.call<Job>('GET', `/api/v1.0/jobs/${created.body.id}`, { token: alex }))
        .body;
      stage = (job.data.approval as { stages: Stage[] }).stages[0];
      if (stage?.escalated === 'late') break;
      if (Date.now() > deadline) throw new Error(`not escalated: ${job.log.join(' | ')}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(stage.approvers.map((a) => a.id)).toEqual([PEOPLE.adele, PEOPLE.lynne]);
    const lynne = await suite.app.userToken(PEOPLE.lynne, [], { name: 'Lynne Robbins' });
    const approved = await suite.app.call('POST', `/api/v1.0/approvals/${stage.id}/approve`, {
      token: lynne,
    });
    expect(approved.status).toBe(200);
  });
});
