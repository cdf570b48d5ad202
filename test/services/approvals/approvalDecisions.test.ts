import type { ApiError, CatalogTemplate, Job } from '../../../src/contract';
import { databaseKinds } from '../../support/databases';
import { waitForJob, suiteJobSteward } from '../../support/jobs';
import { PEOPLE, NAMED } from '../../support/steward';

describe.each(databaseKinds)('approval decisions on %s', (kind) => {
  const suite = suiteJobSteward(kind, {
    isaiah: NAMED.isaiah,
    patti: { id: PEOPLE.patti, roles: ['CATALOG_MANAGER'] },
  });

  /** Saves a template whose approval team is `approvers`, open to everyone. */
  const template = async (id: string, approvers: string[], allowSelfApproval?: boolean) => {
    const res = await suite.app.call<CatalogTemplate>('PUT', `/api/v1.0/catalog/templates/${id}`, {
      token: suite.patti,
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
    const res = await suite.app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
      token,
      body: { template: { id: templateId }, team: { name } },
    });
    expect(res.status).toBe(201);
    return { jobId: res.body.id, approvalId: (res.body.data.approval as { id: string }).id };
  };

  test('approve and reject with no body at all, and with {}, answer 200', async () => {
    await template('decide-bare', [PEOPLE.adele]);
    const first = await requestTeam(suite.alex, 'decide-bare', 'Bare approve');
    const bare = await suite.app.call('POST', `/api/v1.0/approvals/${first.approvalId}/approve`, {
      token: suite.adele,
    });
    expect(bare.status).toBe(200);
    expect((await waitForJob(suite.app, suite.alex, first.jobId)).status).toBe('completed');

    const second = await requestTeam(suite.alex, 'decide-bare', 'Bare reject');
    const rejected = await suite.app.call('POST', `/api/v1.0/approvals/${second.approvalId}/reject`, {
      token: suite.adele,
    });
    expect(rejected.status).toBe(200);
    expect((await waitForJob(suite.app, suite.alex, second.jobId)).status).toBe('failed');

    const third = await requestTeam(suite.alex, 'decide-bare', 'Empty object');
    const empty = await suite.app.call('POST', `/api/v1.0/approvals/${third.approvalId}/reject`, {
      token: suite.adele,
      body: {},
    });
    expect(empty.status).toBe(200);
    // A body that is there but wrong is still a 400.
    const fourth = await requestTeam(suite.alex, 'decide-bare', 'Wrong body');
    const wrong = await suite.app.call('POST', `/api/v1.0/approvals/${fourth.approvalId}/approve`, {
      token: suite.adele,
      body: { message: 5 },
    });
    expect(wrong.status).toBe(400);
  });

  test('the OpenAPI document says the decision bodies are optional', async () => {
    const doc = (
      await suite.app.call<{
        paths: Record<string, Record<string, { requestBody?: { required: boolean } }>>;
      }>('GET', '/api/v1.0/openapi.json')
    ).body;
    for (const verb of ['approve', 'reject'])
      expect(doc.paths[`/approvals/{approvalRequestId}/${verb}`]!.post!.requestBody!.required).toBe(false);
  });

  test('a requester in the approval team may not decide their own request; another approver does', async () => {
    const saved = await template('self-approval', [PEOPLE.adele, PEOPLE.isaiah]);
    expect(saved.templateConfiguration.approval.allowSelfApproval).toBe(false);
    const { jobId, approvalId } = await requestTeam(suite.adele, 'self-approval', 'Adele asks');
    for (const verb of ['approve', 'reject']) {
      const own = await suite.app.call<ApiError>('POST', `/api/v1.0/approvals/${approvalId}/${verb}`, {
        token: suite.adele,
        body: {},
      });
      expect(own.status).toBe(403);
      expect(own.body.error.code).toBe('selfApprovalNotAllowed');
    }
    const byOther = await suite.app.call('POST', `/api/v1.0/approvals/${approvalId}/approve`, {
      token: suite.isaiah,
    });
    expect(byOther.status).toBe(200);
    const job = await waitForJob(suite.app, suite.adele, jobId);
    expect(job.status).toBe('completed');
    expect(job.log.join('\n')).toContain('Approved by Isaiah Langer');
  });

  test('approval.allowSelfApproval lets a requester approve their own request', async () => {
    await template('self-approval-allowed', [PEOPLE.adele, PEOPLE.isaiah], true);
    const { jobId, approvalId } = await requestTeam(suite.adele, 'self-approval-allowed', 'Adele may');
    const own = await suite.app.call('POST', `/api/v1.0/approvals/${approvalId}/approve`, {
      token: suite.adele,
    });
    expect(own.status).toBe(200);
    expect((await waitForJob(suite.app, suite.adele, jobId)).status).toBe('completed');
  });

  test('the only approver of a template cannot request from it (nobody else could decide)', async () => {
    await template('sole-approver', [PEOPLE.adele]);
    const res = await suite.app.call<ApiError>('POST', '/api/v1.0/teams/provisioning', {
      token: suite.adele,
      body: { template: { id: 'sole-approver' }, team: { name: 'Stuck' } },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([expect.objectContaining({ code: 'noOtherApprover' })]);
  });
});
