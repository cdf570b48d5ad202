import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import { type AuditEntry, SYSTEM_ACTOR } from '../../domain/audit';
import { EMPTY_LIFECYCLE_RECORD, recordChanged } from '../../domain/lifecycle/decide';
import type { LifecycleDecision } from '../../domain/lifecycle/decision';
import { standingChanged, standingOf } from '../../domain/lifecycle/standing';
import type { LifecycleActionKind } from '../../contract/lifecycle';
import type { EventType } from '../../contract/events';
import type { JobRepository } from '../../store/jobs/jobs';
import type { LifecycleRepository } from '../../store/lifecycle/lifecycle';
import type { Database } from '../../store/schema';
import type { AuditLog } from '../audit/audit';
import type { EventBus, StewardEvent } from '../webhooks/events';
import type { LifecycleChangeData } from './lifecycleChangeJob';
import type { ArchiveData } from '../jobData/archiveData';
import type { TeamDecision } from './walker';

/** The `lifecycle` trail's action for each decision. */
const RECORDED_AS: Readonly<Record<LifecycleActionKind, string>> = {
  renewalNotice: 'renewal_notice',
  expire: 'team_expired',
  inactivityNotice: 'inactivity_notice',
  inactivityArchive: 'inactive_team_archive',
  ownerless: 'team_ownerless',
  guestReview: 'guest_review_due',
  restoreOwners: 'permanent_owners_restore',
};

/** The webhook event of each decision (restoring owners is a repair, recorded but not announced). */
const ANNOUNCED_AS: Readonly<Record<LifecycleActionKind, EventType | undefined>> = {
  renewalNotice: 'team_expiring',
  expire: 'team_expired',
  inactivityNotice: 'team_inactive',
  inactivityArchive: 'team_inactive',
  ownerless: 'team_ownerless',
  guestReview: 'team_guest_review_due',
  restoreOwners: undefined,
};

/** Steward itself, as the requester of the changes its evaluator makes. */
const STEWARD = { id: SYSTEM_ACTOR.id, displayName: SYSTEM_ACTOR.displayName ?? 'Steward' };

/** What one page's decisions came to. */
export interface AppliedPage {
  events: StewardEvent[];
  decisions: number;
  jobs: number;
}

/**
 * Carries out a page of decisions in one transaction: the teams' records (so each notice or action
 * happens once), an audit record and a webhook event per decision, and a job per change (archive,
 * delete, restore owners), which runs through the Graph budget like any job. A page either happens
 * whole or not at all, so an evaluation taken over after a crash redoes only what did not commit.
 */
export class LifecycleActions {
  constructor(
    private readonly deps: {
      jobs: JobRepository;
      audit: AuditLog;
      events: EventBus;
      store: LifecycleRepository;
    },
  ) {}

  async apply(
    trx: Transaction<Database>,
    page: TeamDecision[],
    asOf: string,
    now: Date,
    evaluationId: string,
  ): Promise<AppliedPage> {
    const changed = page
      .filter((team) => recordChanged(team.stored?.record ?? EMPTY_LIFECYCLE_RECORD, team.evaluation.next))
      .map((team) => ({ teamId: team.facts.teamId, record: team.evaluation.next }));
    await this.deps.store.save(changed, asOf, now, trx);
    const moved = page
      .map((team) => ({ teamId: team.facts.teamId, standing: standingOf(team.facts, team.evaluation) }))
      .filter((row, i) => standingChanged(page[i]!.stored?.standing ?? null, row.standing));
    await this.deps.store.saveStanding(moved, now, trx);
    const announced: Array<{ type: EventType; payload: Record<string, unknown> }> = [];
    const records: AuditEntry[] = [];
    let jobs = 0;
    for (const team of page) {
      for (const decision of team.evaluation.decisions) {
        records.push(this.record(team, decision, asOf, evaluationId));
        const type = ANNOUNCED_AS[decision.action];
        if (type) announced.push({ type, payload: this.payload(team, decision) });
        if (await this.queueChange(trx, team, decision, now)) jobs++;
      }
    }
    // A few statements for the page's records (and the trail's day count) and for its events.
    await this.deps.audit.record(trx, records, now);
    const events = await this.deps.events.recordAll(trx, announced, now);
    return { events, decisions: records.length, jobs };
  }

  private record(
    team: TeamDecision,
    decision: LifecycleDecision,
    asOf: string,
    evaluationId: string,
  ): AuditEntry {
    return {
      trail: 'lifecycle',
      action: RECORDED_AS[decision.action],
      actor: SYSTEM_ACTOR,
      target: { type: 'team', id: team.facts.teamId, displayName: team.facts.displayName },
      outcome: 'success',
      requestId: null,
      details: {
        reason: decision.reason,
        dueOn: decision.dueOn,
        asOf,
        evaluation: evaluationId,
        policy: team.teamPolicy.source,
        ...(team.teamPolicy.templateId ? { templateId: team.teamPolicy.templateId } : {}),
        ...(decision.outcome ? { outcome: decision.outcome } : {}),
        ...(decision.missingOwnerIds ? { owners: decision.missingOwnerIds } : {}),
        ...(decision.ownerlessSince ? { ownerlessSince: decision.ownerlessSince } : {}),
      },
    };
  }

  private payload(team: TeamDecision, decision: LifecycleDecision): Record<string, unknown> {
    return {
      team: { id: team.facts.teamId, displayName: team.facts.displayName },
      lifecycle: {
        action: decision.action,
        reason: decision.reason,
        dueOn: decision.dueOn,
        state: team.evaluation.state,
        expiresOn: team.evaluation.expiresOn,
        lastActivityDate: team.evaluation.lastActiveOn,
        ownerCount: team.facts.ownerIds.length,
        guestCount: team.facts.guestIds.length,
        // Who the bot talks to about it: the owners (renewal, inactivity, guest review) and the guests.
        ownerIds: team.facts.ownerIds,
        guestIds: team.facts.guestIds,
        ...(decision.outcome ? { outcome: decision.outcome } : {}),
        ...(decision.noticeDays ? { noticeDays: decision.noticeDays } : {}),
        // Governance told after the members were asked: since when nobody stepped up.
        ...(decision.ownerlessSince ? { ownerlessSince: decision.ownerlessSince } : {}),
      },
    };
  }

  /** Queues the job that makes the decision's change, if it makes one; true when it queued. */
  private async queueChange(
    trx: Transaction<Database>,
    team: TeamDecision,
    decision: LifecycleDecision,
    now: Date,
  ): Promise<boolean> {
    const target = { id: team.facts.teamId, displayName: team.facts.displayName };
    const archive =
      decision.outcome === 'archive' &&
      (decision.action === 'expire' || decision.action === 'inactivityArchive');
    // Spread last: `{ ...common, type, … }` would outlive young-generation collections (see decisionAbout).
    const common = { id: randomUUID(), queued: true, requesterId: STEWARD.id, teamId: target.id };
    if (archive) {
      const data: ArchiveData = {
        action: 'archive',
        team: target,
        requester: STEWARD,
        shouldSetSpoSiteReadOnlyForMembers: false,
      };
      const log = [`Archiving "${target.displayName}": ${decision.reason}`];
      await this.deps.jobs.insert({ type: 'TeamArchiveRequest', data, log, ...common }, now, trx);
      return true;
    }
    const change: LifecycleChangeData | undefined =
      decision.action === 'expire' && decision.outcome === 'delete'
        ? { action: 'delete', team: target, reason: decision.reason }
        : decision.action === 'restoreOwners'
          ? {
              action: 'restoreOwners',
              team: target,
              reason: decision.reason,
              ownerIds: decision.missingOwnerIds ?? [],
            }
          : undefined;
    if (!change) return false;
    const log = [
      `${change.action === 'delete' ? 'Deleting' : 'Restoring the permanent owners of'} "${target.displayName}": ${decision.reason}`,
    ];
    await this.deps.jobs.insert({ type: 'LifecycleChange', data: change, log, ...common }, now, trx);
    return true;
  }
}
