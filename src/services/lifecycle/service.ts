import type { Kysely } from 'kysely';
import { callerRecord } from '../../domain/audit';
import type { Caller } from '../../domain/caller';
import { Conflict, ValidationFailed } from '../../domain/errors';
import { addDays, dayOf, laterDay } from '../../domain/lifecycle/dates';
import { EMPTY_LIFECYCLE_RECORD, renewedRecord } from '../../domain/lifecycle/decide';
import { lifecyclePolicyProblems } from '../../domain/lifecycle/policy';
import { standingOf } from '../../domain/lifecycle/standing';
import type {
  LifecycleAction,
  LifecyclePolicy,
  LifecyclePreview,
  LifecycleRenewal,
  TeamLifecycle,
} from '../../contract';
import type { TeamsPlatform } from '../../platform/port';
import type { LifecycleRepository } from '../../store/lifecycle/lifecycle';
import type { Database } from '../../store/schema';
import type { AuditLog } from '../audit/audit';
import type { EventBus } from '../webhooks/events';
import { TeamAccess, teamNotFound } from '../access/teamAccess';
import { tenantPolicy } from './policies';
import type { TeamDecision, LifecycleWalker } from './walker';

/**
 * Lifecycle governance as the API offers it: the tenant policy, a team's lifecycle and its renewal,
 * and the preview of an evaluation. Evaluations themselves are jobs (`evaluations.ts`).
 */
export class LifecycleService {
  private readonly access: TeamAccess;

  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      store: LifecycleRepository;
      walker: LifecycleWalker;
      teams: TeamsPlatform;
      audit: AuditLog;
      events: EventBus;
      now: () => Date;
    },
  ) {
    this.access = new TeamAccess(deps.teams);
  }

  /** The tenant's default policy (for teams no template governs). */
  policy(): Promise<LifecyclePolicy> {
    return tenantPolicy(this.deps.store);
  }

  /** Replaces the tenant's default policy, audited in the `lifecycle` trail. */
  async setPolicy(caller: Caller, policy: LifecyclePolicy): Promise<LifecyclePolicy> {
    const problems = lifecyclePolicyProblems(policy, 'body');
    if (problems.length > 0) throw new ValidationFailed('The lifecycle policy is not valid.', problems);
    const now = this.deps.now();
    await this.deps.db.transaction().execute(async (trx) => {
      await this.deps.store.setTenantPolicy(policy, trx);
      await this.deps.audit.record(
        trx,
        callerRecord(caller, {
          trail: 'lifecycle',
          action: 'tenant_policy_set',
          target: { type: 'lifecyclePolicy', id: 'tenant' },
          details: { policy },
        }),
        now,
      );
    });
    return policy;
  }

  /** A team's lifecycle today: its owners, or the admin set. */
  async team(caller: Caller, teamId: string): Promise<TeamLifecycle> {
    await this.access.requireRelation(caller, teamId, 'owner');
    const decided = await this.deps.walker.one(teamId, dayOf(this.deps.now()));
    if (!decided) throw teamNotFound(teamId);
    return teamLifecycle(decided);
  }

  /** Renews a team for the policy's days from today: its owners, governance managers and admins. */
  async renew(caller: Caller, teamId: string): Promise<LifecycleRenewal> {
    await this.access.requireRelation(caller, teamId, 'owner');
    const today = dayOf(this.deps.now());
    const decided = await this.deps.walker.one(teamId, today);
    if (!decided) throw teamNotFound(teamId);
    const { facts, teamPolicy } = decided;
    if (facts.isArchived) throw new Conflict(`"${facts.displayName}" is archived: unarchive it first.`);
    if (!teamPolicy.policy.expiration.enabled)
      throw new Conflict(`The lifecycle policy of "${facts.displayName}" does not expire teams.`);
    const expiresOn = addDays(today, teamPolicy.policy.expiration.days);
    const now = this.deps.now();
    const team = { id: facts.teamId, displayName: facts.displayName };
    const { renewals, events } = await this.deps.db.transaction().execute(async (trx) => {
      const stored = await this.deps.store.lock(teamId, trx);
      const record = renewedRecord(stored?.record ?? EMPTY_LIFECYCLE_RECORD, today);
      await this.deps.store.save([{ teamId, record, renewedBy: caller.id }], null, now, trx);
      // The report counts from the standing: it moves with the renewal (which counts as activity).
      const before = standingOf(facts, decided.evaluation);
      const inactiveOn =
        before.inactiveOn === null
          ? null
          : laterDay(before.inactiveOn, addDays(today, teamPolicy.policy.inactivity.days));
      const standing = { ...before, expiresOn, inactiveOn };
      await this.deps.store.saveStanding([{ teamId, standing }], now, trx);
      await this.deps.audit.record(
        trx,
        callerRecord(caller, {
          trail: 'lifecycle',
          action: 'team_renewed',
          target: { type: 'team', ...team },
          details: { expiresOn, renewals: record.renewals },
        }),
        now,
      );
      const renewedBy = { id: caller.id, displayName: caller.name ?? caller.id };
      const payload = { team, requester: renewedBy, lifecycle: { expiresOn, renewals: record.renewals } };
      return {
        renewals: record.renewals,
        events: [await this.deps.events.record(trx, 'team_renewed', payload, now)],
      };
    });
    this.deps.events.publish(events);
    return { teamId, expiresOn, renewals, renewedOn: today };
  }

  /** What an evaluation on `asOf` would do, writing nothing; the first `top` actions, and how many in all. */
  async preview(asOf: string, top: number): Promise<LifecyclePreview> {
    const value: LifecycleAction[] = [];
    let count = 0;
    const teamsEvaluated = await this.deps.walker.walk(asOf, async (page) => {
      for (const team of page) {
        for (const decision of team.evaluation.decisions) {
          count++;
          if (value.length < top) value.push(wireAction(decision));
        }
      }
    });
    return { asOf, teamsEvaluated, '@odata.count': count, truncated: count > value.length, value };
  }
}

function wireAction(decision: LifecycleAction): LifecycleAction {
  const { teamId, displayName, action, reason, dueOn, outcome } = decision;
  return { teamId, displayName, action, reason, dueOn, ...(outcome ? { outcome } : {}) };
}

function teamLifecycle({ facts, teamPolicy, stored, evaluation }: TeamDecision): TeamLifecycle {
  const record = stored?.record ?? EMPTY_LIFECYCLE_RECORD;
  return {
    teamId: facts.teamId,
    displayName: facts.displayName,
    policySource: teamPolicy.source,
    templateId: teamPolicy.templateId,
    policy: teamPolicy.policy,
    state: evaluation.state,
    createdDateTime: facts.createdDateTime,
    expiresOn: evaluation.expiresOn,
    lastActivityDateTime: facts.lastActivityDate,
    renewals: record.renewals,
    lastRenewedDateTime: record.renewedOn,
    ownerCount: facts.ownerIds.length,
    guestCount: facts.guestIds.length,
    pendingActions: evaluation.decisions.map(wireAction),
  };
}
