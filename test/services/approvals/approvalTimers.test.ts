import type { CatalogTemplate, Job } from '../../../src/contract';
import { databaseKinds } from '../../support/databases';
import { waitForJob } from '../../support/jobs';
import { stewardOnMovedClock } from '../../support/movedClock';
import { PEOPLE, type TestSteward } from '../../support/steward';

const HOUR = 3_600_000;

/**
 * Reminders, escalation and expiry of approval stages, with Steward's clock moved instead of
 * waiting: the timers are jobs due later, so a worker whose clock has moved past them runs them.
 */
describe.each(databaseKinds)('approval timers on %s', (kind) => {
  const steward = stewardOnMovedClock(kind);
  const start = () => steward.start();

  interface Stage {
    id: string;
    name: string;
    status: string;
    approvers: Array<{ id: string }>;
    remindedAt?: string;
    escalated?: string;
  }
  const stagesOf = (job: Job) => (job.data.approval as { stages: Stage[] }).stages;
  const tokens = async (app: TestSteward) => ({
    alex: await app.userToken(PEOPLE.alex, [], { name: 'Alex Wilber' }),
    adele: await app.userToken(PEOPLE.adele, [], { name: 'Adele Vance' }),
    lynne: await app.userToken(PEOPLE.lynne, [], { name: 'Lynne Robbins' }),
    patti: await app.userToken(PEOPLE.patti, ['CATALOG_MANAGER']),
  });
  const timedTemplate = async (app: TestSteward, id: string) => {
    const { patti } = await tokens(app);
    const res = await app.call<CatalogTemplate>('PUT', `/api/v1.0/catalog/templates/${id}`, {
      token: patti,
      body: {
        templateConfiguration: {
          name: id,
          approval: {
            requireApproval: true,
            stages: [
              { name: 'Legal', approvers: { kind: 'people', people: [{ id: 'adelev@example.com' }] } },
              { name: 'Isaiah', approvers: { kind: 'people', people: [{ id: 'isaiahl@example.com' }] } },
            ],
            reminderAfterHours: 24,
            escalateAfterHours: 72,
            expireAfterDays: 5,
          },
        },
      },
    });
    expect(res.status).toBe(200);
  };
  const request = async (app: TestSteward, templateId: string, name: string) => {
    const { alex } = await tokens(app);
    const res = await app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
      token: alex,
      body: { template: { id: templateId }, team: { name } },
    });
    expect(res.status).toBe(201);
    return res.body;
  };
  /** Reads the job until `until` holds for it (the worker polls every 25 ms). */
  const waitFor = async (app: TestSteward, jobId: string, until: (job: Job) => boolean) => {
    const { alex } = await tokens(app);
    const deadline = Date.now() + 10_000;
    for (;;) {
      const job = (await app.call<Job>('GET', `/api/v1.0/jobs/${jobId}`, { token: alex })).body;
      if (until(job)) return job;
      if (Date.now() > deadline) throw new Error(`job ${jobId}: ${job.log.join(' | ')}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  const events = async (app: TestSteward, jobId: string, type: string) => {
    const rows = await app.steward.store.db
      .selectFrom('outbox_events')
      .selectAll()
      .where('type', '=', type)
      .execute();
    return rows
      .map((r) => JSON.parse(r.payload) as Record<string, unknown> & { provisioning?: { id: string } })
      .filter((p) => p.provisioning?.id === jobId);
  };
  const timersDone = async (app: TestSteward, approvalId: string, timer: string) => {
    const row = await app.steward.store.db
      .selectFrom('jobs')
      .select(['status', 'log'])
      .where('id', '=', `${approvalId}:${timer}`)
      .executeTakeFirst();
    return row;
  };
  /**
   * A timer job once it has completed: its stage's change is committed before the job itself is
   * marked completed, so what the stage shows can be seen a moment before the timer's own status.
   */
  const timerCompleted = async (app: TestSteward, approvalId: string, timer: string) => {
    const deadline = Date.now() + 10_000;
    let row = await timersDone(app, approvalId, timer);
    while (row?.status !== 'completed' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      row = await timersDone(app, approvalId, timer);
    }
    return row;
  };

  test('timers are jobs that survive a restart: reminder, then escalation to the governance managers, then expiry', async () => {
    let app = await start();
    await timedTemplate(app, 'timed');
    const created = await request(app, 'timed', 'Timed');
    const legal = stagesOf(created)[0]!;
    const timers = await app.steward.store.db
      .selectFrom('jobs')
      .select(['id', 'run_at', 'status'])
      .where('type', '=', 'ApprovalTimer')
      .where('id', 'like', `${legal.id}:%`)
      .orderBy('run_at')
      .execute();
    expect(timers.map((t) => [t.id.split(':')[1], Number(t.run_at) - steward.clock()])).toEqual([
      ['reminder', expect.closeTo(24 * HOUR, -4)],
      ['escalation', expect.closeTo(72 * HOUR, -4)],
      ['expiry', expect.closeTo(120 * HOUR, -4)],
    ]);
    // Nothing is due yet: the worker leaves them.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect((await timersDone(app, legal.id, 'reminder'))!.status).toBe('waiting');

    // Stop, move past the reminder, start again on the same database.
    await steward.stop(app);
    steward.moveBy(25 * HOUR);
    app = await start();
    let job = await waitFor(app, created.id, (j) => stagesOf(j)[0]!.remindedAt !== undefined);
    expect(job.status).toBe('waiting');
    expect(job.log.join('\n')).toContain('Reminded Adele Vance of stage "Legal".');
    const reminders = await events(app, created.id, 'team_creation_approval_reminder');
    expect(reminders).toHaveLength(1);
    expect(reminders[0]).toMatchObject({ reminded: [{ id: PEOPLE.adele }], approval: { id: legal.id } });

    steward.moveBy(73 * HOUR);
    job = await waitFor(app, created.id, (j) => stagesOf(j)[0]!.escalated === 'late');
    expect(stagesOf(job)[0]!.approvers.map((a) => a.id)).toEqual([PEOPLE.adele, PEOPLE.lynne]);
    expect(await events(app, created.id, 'team_creation_approval_escalated')).toEqual([
      expect.objectContaining({
        escalation: { added: [{ id: PEOPLE.lynne, name: 'Lynne Robbins' }], afterHours: 72 },
      }),
    ]);

    steward.moveBy(121 * HOUR);
    const { alex } = await tokens(app);
    job = await waitForJob(app, alex, created.id);
    expect(job.status).toBe('failed');
    expect(job.failedReason).toBe('Expired: nobody decided on stage "Legal" within 5 days.');
    expect(stagesOf(job).map((s) => s.status)).toEqual(['expired', 'upcoming']);
    expect(await events(app, created.id, 'team_creation_rejected')).toEqual([
      expect.objectContaining({ reason: 'expired' }),
    ]);
    // Each timer ran once, and its job says what it did.
    for (const timer of ['reminder', 'escalation', 'expiry'])
      expect((await timerCompleted(app, legal.id, timer))!.status).toBe('completed');
  });

  test('an escalated stage may be decided by the escalation team; a decided stage’s timers do nothing', async () => {
    const app = await start();
    await timedTemplate(app, 'timed-escalate');
    const created = await request(app, 'timed-escalate', 'Escalate');
    const legal = stagesOf(created)[0]!;
    const { lynne } = await tokens(app);
    // Lynne is not an approver until the escalation.
    expect((await app.call('POST', `/api/v1.0/approvals/${legal.id}/approve`, { token: lynne })).status).toBe(
      403,
    );
    steward.moveBy(73 * HOUR);
    await waitFor(app, created.id, (j) => stagesOf(j)[0]!.escalated === 'late');
    expect((await app.call('POST', `/api/v1.0/approvals/${legal.id}/approve`, { token: lynne })).status).toBe(
      200,
    );
    // Stage 2's timers start when it opens, at the moved clock: its reminder is 24 hours later.
    const next = stagesOf(await waitFor(app, created.id, (j) => stagesOf(j)[1]!.status === 'pending'))[1]!;
    const reminder = await app.steward.store.db
      .selectFrom('jobs')
      .select('run_at')
      .where('id', '=', `${next.id}:reminder`)
      .executeTakeFirstOrThrow();
    expect(Number(reminder.run_at) - steward.clock()).toBeCloseTo(24 * HOUR, -4);
    steward.moveBy(200 * HOUR);
    await waitFor(app, created.id, (j) => j.status === 'failed');
    // Stage 1's expiry came too, after its decision: it did nothing. Both expiries are due at once,
    // in either order, so the job may have failed before stage 1's timer ran.
    const expiry = await timerCompleted(app, legal.id, 'expiry');
    expect(expiry).toMatchObject({ status: 'completed' });
    expect(expiry!.log).toContain('decided before');
  });

  test('a reminder and an escalation due at once, on two workers, both stay on the stage', async () => {
    const first = await start();
    const second = await start();
    await timedTemplate(first, 'timed-together');
    // Several requests, so that the two timers of a stage run side by side more than once.
    const created = [];
    for (let i = 0; i < 6; i += 1) created.push(await request(first, 'timed-together', `Together ${i}`));
    steward.moveBy(73 * HOUR);
    for (const job of created) {
      const seen = await waitFor(second, job.id, (j) =>
        ['reminder', 'escalation'].every((t) =>
          j.log.some((line) => line.includes(t === 'reminder' ? 'Reminded' : 'Escalated')),
        ),
      );
      const stage = stagesOf(seen)[0]!;
      expect(stage.escalated).toBe('late');
      expect(stage.remindedAt).toBeDefined();
      expect(stage.approvers.map((a) => a.id)).toEqual([PEOPLE.adele, PEOPLE.lynne]);
    }
  });

  test('two workers on one database, and a timer queued twice: the reminder fires exactly once', async () => {
    const first = await start();
    const second = await start();
    await timedTemplate(first, 'timed-twice');
    const created = await request(first, 'timed-twice', 'Twice');
    const legal = stagesOf(created)[0]!;
    // A second copy of the reminder, as if two processes had scheduled it.
    const original = await first.steward.store.db
      .selectFrom('jobs')
      .selectAll()
      .where('id', '=', `${legal.id}:reminder`)
      .executeTakeFirstOrThrow();
    await first.steward.store.db
      .insertInto('jobs')
      .values({ ...original, id: `${legal.id}:reminder-copy` })
      .execute();
    steward.moveBy(25 * HOUR);
    await waitFor(first, created.id, (j) => stagesOf(j)[0]!.remindedAt !== undefined);
    const deadline = Date.now() + 10_000;
    for (;;) {
      const both = await Promise.all(
        ['reminder', 'reminder-copy'].map((t) => timersDone(second, legal.id, t)),
      );
      if (both.every((row) => row!.status === 'completed')) break;
      if (Date.now() > deadline) throw new Error('the reminder timers did not both run');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(await events(second, created.id, 'team_creation_approval_reminder')).toHaveLength(1);
    const records = await first.steward.store.db
      .selectFrom('audit_records')
      .select('target')
      .where('action', '=', 'approval_reminded')
      .execute();
    expect(records.filter((r) => (JSON.parse(r.target) as { id: string }).id === legal.id)).toHaveLength(1);
  });
});
