import type { LifecycleEvaluation, LifecycleFacts } from './decide';

/**
 * Where a team stood at its last evaluation, kept beside its record so the lifecycle report counts
 * expiring, expired, inactive and overdue teams by date ranges in Steward's database, without
 * reading 100 000 teams from the platform.
 */
export interface LifecycleStanding {
  displayName: string;
  isArchived: boolean;
  expiresOn: string | null;
  inactiveOn: string | null;
  guestReviewDueOn: string | null;
}

export function standingOf(facts: LifecycleFacts, evaluation: LifecycleEvaluation): LifecycleStanding {
  return {
    displayName: facts.displayName,
    isArchived: facts.isArchived,
    expiresOn: evaluation.expiresOn,
    inactiveOn: evaluation.inactiveOn,
    guestReviewDueOn: evaluation.guestReviewDueOn,
  };
}

/** True when `next` differs from what is stored (never evaluated counts as different). */
export function standingChanged(stored: LifecycleStanding | null, next: LifecycleStanding): boolean {
  return (
    stored === null ||
    stored.displayName !== next.displayName ||
    stored.isArchived !== next.isArchived ||
    stored.expiresOn !== next.expiresOn ||
    stored.inactiveOn !== next.inactiveOn ||
    stored.guestReviewDueOn !== next.guestReviewDueOn
  );
}
