import type { Job, TeamLabelStatus } from '../../../src/contract';
import { SEED_LABEL_IDS } from '../../../src/store/seed/directory';
import { databaseKinds } from '../../support/databases';
import { requestProvisioning, waitForJob, suiteJobSteward } from '../../support/jobs';
import { putLabelledTemplates, teamLabel } from '../../support/labelledTemplates';
import { PEOPLE } from '../../support/steward';

/**
 * Sensitivity labels on the embedded platform: as on Graph, a label goes on with a person's
 * authority (the embedded tenant lets a team's owners change it), never as part of making the team:
 * the requester's, kept from the request until the job runs, approval or not.
 */

const LABEL = SEED_LABEL_IDS.general;

describe.each(databaseKinds)('sensitivity labels on the embedded platform, %s', (kind) => {
  const suite = suiteJobSteward(kind);
  beforeAll(async () => {
    await putLabelledTemplates(suite.app, suite.megan, LABEL);
  });

  const labelOf = (teamId: string) => teamLabel(suite.app, teamId);
  const provision = (template: string, name: string) =>
    requestProvisioning(suite.app, suite.alex, template, name);

  test("the requester's authority puts the label on; the grant was sealed and is gone", async () => {
    const job = await waitForJob(suite.app, suite.alex, (await provision('labelled', 'Orion')).id);
    expect(job.status).toBe('completed');
    const team = job.data.team as { id: string };
    expect(await labelOf(team.id)).toBe(LABEL);
    expect(job.data.label).toEqual({ id: LABEL, status: 'applied', appliedBy: PEOPLE.alex });
    expect(await suite.app.steward.store.db.selectFrom('delegated_grants').selectAll().execute()).toEqual([]);
  });

  const approve = async (created: Job) => {
    const approvalId = (created.data.approval as { id: string }).id;
    const res = await suite.app.call('POST', `/api/v1.0/approvals/${approvalId}/approve`, {
      token: suite.adele,
      body: {},
    });
    expect(res.status).toBe(200);
    return waitForJob(suite.app, suite.alex, created.id);
  };

  test("with approval, the requester's grant is kept until the job runs and puts the label on", async () => {
    const created = await provision('labelled-approved', 'Vega');
    const kept = await suite.app.steward.store.db.selectFrom('delegated_grants').selectAll().execute();
    expect(kept.map((row) => row.job_id)).toEqual([created.id]);
    // Sealed: neither the token nor the refresh token is in the row.
    expect(JSON.stringify(kept)).not.toContain('embedded-');
    const job = await approve(created);
    expect(job.status).toBe('completed');
    expect(await labelOf((job.data.team as { id: string }).id)).toBe(LABEL);
    expect(job.data.label).toEqual({ id: LABEL, status: 'applied', appliedBy: PEOPLE.alex });
    expect(await suite.app.steward.store.db.selectFrom('delegated_grants').selectAll().execute()).toEqual([]);
  });

  test('a rejected request leaves no grant behind', async () => {
    const created = await provision('labelled-approved', 'Deneb');
    const approvalId = (created.data.approval as { id: string }).id;
    const reject = await suite.app.call('POST', `/api/v1.0/approvals/${approvalId}/reject`, {
      token: suite.adele,
      body: { message: 'Not now' },
    });
    expect(reject.status).toBe(200);
    expect(await suite.app.steward.store.db.selectFrom('delegated_grants').selectAll().execute()).toEqual([]);
  });

  test("without the requester's grant, an approver who does not own the team cannot; the owner applies it", async () => {
    const created = await provision('labelled-approved', 'Lyra');
    // The requester's grant is gone (kept past its time): the approver's is kept instead.
    await suite.app.steward.store.db.deleteFrom('delegated_grants').execute();
    const job = await approve(created);
    expect(job.status).toBe('completed');
    const team = job.data.team as { id: string };
    expect(await labelOf(team.id)).toBeNull();
    expect(job.data.label).toMatchObject({
      status: 'missing',
      reason: expect.stringMatching(/approver.*owner/),
    });
    const byApprover = await suite.app.call('POST', `/api/v1.0/teams/${team.id}/sensitivityLabel`, {
      token: suite.adele,
    });
    // Not in the team: it is not theirs to know about (404), let alone to label.
    expect(byApprover.status).toBe(404);
    const applied = await suite.app.call<TeamLabelStatus>(
      'POST',
      `/api/v1.0/teams/${team.id}/sensitivityLabel`,
      {
        token: suite.alex,
      },
    );
    expect(applied.status).toBe(200);
    expect(applied.body).toEqual({ labelId: LABEL, status: 'applied', appliedBy: PEOPLE.alex });
    expect(await labelOf(team.id)).toBe(LABEL);
  });

  test('a team not made from a labelled template has nothing to apply', async () => {
    const res = await suite.app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
      token: suite.alex,
      body: { template: { id: 'project' }, team: { name: 'Plain' } },
    });
    const job = await waitForJob(suite.app, suite.alex, res.body.id);
    const team = job.data.team as { id: string };
    const none = await suite.app.call('POST', `/api/v1.0/teams/${team.id}/sensitivityLabel`, {
      token: suite.alex,
    });
    expect(none.status).toBe(404);
  });
});
