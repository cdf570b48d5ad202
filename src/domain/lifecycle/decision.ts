import type { LifecycleAction } from '../../contract/lifecycle';

/** One decision, with what carrying it out needs beyond the wire's action. */
export interface LifecycleDecision extends LifecycleAction {
  /** For `restoreOwners`: the permanent owners the team lacks. */
  missingOwnerIds?: string[];
  /** For `renewalNotice`: the days before expiry it announces. */
  noticeDays?: number;
  /** For `ownerless` telling governance after the members were asked: since when (the day they were asked). */
  ownerlessSince?: string;
}

/**
 * A decision about `team`: its id and name first, then `what`. Written this way rather than as
 * `{ ...base, action, … }` because V8 keeps objects made by spreading an object and then adding
 * properties alive through young-generation collections: over 100 000 teams the evaluator's
 * decisions were promoted to the old generation by the tens of MiB (garbage that only a full
 * collection frees, which raised the process's memory); built as here they die young.
 */
export function decisionAbout(
  team: { teamId: string; displayName: string },
  what: Omit<LifecycleDecision, 'teamId' | 'displayName'>,
): LifecycleDecision {
  return { teamId: team.teamId, displayName: team.displayName, ...what };
}
