import type { LifecyclePolicy, TeamLifecycleState } from '../../contract/lifecycle';
import { addDays, dayOf, daysBetween, laterDay } from './dates';
import { decisionAbout, type LifecycleDecision } from './decision';
import { decideOwnership } from './ownership';

/** What the platform says of a team, as the evaluator reads it. */
export interface LifecycleFacts {
  teamId: string;
  displayName: string;
  createdDateTime: string;
  isArchived: boolean;
  /** The day of the team's last activity the platform knows of, or null. */
  lastActivityDate: string | null;
  ownerIds: readonly string[];
  guestIds: readonly string[];
}

/** What earlier evaluations and renewals left for a team (its `team_lifecycle` row). */
export interface LifecycleRecord {
  renewals: number;
  /** The day of the last renewal: expiry counts from it instead of the creation. */
  renewedOn: string | null;
  /** The renewal notices sent, as `expiresOn:days`, so each goes out once per expiry date. */
  noticesSent: readonly string[];
  /** The expiry date the expiry action was taken for. */
  expiredFor: string | null;
  /** The last-activity day the inactivity action was taken for. */
  inactiveFor: string | null;
  /** Since when the team has had fewer owners than the policy asks (reported once per spell). */
  ownerlessSince: string | null;
  /** The day governance managers were told nobody stepped up (`askMembers`), once per spell. */
  ownerlessEscalatedOn: string | null;
  /** The day of the last guest review, and the due date already announced. */
  guestReviewedOn: string | null;
  guestReviewDueFor: string | null;
}

export const EMPTY_LIFECYCLE_RECORD: LifecycleRecord = {
  renewals: 0,
  renewedOn: null,
  noticesSent: [],
  expiredFor: null,
  inactiveFor: null,
  ownerlessSince: null,
  ownerlessEscalatedOn: null,
  guestReviewedOn: null,
  guestReviewDueFor: null,
};

/** Where a team stands on `asOf`, what to do about it, and the record to keep afterwards. */
export interface LifecycleEvaluation {
  state: TeamLifecycleState;
  expiresOn: string | null;
  /** The day activity is counted from: the platform's last activity, the creation or the last renewal. */
  lastActiveOn: string;
  /** The day the team counts as inactive, when the policy watches inactivity. */
  inactiveOn: string | null;
  /** The day its guests are (or were) due for review, when the policy asks and it has guests. */
  guestReviewDueOn: string | null;
  decisions: LifecycleDecision[];
  next: LifecycleRecord;
}

/**
 * Decides what the lifecycle policy asks for a team on `asOf` (`YYYY-MM-DD`): the same function
 * serves the evaluator, its preview and a team's pending actions, so what the preview shows is what
 * an evaluation on that day does. Pure: each action is taken once, because `next` records it.
 */
export function decideLifecycle(
  policy: LifecyclePolicy,
  facts: LifecycleFacts,
  record: LifecycleRecord,
  asOf: string,
  permanentOwnerIds: readonly string[] = [],
): LifecycleEvaluation {
  const created = dayOf(facts.createdDateTime);
  const lastActiveOn = laterDay(laterDay(facts.lastActivityDate, record.renewedOn), created) ?? created;
  const expiresOn = policy.expiration.enabled
    ? addDays(record.renewedOn ?? created, policy.expiration.days)
    : null;
  const inactiveOn = policy.inactivity.enabled ? addDays(lastActiveOn, policy.inactivity.days) : null;
  const guestReviewDueOn =
    policy.guestReview.enabled && facts.guestIds.length > 0
      ? addDays(record.guestReviewedOn ?? created, policy.guestReview.everyDays)
      : null;
  const dates = { expiresOn, lastActiveOn, inactiveOn, guestReviewDueOn };
  if (facts.isArchived) {
    return { state: 'archived', ...dates, decisions: [], next: record };
  }
  // eslint-disable-next-line no-restricted-syntax -- replaces a field the record has, adds none
  const next: LifecycleRecord = { ...record, noticesSent: [...record.noticesSent] };
  const decisions: LifecycleDecision[] = [];
  const states = new Set<TeamLifecycleState>();

  if (expiresOn !== null) {
    const remaining = daysBetween(asOf, expiresOn);
    if (remaining <= 0) {
      states.add('expired');
      if (record.expiredFor !== expiresOn) {
        const outcome = policy.expiration.onExpiry;
        decisions.push(
          decisionAbout(facts, {
            action: 'expire',
            outcome,
            dueOn: expiresOn,
            reason: `Expired on ${expiresOn} without a renewal${outcome === 'none' ? '' : `: ${outcome}`}.`,
          }),
        );
        next.expiredFor = expiresOn;
      }
    } else {
      const due = policy.expiration.renewalNoticeDays.filter((days) => remaining <= days);
      if (due.length > 0) states.add('expiring');
      const unsent = due.filter((days) => !record.noticesSent.includes(`${expiresOn}:${days}`));
      if (unsent.length > 0) {
        // Only the most urgent notice goes out; the earlier ones it makes moot are marked sent.
        const days = Math.min(...unsent);
        decisions.push(
          decisionAbout(facts, {
            action: 'renewalNotice',
            noticeDays: days,
            dueOn: addDays(expiresOn, -days),
            reason: `Expires on ${expiresOn}, in ${remaining} day${remaining === 1 ? '' : 's'}.`,
          }),
        );
        next.noticesSent = [
          ...record.noticesSent.filter((key) => key.startsWith(`${expiresOn}:`)),
          ...unsent.map((d) => `${expiresOn}:${d}`),
        ];
      }
    }
  }

  if (inactiveOn !== null) {
    if (asOf >= inactiveOn) {
      states.add('inactive');
      if (record.inactiveFor !== lastActiveOn) {
        const archive = policy.inactivity.onInactive === 'archive';
        const removedByExpiry = decisions.some((d) => d.action === 'expire' && d.outcome !== 'none');
        // An expiry that archives or deletes the team already does what an inactivity archive would.
        if (!(archive && removedByExpiry)) {
          decisions.push(
            decisionAbout(facts, {
              action: archive ? 'inactivityArchive' : 'inactivityNotice',
              outcome: archive ? 'archive' : 'notify',
              dueOn: inactiveOn,
              reason: `No activity since ${lastActiveOn} (${policy.inactivity.days} days allowed).`,
            }),
          );
        }
        next.inactiveFor = lastActiveOn;
      }
    }
  }

  const ownership = decideOwnership(
    policy.ownership,
    { teamId: facts.teamId, displayName: facts.displayName, ownerCount: facts.ownerIds.length },
    record,
    asOf,
  );
  if (ownership.ownerless) states.add('ownerless');
  if (ownership.decision) decisions.push(ownership.decision);
  Object.assign(next, ownership.next);

  if (guestReviewDueOn !== null) {
    const dueOn = guestReviewDueOn;
    if (asOf >= dueOn && record.guestReviewDueFor !== dueOn) {
      const guests = facts.guestIds.length;
      decisions.push(
        decisionAbout(facts, {
          action: 'guestReview',
          dueOn,
          reason: `${guests} guest${guests === 1 ? '' : 's'} to review (every ${policy.guestReview.everyDays} days).`,
        }),
      );
      next.guestReviewDueFor = dueOn;
    }
  }

  const missing = permanentOwnerIds.filter((id) => !facts.ownerIds.includes(id));
  if (missing.length > 0 && !decisions.some((d) => d.action === 'expire' && d.outcome === 'delete')) {
    decisions.push(
      decisionAbout(facts, {
        action: 'restoreOwners',
        dueOn: asOf,
        missingOwnerIds: missing,
        reason: `${missing.length} permanent owner${missing.length === 1 ? ' was' : 's were'} removed.`,
      }),
    );
  }

  const state =
    (['expired', 'ownerless', 'inactive', 'expiring'] as const).find((s) => states.has(s)) ?? 'active';
  return { state, ...dates, decisions, next };
}

/** True when `next` differs from `record` (the row needs writing). */
export function recordChanged(record: LifecycleRecord, next: LifecycleRecord): boolean {
  return JSON.stringify(record) !== JSON.stringify(next);
}

/** The record after the owners renew the team on `day`: expiry counts from then, notices start over. */
export function renewedRecord(record: LifecycleRecord, day: string): LifecycleRecord {
  // eslint-disable-next-line no-restricted-syntax -- replaces fields the record has, adds none
  return { ...record, renewals: record.renewals + 1, renewedOn: day, noticesSent: [] };
}
