import type { ApiError, CatalogTemplate, Job } from '../../../src/contract';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../support/databases';
import { waitForJob } from '../../support/jobs';
import { PEOPLE, startTestSteward, type TestSteward } from '../../support/steward';

describe.each(databaseKinds)('approval decisions on %s', (kind) => {
  let db: TestDatabase;
  let app: TestSteward;
  let alex: string;
  let adele: string;
  let isaiah: string;
  let patti: string;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    app = await startTestSteward(db, { STEWARD_JOB_POLL_MS: '50' });
    alex = await app.userToken(PEOPLE.alex, [], { name: 'Alex Wilber' });
    adele = await app.userToken(PEOPLE.adele, [], { name: 'Adele Vance' });
    isaiah = await app.userToken(PEOPLE.isaiah, [], { name: 'Isaiah Langer' });
    patti = await app.userToken(PEOPLE.patti, ['CATALOG_MANAGER']);
  });
  afterAll(async () => {
    await app.close();
    await db.drop();
  });

  /** Saves a template whose approval team is `approvers`, open to everyone. */
  const template = async (id: string, approvers: string[], allowSelfApproval?: boolean) => {
    const res = await app.call<CatalogTemplate>('PUT', `/api/v1.0/catalog/templates/${id}`, {
      token: patti,
      body: {
        templateConfiguration: {
          name: id,
          approval: {
            requireApproval: true,
            approvalTeam: approvers.map((a) => ({ id: a })),
            ...(allowSelfApproval === undefined ? {} : { allowSelfApproval }),
          },
        },
        newTeam: { namingConvention: '<%= request.team.name %>' },
      },
    });
    expect(res.status).toBe(200);
    return res.body;
  };
  const requestTeam = async (token: string, templateId: string, name: string) => {
    const res = await app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
      token,
      body: { template: { id: templateId }, team: { name } },
    });
    expect(res.status).toBe(201);
    return { jobId: res.body.id, approvalId: (res.body.data.approval as { id: string }).id };
  };

  test('approve and reject with no body at all, and with {}, answer 200', async () => {
    await template('decide-bare', [PEOPLE.adele]);
    const first = await requestTeam(alex, 'decide-bare', 'Bare approve');
    const bare = await app.call('POST', `/api/v1.0/approvals/${first.approvalId}/approve`, { token: adele });
    expect(bare.status).toBe(200);
    expect((await waitForJob(app, alex, first.jobId)).status).toBe('completed');

    const second = await requestTeam(alex, 'decide-bare', 'Bare reject');
    const rejected = await app.call('POST', `/api/v1.0/approvals/${second.approvalId}/reject`, {
      token: adele,
    });
    expect(rejected.status).toBe(200);
    expect((await waitForJob(app, alex, second.jobId)).status).toBe('failed');

    const third = await requestTeam(alex, 'decide-bare', 'Empty object');
    const empty = await app.call('POST', `/api/v1.0/approvals/${third.approvalId}/reject`, {
      token: adele,
      body: {},
    });
    expect(empty.status).toBe(200);
    // A body that is there but wrong is still a 400.
    const fourth = await requestTeam(alex, 'decide-bare', 'Wrong body');
    const wrong = await app.call('POST', `/api/v1.0/approvals/${fourth.approvalId}/approve`, {
      token: adele,
      body: { message: 5 },
    });
    expect(wrong.status).toBe(400);
  });

  test('the OpenAPI document says the decision bodies are optional', async () => {
    const doc = (
      await app.call<{ paths: Record<string, Record<string, { requestBody?: { required: boolean } }>> }>(
        'GET',
        '/api/v1.0/openapi.json',
      )
    ).body;
    for (const verb of ['approve', 'reject'])
      expect(doc.paths[`/approvals/{approvalRequestId}/${verb}`]!.post!.requestBody!.required).toBe(false);
  });

  test('a requester in the approval team may not decide their own request; another approver does', async () => {
    const saved = await template('self-approval', [PEOPLE.adele, PEOPLE.isaiah]);
    expect(saved.templateConfiguration.approval.allowSelfApproval).toBe(false);
    const { jobId, approvalId } = await requestTeam(adele, 'self-approval', 'Adele asks');
    for (const verb of ['approve', 'reject']) {
      const own = await app.call<ApiError>('POST', `/api/v1.0/approvals/${approvalId}/${verb}`, {
        token: adele,
        body: {},
      });
      expect(own.status).toBe(403);
      expect(own.body.error.code).toBe('selfApprovalNotAllowed');
    }
    const byOther = await app.call('POST', `/api/v1.0/approvals/${approvalId}/approve`, { token: isaiah });
    expect(byOther.status).toBe(200);
    const job = await waitForJob(app, adele, jobId);
    expect(job.status).toBe('completed');
    expect(job.log.join('\n')).toContain('Approved by Isaiah Langer');
  });

  test('approval.allowSelfApproval lets a requester approve their own request', async () => {
    await template('self-approval-allowed', [PEOPLE.adele, PEOPLE.isaiah], true);
    const { jobId, approvalId } = await requestTeam(adele, 'self-approval-allowed', 'Adele may');
    const own = await app.call('POST', `/api/v1.0/approvals/${approvalId}/approve`, { token: adele });
    expect(own.status).toBe(200);
    expect((await waitForJob(app, adele, jobId)).status).toBe('completed');
  });

  test('the only approver of a template cannot request from it (nobody else could decide)', async () => {
    await template('sole-approver', [PEOPLE.adele]);
    const res = await app.call<ApiError>('POST', '/api/v1.0/teams/provisioning', {
      token: adele,
      body: { template: { id: 'sole-approver' }, team: { name: 'Stuck' } },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([expect.objectContaining({ code: 'noOtherApprover' })]);
  });
});
