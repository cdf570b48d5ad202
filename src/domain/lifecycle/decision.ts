import type { LifecycleDecision } from './decide';

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
