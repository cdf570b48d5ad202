import { randomUUID } from 'node:crypto';
import { counted } from '../../lib/counted';
import type { Kysely } from 'kysely';
import { callerRecord } from '../../domain/audit';
import type { Caller } from '../../domain/caller';
import { addDays, dayOf } from '../../domain/lifecycle/dates';
import type { Job, LifecycleActionKind } from '../../contract';
import type { JobRepository } from '../../store/jobs/jobs';
import type { LifecycleRepository } from '../../store/lifecycle/lifecycle';
import { TeamTemplateRepository } from '../../store/drift/teamTemplates';
import type { Database } from '../../store/schema';
import type { AuditLog } from '../audit/audit';
import type { EventBus } from '../webhooks/events';
import type { LifecycleEvaluationData, LifecycleRunner } from './types';
import type { JobCatalog } from '../jobs/registry';
import { LifecycleActions } from './actions';
import type { LifecycleWalker } from './walker';

/** The id of the daily evaluation of `day`: one row per day, whichever worker queues it. */
export function scheduledEvaluationId(day: string): string {
  return `lifecycle-evaluation:${day}`;
}

const STEWARD = { id: 'steward', displayName: 'Steward' };

/**
 * Lifecycle evaluations as jobs: queued on request or daily, run by a worker, acting on the tenant
 * page by page. What the job types' `LifecycleRunner` calls.
 */
export class LifecycleEvaluations implements LifecycleRunner {
  private readonly actions: LifecycleActions;

  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      walker: LifecycleWalker;
      store: LifecycleRepository;
      jobs: JobRepository;
      audit: AuditLog;
      events: EventBus;
      onQueued: () => void;
      /** The registered job types: a job's wire form. */
      jobTypes: JobCatalog;
      clock: () => number;
      /** Minutes after midnight UTC of the daily run; null: only on request. */
      dailyAtMinute: number | null;
    },
  ) {
    this.actions = new LifecycleActions(deps);
  }

  async importActivity(): Promise<string> {
    const teams = await this.deps.walker.importActivity(this.now());
    return `Read the last activity of ${teams} team${teams === 1 ? '' : 's'}.`;
  }

  async evaluate(asOf: string | undefined, evaluationId: string): Promise<string[]> {
    const day = asOf ?? dayOf(this.now());
    const counts = new Map<LifecycleActionKind, number>();
    let jobs = 0;
    let outdated = 0;
    const teams = await this.deps.walker.walk(day, async (page) => {
      const ids: string[] = [];
      for (const team of page) ids.push(team.facts.teamId);
      // The counts are added once the transaction committed: it may run again (retryingKysely.ts).
      const applied = await this.deps.db.transaction().execute(async (trx) => {
        // Drift, cheaply: one statement per page notes the teams behind their template.
        const behind = await new TeamTemplateRepository(trx).notePass(ids, day, trx);
        const { events, jobs } = await this.actions.apply(trx, page, day, this.now(), evaluationId);
        return { events, jobs, behind };
      });
      outdated += applied.behind;
      this.deps.events.publish(applied.events);
      for (const team of page)
        for (const decision of team.evaluation.decisions)
          counts.set(decision.action, (counts.get(decision.action) ?? 0) + 1);
      jobs += applied.jobs;
      if (applied.jobs > 0) this.deps.onQueued();
    });
    const summary = [...counts].map(([action, n]) => `${action} ${n}`).join(', ');
    return [
      `Evaluated ${teams} team${teams === 1 ? '' : 's'} as of ${day}: ${summary || 'nothing to do'}.`,
      ...(jobs > 0 ? [`Queued ${jobs} change${jobs === 1 ? '' : 's'}.`] : []),
      ...(outdated > 0
        ? [
            `${counted(outdated, 'team')} ${outdated === 1 ? 'differs' : 'differ'} from the current version of its template.`,
          ]
        : []),
    ];
  }

  async scheduleNext(): Promise<string> {
    const next = await this.ensureScheduled();
    return next ? `The next evaluation runs on ${next}.` : 'Daily evaluations are off.';
  }

  /**
   * Makes sure the next daily run is queued: its id names its day, so every worker of a cluster may
   * call this at start-up and one row results. Returns the run's day, or null when they are off.
   */
  async ensureScheduled(): Promise<string | null> {
    const minute = this.deps.dailyAtMinute;
    if (minute === null) return null;
    const now = this.deps.clock();
    const today = dayOf(new Date(now));
    const todayAt = Date.parse(`${today}T00:00:00.000Z`) + minute * 60_000;
    const day = now < todayAt ? today : addDays(today, 1);
    const runAt = Date.parse(`${day}T00:00:00.000Z`) + minute * 60_000;
    const data: LifecycleEvaluationData = { asOf: day, scheduled: true, requester: STEWARD };
    await this.deps.store.insertJobOnce(
      {
        id: scheduledEvaluationId(day),
        type: 'LifecycleEvaluation',
        queued: true,
        data,
        log: [`Daily lifecycle evaluation of ${day}.`],
        requesterId: STEWARD.id,
        runAt,
      },
      this.now(),
    );
    return day;
  }

  /** Queues an evaluation now (`POST /lifecycle/evaluations`), audited in the `lifecycle` trail. */
  async queue(caller: Caller): Promise<Job> {
    const requester = { id: caller.id, displayName: caller.name ?? caller.id };
    const data: LifecycleEvaluationData = { scheduled: false, requester };
    const now = this.now();
    const job = await this.deps.db.transaction().execute(async (trx) => {
      const stored = await this.deps.jobs.insert(
        {
          id: randomUUID(),
          type: 'LifecycleEvaluation',
          queued: true,
          data,
          log: [`Lifecycle evaluation requested by ${requester.displayName}.`],
          requesterId: caller.id,
        },
        now,
        trx,
      );
      await this.deps.audit.record(
        trx,
        callerRecord(caller, {
          trail: 'lifecycle',
          action: 'evaluation_requested',
          target: { type: 'job', id: stored.id },
        }),
        now,
      );
      return stored;
    });
    this.deps.onQueued();
    return this.deps.jobTypes.wire(job, await this.deps.jobs.isPaused());
  }

  private now(): Date {
    return new Date(this.deps.clock());
  }
}
