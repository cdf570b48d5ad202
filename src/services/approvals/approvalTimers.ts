import type { Kysely } from 'kysely';
import { stageById, type StageState, undecided } from '../../domain/approvalStages';
import type { StoredJob } from '../../domain/jobs';
import type { ApprovalRepository } from '../../store/approvals/approvals';
import type { JobRepository } from '../../store/jobs/jobs';
import type { Database, Db } from '../../store/schema';
import type { AuditLog } from '../audit/audit';
import { failRequest } from './approvalDecision';
import { stageRecord, stagesOf, TIMER_ACTOR, withStages } from './approvalStages';
import type { DirectoryService } from '../directory/directory';
import type { EventBus, StewardEvent } from '../webhooks/events';
import type { ApprovalTimerActions, ApprovalTimerData } from './types';
import type { ProvisioningData } from '../jobData/provisioningData';
import { eventPayload } from '../jobData/provisioningEvents';

export interface ApprovalTimerDependencies {
  db: Kysely<Database>;
  jobs: JobRepository;
  approvals: ApprovalRepository;
  events: EventBus;
  audit: AuditLog;
  directory: DirectoryService;
  /** The label's kept grants, deleted with a request that expires. */
  labels?: { forget(jobId: string, trx: Db): Promise<void> };
  now?: () => Date;
}

/** A stage a timer found still waiting, read in the timer's transaction. */
interface Waiting {
  trx: Db;
  job: StoredJob;
  data: ProvisioningData;
  stages: StageState[];
  stage: StageState;
  now: Date;
}

/**
 * What an approval stage's timers do: remind the undecided approvers once, add the escalation team
 * (default: the governance managers), or reject the request as expired. Each runs in one
 * transaction whose change is conditional on the stage's row (still pending, not yet reminded or
 * escalated), so a timer run twice, by two workers or after a crash, acts once.
 */
export class ApprovalTimers implements ApprovalTimerActions {
  private readonly now: () => Date;

  constructor(private readonly deps: ApprovalTimerDependencies) {
    this.now = deps.now ?? (() => new Date());
  }

  async fire(timer: ApprovalTimerData): Promise<string> {
    const escalationTeam = timer.kind === 'escalation' ? await this.escalationTeam(timer.jobId) : [];
    const result = await this.deps.db.transaction().execute(async (trx) => {
      const waiting = await this.waiting(trx, timer);
      if (!waiting) return { line: `The stage was decided before its ${timer.kind}.`, events: [] };
      if (timer.kind === 'reminder') return this.remind(waiting);
      if (timer.kind === 'escalation') return this.escalate(waiting, escalationTeam);
      return this.expire(waiting);
    });
    this.deps.events.publish(result.events);
    return result.line;
  }

  /**
   * The stage, if still pending, with its row locked first as a decision locks it: two timers due
   * together (a late reminder and the escalation) or a timer and a vote then change the job's stages
   * one after the other, each reading what the one before it wrote.
   */
  private async waiting(trx: Db, timer: ApprovalTimerData): Promise<Waiting | undefined> {
    if (!(await this.deps.approvals.lockPending(timer.approvalId, trx))) return undefined;
    const job = await this.deps.jobs.get(timer.jobId, trx);
    if (!job || job.status !== 'waiting') return undefined;
    const data = structuredClone(job.data) as ProvisioningData;
    const stages = stagesOf(data);
    const found = stageById(stages, timer.approvalId);
    return found && { trx, job, data, stages, stage: found.stage, now: this.now() };
  }

  private async remind(w: Waiting): Promise<{ line: string; events: StewardEvent[] }> {
    if (!(await this.deps.approvals.markReminded(w.stage.id, w.now, w.trx))) {
      return { line: 'Reminded already.', events: [] };
    }
    w.stage.remindedAt = w.now.toISOString();
    const people = undecided(w.stage);
    const line = `Reminded ${names(people)} of stage "${w.stage.name}".`;
    await this.save(w, line, 'approval_reminded', { reminded: people.map((p) => p.id) });
    const payload = { ...eventPayload(w.job, w.data), reminded: people };
    return {
      line,
      events: [await this.deps.events.record(w.trx, 'team_creation_approval_reminder', payload, w.now)],
    };
  }

  private async escalate(
    w: Waiting,
    team: Array<{ id: string; name?: string }>,
  ): Promise<{ line: string; events: StewardEvent[] }> {
    const known = new Set(w.stage.approvers.map((a) => a.id));
    const added = team.filter(
      (p) => !known.has(p.id) && (w.data.approval?.allowSelfApproval || p.id !== w.job.requesterId),
    );
    if (added.length === 0) {
      // No team of its own and no governance manager listed (with Microsoft Graph, a policy saved
      // before its escalation team was required).
      const line =
        team.length === 0
          ? 'Nobody to escalate to: the policy names no escalation team, and the directory lists no governance manager.'
          : 'Nobody to escalate to beyond the stage’s approvers.';
      return { line, events: [] };
    }
    const approvers = [...w.stage.approvers, ...added];
    const ids = approvers.map((a) => a.id);
    if (!(await this.deps.approvals.escalate(w.stage.id, ids, w.now, w.trx))) {
      return { line: 'Escalated already.', events: [] };
    }
    w.stage.approvers = approvers;
    w.stage.escalated = 'late';
    const hours = w.data.approval?.timers?.escalateAfterHours;
    const line = `Escalated stage "${w.stage.name}" to ${names(added)} after ${hours} hours without a decision.`;
    await this.save(w, line, 'approval_escalated', { added: added.map((p) => p.id), afterHours: hours });
    const payload = { ...eventPayload(w.job, w.data), escalation: { added, afterHours: hours } };
    return {
      line,
      events: [await this.deps.events.record(w.trx, 'team_creation_approval_escalated', payload, w.now)],
    };
  }

  private async expire(w: Waiting): Promise<{ line: string; events: StewardEvent[] }> {
    const decided = await this.deps.approvals.decide(
      w.stage.id,
      { status: 'expired', by: TIMER_ACTOR.actor.id, message: 'expired', updates: null },
      w.now,
      w.trx,
    );
    if (!decided) return { line: 'The stage was decided first.', events: [] };
    Object.assign(w.stage, { status: 'expired', comment: 'expired', time: w.now.toISOString() });
    w.data.approval = withStages(w.data.approval!, w.stages);
    const days = w.data.approval.timers?.expireAfterDays;
    const reason = `Expired: nobody decided on stage "${w.stage.name}" within ${days} days.`;
    await this.deps.audit.record(
      w.trx,
      stageRecord(TIMER_ACTOR, 'approval_expired', w.job, w.data, w.stage, { afterDays: days }),
      w.now,
    );
    const context = {
      deps: this.deps,
      trx: w.trx,
      job: w.job,
      data: w.data,
      actor: TIMER_ACTOR,
      now: w.now,
      stage: w.stage,
    };
    return { line: reason, events: await failRequest(context, reason, 'expired') };
  }

  /** Writes the stage's change to the job (data and a log line) and its audit record. */
  private async save(
    w: Waiting,
    line: string,
    action: string,
    details: Record<string, unknown>,
  ): Promise<void> {
    w.data.approval = withStages(w.data.approval!, w.stages);
    await this.deps.jobs.updateUnclaimed(
      w.job.id,
      'waiting',
      { data: w.data, appendLog: [line] },
      w.now,
      w.trx,
    );
    await this.deps.audit.record(
      w.trx,
      stageRecord(TIMER_ACTOR, action, w.job, w.data, w.stage, details),
      w.now,
    );
  }

  /** The policy's escalation team, else the governance managers of the directory. */
  private async escalationTeam(jobId: string): Promise<Array<{ id: string; name?: string }>> {
    const job = await this.deps.jobs.get(jobId);
    const own = (job?.data as ProvisioningData | undefined)?.approval?.escalationTeam;
    if (own && own.length > 0) return own;
    const managers = await this.deps.directory.peopleWithRole('GOVERNANCE_MANAGER');
    return managers.map((m) => ({ id: m.id, name: m.displayName }));
  }
}

function names(people: ReadonlyArray<{ id: string; name?: string }>): string {
  return people.map((p) => p.name ?? p.id).join(', ');
}
