import type { LifecycleOwnership } from '../../contract/lifecycle';
import { addDays } from './dates';
import { decisionAbout, type LifecycleDecision } from './decision';

/** What the record keeps of a spell without enough owners. */
export interface OwnershipRecord {
  /** Since when the team has had fewer owners than the policy asks; null while it has enough. */
  ownerlessSince: string | null;
  /** The day governance managers were told that nobody stepped up, once per spell. */
  ownerlessEscalatedOn: string | null;
}

/** A team's ownership on `asOf`: whether it has no owner at all, the decision due, the record after it. */
export interface OwnershipEvaluation {
  ownerless: boolean;
  decision?: LifecycleDecision;
  next: OwnershipRecord;
}

/**
 * A spell without enough owners is announced once, when it starts, with the policy's `onOwnerless`.
 * When that asked the members to step up and the team is still short `askMembersDays` later,
 * governance managers are told once more (`notifyGovernance`); a team that got its owners back
 * starts a new spell next time.
 */
export function decideOwnership(
  ownership: LifecycleOwnership,
  team: { teamId: string; displayName: string; ownerCount: number },
  record: OwnershipRecord,
  asOf: string,
): OwnershipEvaluation {
  const { minimumOwners, onOwnerless, askMembersDays } = ownership;
  const owners = team.ownerCount;
  if (owners >= minimumOwners) {
    return { ownerless: false, next: { ownerlessSince: null, ownerlessEscalatedOn: null } };
  }
  const ownerless = owners === 0;
  const shortBy =
    owners === 0
      ? 'The team has no owner'
      : `The team has ${owners} owner${owners === 1 ? '' : 's'}; the policy asks for ${minimumOwners}`;
  const since = record.ownerlessSince;
  if (since === null) {
    return {
      ownerless,
      decision: decisionAbout(team, {
        action: 'ownerless',
        outcome: onOwnerless,
        dueOn: asOf,
        reason: `${shortBy}.`,
      }),
      next: { ownerlessSince: asOf, ownerlessEscalatedOn: null },
    };
  }
  const escalateOn = addDays(since, askMembersDays);
  if (onOwnerless === 'askMembers' && record.ownerlessEscalatedOn === null && asOf >= escalateOn) {
    return {
      ownerless,
      decision: decisionAbout(team, {
        action: 'ownerless',
        outcome: 'notifyGovernance',
        dueOn: escalateOn,
        ownerlessSince: since,
        reason: `${shortBy}, and no member stepped up in the ${askMembersDays} day${askMembersDays === 1 ? '' : 's'} since they were asked on ${since}.`,
      }),
      next: { ownerlessSince: since, ownerlessEscalatedOn: asOf },
    };
  }
  return { ownerless, next: { ownerlessSince: since, ownerlessEscalatedOn: record.ownerlessEscalatedOn } };
}
