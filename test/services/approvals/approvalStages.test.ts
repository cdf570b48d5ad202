import type { ApiError, CatalogTemplate, Job } from '../../../src/contract';
import { databaseKinds } from '../../support/databases';
import { waitForJob } from '../../support/jobs';
import { PEOPLE, suiteSteward } from '../../support/steward';

/** Zoé Lefèvre, Alex Wilber's manager in the demo directory. */
const ZOE = '00000000-0000-0000-0000-000000000026';

interface StageView {
  id: string;
  name: string;
  status: string;
  approvers: Array<{ id: string; name?: string }>;
  decider: { id: string } | null;
  comment: string | null;
  time: string | null;
  votes?: Array<{ id: string; status: string }>;
  escalated?: string;
}
/** The parts of an event's payload these tests read. */
interface EventPayload {
  provisioning?: { id: string };
  approval: { id: string; stage: { name: string; number: number } };
}
/** The parts of an OpenAPI schema these tests read. */
interface SchemaView {
  properties: Record<string, { enum?: string[] }>;
}
const stagesOf = (job: Job) => (job.data.approval as { stages: StageView[] }).stages;

describe.each(databaseKinds)('staged approval policies on %s', (kind) => {
  const token: Record<string, string> = {};

  const suite = suiteSteward(kind, { env: { STEWARD_JOB_POLL_MS: '50' } });
  beforeAll(async () => {
    const names = {
      alex: 'Alex Wilber',
      adele: 'Adele Vance',
      isaiah: 'Isaiah Langer',
      lynne: 'Lynne Robbins',
      megan: 'Megan Bowen',
    };
    for (const [key, name] of Object.entries(names)) {
      token[key] = await suite.app.userToken(PEOPLE[key as keyof typeof PEOPLE], [], { name });
    }
    token.zoe = await suite.app.userToken(ZOE, [], { name: 'Zoé Lefèvre' });
    token.patti = await suite.app.userToken(PEOPLE.patti, ['CATALOG_MANAGER']);
    token.governance = await suite.app.userToken(PEOPLE.lynne, ['GOVERNANCE_MANAGER']);
  });

  const putTemplate = (
    id: string,
    approval: Record<string, unknown>,
    newTeam: Record<string, unknown> = {},
  ) =>
    suite.app.call<CatalogTemplate | ApiError>('PUT', `/api/v1.0/catalog/templates/${id}`, {
      token: token.patti,
      body: {
        templateConfiguration: { name: id, approval: { requireApproval: true, ...approval } },
        newTeam: { namingConvention: '<%= request.team.name %>', ...newTeam },
      },
    });
  const template = async (
    id: string,
    approval: Record<string, unknown>,
    newTeam?: Record<string, unknown>,
  ) => {
    const res = await putTemplate(id, approval, newTeam);
    expect(res.status).toBe(200);
    return res.body as CatalogTemplate;
  };
  const request = (who: string, templateId: string, name: string) =>
    suite.app.call<Job | ApiError>('POST', '/api/v1.0/teams/provisioning', {
      token: token[who],
      body: { template: { id: templateId }, team: { name } },
    });
  const requested = async (who: string, templateId: string, name: string) => {
    const res = await request(who, templateId, name);
    expect(res.status).toBe(201);
    return res.body as Job;
  };
  const decide = (who: string, approvalId: string, verb: 'approve' | 'reject', body: object = {}) =>
    suite.app.call<ApiError>('POST', `/api/v1.0/approvals/${approvalId}/${verb}`, {
      token: token[who],
      body,
    });
  const job = async (id: string) =>
    (await suite.app.call<Job>('GET', `/api/v1.0/jobs/${id}`, { token: token.alex })).body;
  const outbox = async (jobId: string) => {
    const rows = await suite.app.steward.store.db
      .selectFrom('outbox_events')
      .selectAll()
      .orderBy('seq')
      .execute();
    return rows
      .map((r) => ({ type: r.type, payload: JSON.parse(r.payload) as EventPayload }))
      .filter((e) => e.payload.provisioning?.id === jobId);
  };

  const THREE_STAGES = {
    stages: [
      { name: 'Manager', approvers: { kind: 'manager' } },
      {
        name: 'Legal',
        approvers: { kind: 'people', people: [{ id: 'adelev@example.com' }] },
        decision: 'any',
      },
      {
        name: 'Department',
        approvers: {
          kind: 'rule',
          rule: "user.department === 'Sales' ? ['meganb@example.com'] : ['lynner@example.com']",
        },
        decision: 'all',
      },
    ],
  };

  test('a three-stage policy (manager, people, rule) is approved stage by stage through to a completed team', async () => {
    await template('staged-three', THREE_STAGES);
    const created = await requested('alex', 'staged-three', 'Three stages');
    expect(created.status).toBe('waiting');
    const stages = stagesOf(created);
    expect(stages.map((s) => [s.name, s.status, s.approvers.map((a) => a.id)])).toEqual([
      ['Manager', 'pending', [ZOE]],
      ['Legal', 'upcoming', [PEOPLE.adele]],
      ['Department', 'upcoming', [PEOPLE.lynne]],
    ]);
    expect(new Set(stages.map((s) => s.id)).size).toBe(3);
    expect((created.data.approval as { id: string }).id).toBe(stages[0]!.id);

    // A later stage cannot be decided before its turn; someone else's stage is not yours.
    expect((await decide('adele', stages[1]!.id, 'approve')).status).toBe(409);
    expect((await decide('adele', stages[0]!.id, 'approve')).status).toBe(403);

    expect((await decide('zoe', stages[0]!.id, 'approve', { message: 'Fine by me' })).status).toBe(200);
    let now = await job(created.id);
    expect(now.status).toBe('waiting');
    expect(stagesOf(now).map((s) => s.status)).toEqual(['approved', 'pending', 'upcoming']);
    expect(stagesOf(now)[0]).toMatchObject({ decider: { id: ZOE }, comment: 'Fine by me' });
    expect(stagesOf(now)[0]!.time).toEqual(expect.any(String));
    expect((now.data.approval as { id: string }).id).toBe(stages[1]!.id);
    expect((await decide('zoe', stages[0]!.id, 'approve')).status).toBe(409);

    expect((await decide('adele', stages[1]!.id, 'approve')).status).toBe(200);
    now = await job(created.id);
    expect(now.status).toBe('waiting');
    expect((await decide('lynne', stages[2]!.id, 'approve', { message: 'Go' })).status).toBe(200);

    const done = await waitForJob(suite.app, token.alex!, created.id);
    expect(done.status).toBe('completed');
    expect(stagesOf(done).map((s) => s.status)).toEqual(['approved', 'approved', 'approved']);
    expect(done.log.join('\n')).toContain('Approved by Adele Vance (stage 2 of 3: Legal).');

    // One approval request per stage, each in the events and the audit trail with its stage.
    const events = await outbox(created.id);
    const asked = events.filter((e) => e.type === 'team_creation_approval_requested');
    expect(
      asked.map((e) => [
        e.payload.approval.id,
        e.payload.approval.stage.name,
        e.payload.approval.stage.number,
      ]),
    ).toEqual([
      [stages[0]!.id, 'Manager', 1],
      [stages[1]!.id, 'Legal', 2],
      [stages[2]!.id, 'Department', 3],
    ]);
    expect(events.filter((e) => e.type === 'team_creation_approved')).toHaveLength(1);
    const records = await suite.app.call<{
      value: Array<{
        action: string;
        target: { id: string };
        details?: { jobId?: string; stage: { name: string } };
      }>;
    }>('GET', '/api/v1.0/audit_trails/approvals/records?$top=100', { token: token.governance });
    const mine = records.body.value.filter((r) => r.details?.jobId === created.id);
    expect(
      mine
        .filter((r) => r.action === 'approval_requested')
        .map((r) => r.details!.stage.name)
        .sort(),
    ).toEqual(['Department', 'Legal', 'Manager']);
    expect(
      mine
        .filter((r) => r.action === 'approval_approved')
        .map((r) => r.details!.stage.name)
        .sort(),
    ).toEqual(['Department', 'Legal', 'Manager']);
  });

  test('a rule stage chooses by the requester: a Sales requester goes to Megan Bowen', async () => {
    await template('staged-rule', { stages: [THREE_STAGES.stages[2]] });
    const created = await requested('isaiah', 'staged-rule', 'Sales rule');
    expect(stagesOf(created)[0]!.approvers).toEqual([{ id: PEOPLE.megan, name: 'Megan Bowen' }]);
  });

  test('a rejection at stage 2 fails the job with the reason; stage 3 never opens', async () => {
    await template('staged-reject', THREE_STAGES);
    const created = await requested('alex', 'staged-reject', 'Rejected at two');
    const [manager, legal, department] = stagesOf(created);
    expect((await decide('zoe', manager!.id, 'approve')).status).toBe(200);
    expect((await decide('adele', legal!.id, 'reject', { message: 'Not with this name' })).status).toBe(200);
    const failed = await waitForJob(suite.app, token.alex!, created.id);
    expect(failed.status).toBe('failed');
    expect(failed.failedReason).toBe('Rejected by Adele Vance (stage 2 of 3: Legal): Not with this name');
    expect(stagesOf(failed).map((s) => s.status)).toEqual(['approved', 'rejected', 'upcoming']);
    expect((await decide('lynne', department!.id, 'approve')).status).toBe(409);
    const types = (await outbox(created.id)).map((e) => e.type);
    expect(types.filter((t) => t === 'team_creation_approval_requested')).toHaveLength(2);
    expect(types).toContain('team_creation_rejected');
    expect(types).not.toContain('team_creation_approved');
  });

  test('decision "all" waits for every approver, and any rejection rejects', async () => {
    const people = [{ id: 'adelev@example.com' }, { id: 'isaiahl@example.com' }];
    await template('staged-all', {
      stages: [{ name: 'Board', approvers: { kind: 'people', people }, decision: 'all' }],
    });
    const first = await requested('alex', 'staged-all', 'Everyone agrees');
    const board = stagesOf(first)[0]!;
    expect((await decide('adele', board.id, 'approve')).status).toBe(200);
    let now = await job(first.id);
    expect(now.status).toBe('waiting');
    expect(stagesOf(now)[0]).toMatchObject({
      status: 'pending',
      votes: [expect.objectContaining({ id: PEOPLE.adele })],
    });
    expect(now.log.join('\n')).toContain('Still waiting for Isaiah Langer');
    expect((await decide('adele', board.id, 'approve')).status).toBe(409);
    expect((await decide('isaiah', board.id, 'approve')).status).toBe(200);
    now = await waitForJob(suite.app, token.alex!, first.id);
    expect(now.status).toBe('completed');

    const second = await requested('alex', 'staged-all', 'One says no');
    const stage = stagesOf(second)[0]!;
    expect((await decide('adele', stage.id, 'approve')).status).toBe(200);
    expect((await decide('isaiah', stage.id, 'reject', { message: 'No' })).status).toBe(200);
    expect((await waitForJob(suite.app, token.alex!, second.id)).status).toBe('failed');
  });

  test('decision "all" counts concurrent approvals once each', async () => {
    const people = [
      { id: 'adelev@example.com' },
      { id: 'isaiahl@example.com' },
      { id: 'lynner@example.com' },
    ];
    await template('staged-all-race', {
      stages: [{ name: 'Board', approvers: { kind: 'people', people }, decision: 'all' }],
    });
    const created = await requested('alex', 'staged-all-race', 'At once');
    const stage = stagesOf(created)[0]!;
    const answers = await Promise.all(
      ['adele', 'isaiah', 'lynne'].map((who) => decide(who, stage.id, 'approve')),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const done = await waitForJob(suite.app, token.alex!, created.id);
    expect(done.status).toBe('completed');
    expect(stagesOf(done)[0]!.votes).toHaveLength(3);
  });

  test('a stage that resolves to nobody is refused at request time, naming it; an escalation team takes it', async () => {
    // Megan Bowen heads IT: she has no manager.
    await template('staged-empty', { stages: [{ name: 'Line manager', approvers: { kind: 'manager' } }] });
    const refused = await request('megan', 'staged-empty', 'Nobody above');
    expect(refused.status).toBe(400);
    expect((refused.body as ApiError).error.details).toEqual([
      expect.objectContaining({
        code: 'emptyApprovalStage',
        target: 'template.approval.stages[0]',
        message: expect.stringContaining('"Line manager"'),
      }),
    ]);
    const emptyRule = {
      name: 'Nobody',
      approvers: { kind: 'rule', rule: "user.country === 'ZZ' ? ['adelev@example.com'] : []" },
    };
    await template('staged-empty-rule', { stages: [emptyRule] });
    const ruleRefused = await request('alex', 'staged-empty-rule', 'Empty rule');
    expect(ruleRefused.status).toBe(400);
    expect((ruleRefused.body as ApiError).error.details![0]!.message).toContain('"Nobody"');

    await template('staged-escalated', {
      stages: [{ name: 'Line manager', approvers: { kind: 'manager' } }],
      escalationTeam: [{ id: 'lynner@example.com' }],
    });
    const taken = await requested('megan', 'staged-escalated', 'Escalation takes it');
    expect(stagesOf(taken)[0]).toMatchObject({
      approvers: [{ id: PEOPLE.lynne, name: 'Lynne Robbins' }],
      escalated: 'empty',
    });
    expect((await decide('lynne', stagesOf(taken)[0]!.id, 'approve')).status).toBe(200);
    expect((await waitForJob(suite.app, token.megan!, taken.id)).status).toBe('completed');
  });

  test("an approver's amendments carry into later stages and are checked against the naming rules", async () => {
    await template(
      'staged-amend',
      {
        stages: [
          { name: 'First', approvers: { kind: 'people', people: [{ id: 'adelev@example.com' }] } },
          { name: 'Second', approvers: { kind: 'people', people: [{ id: 'lynner@example.com' }] } },
        ],
      },
      { namingConvention: 'PRJ-<%= request.team.name %>' },
    );
    const created = await requested('alex', 'staged-amend', 'Draft');
    expect(created.data.plan).toMatchObject({ displayName: 'PRJ-Draft' });
    const [first, second] = stagesOf(created);
    expect(
      (await decide('adele', first!.id, 'approve', { updates: { name: 'Apollo', description: 'Moon' } }))
        .status,
    ).toBe(200);
    let now = await job(created.id);
    expect(now.data.plan).toMatchObject({ displayName: 'PRJ-Apollo', description: 'Moon' });

    const bad = await decide('lynne', second!.id, 'approve', { updates: { name: 'Apollo / Artemis' } });
    expect(bad.status).toBe(400);
    // Microsoft Graph limits a group's displayName to 256 characters: the final name, prefix included.
    const long = await decide('lynne', second!.id, 'approve', { updates: { name: 'a'.repeat(253) } });
    expect(long.status).toBe(400);
    expect(JSON.stringify(long.body)).toContain('at most 256 characters long (it has 257)');
    now = await job(created.id);
    expect(stagesOf(now)[1]!.status).toBe('pending');

    expect(
      (await decide('lynne', second!.id, 'approve', { updates: { welcomeMessage: 'Welcome aboard' } }))
        .status,
    ).toBe(200);
    const done = await waitForJob(suite.app, token.alex!, created.id);
    expect(done.status).toBe('completed');
    expect(done.data.plan).toMatchObject({
      displayName: 'PRJ-Apollo',
      description: 'Moon',
      welcomeMessage: 'Welcome aboard',
    });
    expect((done.data.team as { displayName: string }).displayName).toBe('PRJ-Apollo');
  });

  test('self-approval is refused by default: the requester is taken out of their stage', async () => {
    const stages = [
      { name: 'Peers', approvers: { kind: 'people', people: [{ id: ZOE }, { id: 'adelev@example.com' }] } },
    ];
    await template('staged-self', { stages });
    const created = await requested('zoe', 'staged-self', 'Mine');
    const stage = stagesOf(created)[0]!;
    expect(stage.approvers.map((a) => a.id)).toEqual([PEOPLE.adele]);
    const own = await decide('zoe', stage.id, 'approve');
    expect(own.status).toBe(403);
    expect(own.body.error.code).toBe('selfApprovalNotAllowed');

    await template('staged-self-only', {
      stages: [{ name: 'Only me', approvers: { kind: 'people', people: [{ id: ZOE }] } }],
    });
    const refused = await request('zoe', 'staged-self-only', 'Alone');
    expect(refused.status).toBe(400);
    expect((refused.body as ApiError).error.details).toEqual([
      expect.objectContaining({ code: 'noOtherApprover', message: expect.stringContaining('"Only me"') }),
    ]);

    await template('staged-self-allowed', { stages, allowSelfApproval: true });
    const allowed = await requested('zoe', 'staged-self-allowed', 'Mine too');
    expect((await decide('zoe', stagesOf(allowed)[0]!.id, 'approve')).status).toBe(200);
    expect((await waitForJob(suite.app, token.zoe!, allowed.id)).status).toBe('completed');
  });

  test('the OpenAPI document describes the policy and the stages on the Job', async () => {
    const doc = (
      await suite.app.call<{ components: { schemas: Record<string, SchemaView> } }>(
        'GET',
        '/api/v1.0/openapi.json',
      )
    ).body;
    const schemas = doc.components.schemas;
    expect(Object.keys(schemas.ApprovalPolicy!.properties)).toEqual(
      expect.arrayContaining([
        'stages',
        'reminderAfterHours',
        'escalateAfterHours',
        'escalationTeam',
        'expireAfterDays',
        'allowSelfApproval',
      ]),
    );
    expect(JSON.stringify(schemas.ApprovalStageApprovers)).toMatch(/manager[\s\S]*people[\s\S]*rule/);
    expect(schemas.ApprovalStage!.properties.decision!.enum).toEqual(['any', 'all']);
    expect(Object.keys(schemas.ApprovalStageProgress!.properties)).toEqual(
      expect.arrayContaining(['id', 'name', 'approvers', 'status', 'decider', 'comment', 'time']),
    );
    expect(JSON.stringify(schemas.Job!.properties.data)).toContain('JobApproval');
  });

  test('template validation refuses a policy that cannot work', async () => {
    const unknownKind = await putTemplate('bad-kind', {
      stages: [{ name: 'X', approvers: { kind: 'department' } }],
    });
    expect(unknownKind.status).toBe(400);
    const badRule = await putTemplate('bad-rule', {
      stages: [{ name: 'X', approvers: { kind: 'rule', rule: "user.department === 'Sales' ?" } }],
    });
    expect(badRule.status).toBe(400);
    expect((badRule.body as ApiError).error.details).toEqual([
      expect.objectContaining({
        code: 'syntaxError',
        target: 'templateConfiguration.approval.stages[0].approvers.rule',
      }),
    ]);
    const allNobody = await putTemplate('bad-all', {
      stages: [{ name: 'X', approvers: { kind: 'people', people: [] }, decision: 'all' }],
    });
    expect(allNobody.status).toBe(400);
    expect((allNobody.body as ApiError).error.details![0]).toMatchObject({
      target: 'templateConfiguration.approval.stages[0].approvers.people',
    });
    const unknownPerson = await putTemplate('bad-person', {
      stages: [{ name: 'X', approvers: { kind: 'people', people: [{ id: 'nobody@example.com' }] } }],
    });
    expect(unknownPerson.status).toBe(400);
    expect((unknownPerson.body as ApiError).error.details![0]).toMatchObject({ code: 'unknownUser' });
    const evalCode = await putTemplate('bad-eval', {
      stages: [{ name: 'X', approvers: { kind: 'rule', rule: "constructor.constructor('return 1')()" } }],
    });
    expect(evalCode.status).toBe(400);
    // The saved policy keeps people as the directory's ids and names.
    const saved = await template('good-staged', {
      ...THREE_STAGES,
      escalationTeam: [{ id: 'lynner@example.com' }],
    });
    expect(saved.templateConfiguration.approval.stages![1]!.approvers).toEqual({
      kind: 'people',
      people: [{ id: PEOPLE.adele, name: 'Adele Vance' }],
    });
    expect(saved.templateConfiguration.approval.escalationTeam).toEqual([
      { id: PEOPLE.lynne, name: 'Lynne Robbins' },
    ]);
  });
});
