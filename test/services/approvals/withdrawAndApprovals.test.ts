import type { Job, PendingApprovals } from '../../../src/contract';
import { databaseKinds } from '../../support/databases';
import { waitForJob, suiteJobSteward } from '../../support/jobs';
import { PEOPLE } from '../../support/steward';

const SIOBHAN = '00000000-0000-0000-0000-000000000034';

/**
 * In the API: the requester withdraws a request while it waits for approval
 * (`POST /jobs/{id}/withdraw`), and an approver lists what waits for her (`GET /me/approvals`),
 * both marked extensions, with their audit record and event.
 */
describe.each(databaseKinds)('withdrawing a request and listing my approvals, on %s', (kind) => {
  const suite = suiteJobSteward(kind, {
    siobhan: { id: SIOBHAN, name: "Siobhán O'Connor" },
  });

  /** Alex asks for a Client engagement team, which Adele or Siobhán approves. */
  const request = async (name: string) => {
    const res = await suite.app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
      token: suite.alex,
      body: { template: { id: 'client-engagement' }, team: { name } },
    });
    expect(res.status).toBe(201);
    return res.body;
  };
  const myApprovals = async (token: string) => {
    const res = await suite.app.call<PendingApprovals>('GET', '/api/v1.0/me/approvals', { token });
    expect(res.status).toBe(200);
    return res.body.value;
  };
  const withdraw = (jobId: string, token: string) =>
    suite.app.call<Job>('POST', `/api/v1.0/jobs/${jobId}/withdraw`, { token });

  test('lists the requests waiting for an approver, and withdraws one for its requester only', async () => {
    const job = await request('Contoso');
    const approvalId = (job.data.approval as { id: string }).id;

    const waiting = await myApprovals(suite.adele);
    const mine = waiting.find((item) => item.id === approvalId);
    expect(mine).toMatchObject({ stageName: 'Approval', job: { id: job.id, status: 'waiting' } });
    expect(Date.parse(mine!.sinceDateTime)).not.toBeNaN();
    // The requester and people outside the approval team have nothing to decide.
    expect((await myApprovals(suite.alex)).map((item) => item.id)).not.toContain(approvalId);
    expect((await myApprovals(suite.megan)).map((item) => item.id)).not.toContain(approvalId);

    // Nobody but the requester may withdraw it, an admin or an approver included.
    expect((await withdraw(job.id, suite.megan)).status).toBe(404);
    expect((await withdraw(job.id, suite.adele)).status).toBe(404);

    const res = await withdraw(job.id, suite.alex);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('failed');
    expect(res.body.data.approval).toMatchObject({ id: approvalId, status: 'withdrawn' });
    expect(res.body.data.approval?.stages?.map((s) => s.status)).toEqual(['withdrawn']);
    expect(res.body.steps.every((step) => step.status === 'skipped')).toBe(true);
    expect(res.body.failedReason).toMatch(/Withdrawn by the requester/);

    // Nothing left to decide: not listed, not decidable, not withdrawable again.
    expect((await myApprovals(suite.adele)).map((item) => item.id)).not.toContain(approvalId);
    const late = await suite.app.call('POST', `/api/v1.0/approvals/${approvalId}/approve`, {
      token: suite.adele,
      body: {},
    });
    expect(late.status).toBe(409);
    expect((await withdraw(job.id, suite.alex)).status).toBe(409);
    expect((await waitForJob(suite.app, suite.alex, job.id)).status).toBe('failed');

    // Nobody decided: the row is withdrawn without a decision (the reports count decisions only).
    const rows = await suite.app.steward.store.db
      .selectFrom('approvals')
      .select(['status', 'decided_at'])
      .where('job_id', '=', job.id)
      .execute();
    expect(rows).toEqual([{ status: 'withdrawn', decided_at: null }]);
    const records = await suite.app.steward.store.db
      .selectFrom('audit_records')
      .select(['actor', 'target'])
      .where('action', '=', 'provisioning_withdrawn')
      .execute();
    expect(records.filter((r) => (JSON.parse(r.target) as { id: string }).id === job.id)).toHaveLength(1);
    expect(JSON.parse(records[0]!.actor)).toMatchObject({ id: PEOPLE.alex });
    const events = await suite.app.steward.store.db
      .selectFrom('outbox_events')
      .select('payload')
      .where('type', '=', 'team_provisioning_failed')
      .execute();
    const payloads = events.map(
      (e) => JSON.parse(e.payload) as { provisioning: { id: string }; reason?: string },
    );
    expect(payloads.find((p) => p.provisioning.id === job.id)).toMatchObject({ reason: 'withdrawn' });
  });

  test('a withdrawal and a decision at once: exactly one of them wins', async () => {
    for (let round = 0; round < 3; round++) {
      const job = await request(`Race ${round}`);
      const approvalId = (job.data.approval as { id: string }).id;
      const [withdrawn, approved] = await Promise.all([
        withdraw(job.id, suite.alex),
        suite.app.call('POST', `/api/v1.0/approvals/${approvalId}/approve`, {
          token: suite.siobhan,
          body: {},
        }),
      ]);
      expect([withdrawn.status, approved.status].sort()).toEqual([200, 409]);
      const final = await suite.app.call<Job>('GET', `/api/v1.0/jobs/${job.id}`, { token: suite.alex });
      expect(final.body.data.approval?.status).toBe(withdrawn.status === 200 ? 'withdrawn' : 'approved');
    }
  });

  test('refuses to withdraw a request that needs no approval, and bad ids plainly', async () => {
    const res = await suite.app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
      token: suite.alex,
      body: { template: { id: 'project' }, team: { name: 'No approval' } },
    });
    expect((await withdraw(res.body.id, suite.alex)).status).toBe(409);
    expect((await withdraw('no-such-job', suite.alex)).status).toBe(404);
    expect((await withdraw('bad*id', suite.alex)).status).toBe(400);
    const top = await suite.app.call('GET', '/api/v1.0/me/approvals?$top=0', { token: suite.adele });
    expect(top.status).toBe(400);
  });

  test('is documented in OpenAPI as two extensions', async () => {
    const res = await suite.app.call<{ paths: Record<string, Record<string, Record<string, unknown>>> }>(
      'GET',
      '/api/v1.0/openapi.json',
    );
    expect(res.body.paths['/jobs/{jobId}/withdraw']?.post).toMatchObject({
      operationId: 'withdrawTeamProvisioningJob',
      'x-steward-extension': true,
      'x-steward-roles': ['AUTHENTICATED_USER'],
    });
    expect(res.body.paths['/me/approvals']?.get).toMatchObject({
      operationId: 'getMyApprovals',
      'x-steward-extension': true,
    });
  });
});
