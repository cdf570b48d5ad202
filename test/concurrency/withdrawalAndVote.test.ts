import type { Job } from '../../src/contract';
import { databaseKinds } from '../support/databases';
import { PEOPLE, suiteSteward } from '../support/steward';

/** Rounds of the race: the window (the vote's transaction) is a few milliseconds wide. */
const ROUNDS = 16;

interface StageView {
  id: string;
  status: string;
  votes?: Array<{ id: string }>;
}

/**
 * A requester withdraws while an approver votes on an `each of` stage (the vote leaves the stage
 * open, so both may succeed, one after the other). Whatever the order, what the job's stage data
 * says of the vote is what the audit trail says: the withdrawal writes the job as it stands once
 * the stage is locked, never data read before.
 */
describe.each(databaseKinds)('a withdrawal racing a vote, on %s', (kind) => {
  const token: Record<string, string> = {};

  const suite = suiteSteward(kind, { env: { STEWARD_JOB_POLL_MS: '50' } });
  beforeAll(async () => {
    token.alex = await suite.app.userToken(PEOPLE.alex, [], { name: 'Alex Wilber' });
    token.adele = await suite.app.userToken(PEOPLE.adele, [], { name: 'Adele Vance' });
    const patti = await suite.app.userToken(PEOPLE.patti, ['CATALOG_MANAGER']);
    const people = [{ id: 'adelev@example.com' }, { id: 'isaiahl@example.com' }];
    const put = await suite.app.call('PUT', '/api/v1.0/catalog/templates/race-board', {
      token: patti,
      body: {
        templateConfiguration: {
          name: 'Board',
          approval: {
            requireApproval: true,
            stages: [{ name: 'Board', approvers: { kind: 'people', people }, decision: 'all' }],
          },
        },
      },
    });
    expect(put.status).toBe(200);
  });

  test('the job keeps every vote the audit trail records', async () => {
    const outcomes: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const res = await suite.app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
        token: token.alex,
        body: { template: { id: 'race-board' }, team: { name: `Board race ${round}` } },
      });
      expect(res.status).toBe(201);
      const stage = (res.body.data.approval as { stages: StageView[] }).stages[0]!;
      const [voted, withdrawn] = await Promise.all([
        suite.app.call('POST', `/api/v1.0/approvals/${stage.id}/approve`, { token: token.adele, body: {} }),
        suite.app.call('POST', `/api/v1.0/jobs/${res.body.id}/withdraw`, { token: token.alex }),
      ]);
      expect([withdrawn.status, voted.status].every((s) => s === 200 || s === 409)).toBe(true);
      expect(withdrawn.status).toBe(200);
      const job = await suite.app.call<Job>('GET', `/api/v1.0/jobs/${res.body.id}`, { token: token.alex });
      const votesInJob = ((job.body.data.approval as { stages: StageView[] }).stages[0]!.votes ?? []).map(
        (v) => v.id,
      );
      const votesRecorded = (
        await suite.app.steward.store.db
          .selectFrom('audit_records')
          .select('target')
          .where('action', '=', 'approval_vote')
          .execute()
      ).filter((r) => (JSON.parse(r.target) as { id: string }).id === stage.id);
      expect(votesInJob).toEqual(votesRecorded.length === 1 ? [PEOPLE.adele] : []);
      expect(votesRecorded).toHaveLength(voted.status === 200 ? 1 : 0);
      outcomes.push(voted.status === 200 ? 'voted first' : 'withdrawn first');
    }
    // Which one locked the stage first varies; the test holds either way.
    expect(outcomes).toHaveLength(ROUNDS);
  });
});
