import { createHash, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { callerRecord } from '../../domain/audit';
import type { Caller } from '../../domain/caller';
import { Conflict, Forbidden, ValidationFailed } from '../../domain/errors';
import { addDays, dayOf } from '../../domain/lifecycle/dates';
import type { GuestReview, GuestReviewInput, OwnershipStepUp } from '../../contract';
import type { TeamsPlatform } from '../../platform/port';
import { isUniqueViolation } from '../../store/dialect';
import type { GuestReviewRecords } from '../../store/lifecycle/guestReviews';
import type { JobRepository } from '../../store/jobs/jobs';
import type { Database } from '../../store/schema';
import type { AuditLog } from '../audit/audit';
import type { DirectoryService } from '../directory/directory';
import type { LifecycleChangeData } from './lifecycleChangeJob';
import { TeamAccess, teamNotFound } from '../access/teamAccess';
import type { LifecycleWalker, TeamDecision } from './walker';

type Person = { id: string; displayName: string };

/**
 * The job that makes the member who stepped up an owner: its id names the team and the day it was
 * found short of owners, so of two members who accept at once the second insert fails on the
 * primary key, in any process, and the team gets one owner per episode, not one per click.
 */
export function stepUpJobId(teamId: string, ownerlessSince: string): string {
  const digest = createHash('sha256').update(`${teamId}\n${ownerlessSince}`).digest('hex');
  return `lifecycle-step-up-${digest.slice(0, 40)}`;
}

/** What names a guest review: its day and the guests it removes, in any order. */
function guestReviewKey(day: string, removing: ReadonlySet<string>): string {
  return createHash('sha256')
    .update([day, ...[...removing].sort()].join('\n'))
    .digest('hex');
}

/**
 * What people answer to the lifecycle's cards: a member steps up as owner of a team short of
 * owners, an owner reviews the team's guests. Changes to the tenant are `LifecycleChange` jobs,
 * so they run through the worker and the Graph budget like every other change.
 */
export class LifecycleResponses {
  private readonly access: TeamAccess;

  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      jobs: JobRepository;
      audit: AuditLog;
      walker: LifecycleWalker;
      teams: TeamsPlatform;
      directory: DirectoryService;
      reviews: GuestReviewRecords;
      now: () => Date;
      onQueued: () => void;
    },
  ) {
    this.access = new TeamAccess(deps.teams);
  }

  /**
   * The caller, a member of the team, becomes an owner (by a job). Refused with 409, naming who,
   * when someone already stepped up since the team was found short of owners, and when the team
   * has the owners its policy asks for; guests may not own a team (403).
   */
  async stepUp(caller: Caller, teamId: string): Promise<OwnershipStepUp> {
    const me = (await this.access.membersOf(teamId)).find((m) => m.userId === caller.id);
    if (!me) throw teamNotFound(teamId);
    const today = dayOf(this.deps.now());
    const { facts, teamPolicy, stored } = await this.decided(teamId, today);
    const name = facts.displayName;
    if (facts.guestIds.includes(caller.id)) throw new Forbidden('Guests cannot become owners of a team.');
    if (facts.isArchived) throw new Conflict(`"${name}" is archived: unarchive it first.`);
    const ownerlessSince = stored?.record.ownerlessSince ?? today;
    const jobId = stepUpJobId(teamId, ownerlessSince);
    await this.refuseSecondStepUp(jobId, name);
    if (me.roles.includes('owner')) throw new Conflict(`You are already an owner of "${name}".`);
    const minimum = teamPolicy.policy.ownership.minimumOwners;
    if (facts.ownerIds.length >= minimum)
      throw new Conflict(`"${name}" already has the ${minimum} owner(s) its policy asks for.`);
    const owner = { id: caller.id, displayName: caller.name || me.displayName || caller.id };
    const team = { id: teamId, displayName: name };
    const data: LifecycleChangeData = {
      action: 'stepUp',
      team,
      owner,
      reason: `${owner.displayName} stepped up as owner (short of owners since ${ownerlessSince}).`,
    };
    const now = this.deps.now();
    try {
      await this.deps.db.transaction().execute(async (trx) => {
        const log = [`${owner.displayName} steps up as owner of "${name}".`];
        await this.deps.jobs.insert(
          { id: jobId, type: 'LifecycleChange', queued: true, data, log, requesterId: caller.id, teamId },
          now,
          trx,
        );
        await this.deps.audit.record(
          trx,
          callerRecord(caller, {
            trail: 'lifecycle',
            action: 'owner_step_up',
            target: { type: 'team', ...team },
            details: { ownerlessSince, jobId },
          }),
          now,
        );
      });
    } catch (error) {
      // Another member's step-up committed between the check and this insert.
      if (isUniqueViolation(error)) await this.refuseSecondStepUp(jobId, name);
      throw error;
    }
    this.deps.onQueued();
    return { teamId, displayName: name, owner, ownerlessSince, jobId };
  }

  /**
   * An owner's guest review: the guests in `remove` are removed (by a job), the others kept, and the
   * review is recorded, so the next one is due the policy's `everyDays` after today. Ids that are
   * not guests of the team are refused whole (400), nothing recorded. The same review again on the
   * same day (the same guests removed) answers with the review recorded, and records nothing.
   */
  async reviewGuests(caller: Caller, teamId: string, input: GuestReviewInput): Promise<GuestReview> {
    await this.access.requireRelation(caller, teamId, 'owner');
    const today = dayOf(this.deps.now());
    const { facts, teamPolicy } = await this.decided(teamId, today);
    if (facts.isArchived) throw new Conflict(`"${facts.displayName}" is archived: unarchive it first.`);
    const guests = new Set(facts.guestIds);
    const problems = input.remove
      .map((id, index) => ({ id, index }))
      .filter(({ id }) => !guests.has(id))
      .map(({ id, index }) => ({
        code: 'notAGuest' as const,
        target: `remove[${index}]`,
        message: `${id} is not a guest of "${facts.displayName}".`,
      }));
    if (problems.length > 0) throw new ValidationFailed('Only guests of the team can be removed.', problems);
    const names = new Map((await this.access.membersOf(teamId)).map((m) => [m.userId, m.displayName]));
    const person = (id: string): Person => ({ id, displayName: names.get(id) || id });
    const removing = new Set(input.remove);
    const removed = [...removing].map(person);
    const kept = facts.guestIds.filter((id) => !removing.has(id)).map(person);
    const reviewedBy = { id: caller.id, displayName: caller.name || names.get(caller.id) || caller.id };
    const team = { id: teamId, displayName: facts.displayName };
    const jobId = removed.length > 0 ? randomUUID() : null;
    const review = teamPolicy.policy.guestReview;
    const answer: GuestReview = {
      teamId,
      reviewedOn: today,
      reviewedBy,
      nextReviewOn: review.enabled ? addDays(today, review.everyDays) : null,
      kept,
      removed,
      jobId,
    };
    // The same review again (the same day, the same guests removed: a second press, another owner
    // at the same moment) is the one recorded: its answer, no second record or job.
    const key = guestReviewKey(today, removing);
    const now = this.deps.now();
    const outcome = await this.deps.db.transaction().execute(async (trx) => {
      const written = await this.deps.reviews.recordReview(teamId, today, { key, answer }, now, trx);
      if (!written.recorded) return { answer: written.answer, queued: false };
      await this.deps.audit.record(
        trx,
        callerRecord(caller, {
          trail: 'lifecycle',
          action: 'guest_review_completed',
          target: { type: 'team', ...team },
          details: { kept: kept.map((g) => g.id), removed: removed.map((g) => g.id), jobId },
        }),
        now,
      );
      if (!jobId) return { answer, queued: false };
      const data: LifecycleChangeData = {
        action: 'removeGuests',
        team,
        guests: removed,
        reviewer: reviewedBy,
        reason: `Guest review by ${reviewedBy.displayName} on ${today}.`,
      };
      const log = [
        `Removing ${removed.length} guest(s) of "${team.displayName}" after ${reviewedBy.displayName}'s review.`,
      ];
      await this.deps.jobs.insert(
        { id: jobId, type: 'LifecycleChange', queued: true, data, log, requesterId: caller.id, teamId },
        now,
        trx,
      );
      return { answer, queued: true };
    });
    if (outcome.queued) this.deps.onQueued();
    return outcome.answer;
  }

  private async decided(teamId: string, today: string): Promise<TeamDecision> {
    const decided = await this.deps.walker.one(teamId, today);
    if (!decided) throw teamNotFound(teamId);
    return decided;
  }

  /** A 409 naming who stepped up, when the step-up of this episode is taken. */
  private async refuseSecondStepUp(jobId: string, teamName: string): Promise<void> {
    const job = await this.deps.jobs.get(jobId);
    if (!job) return;
    const owner = (job.data as { owner?: Partial<Person> }).owner;
    throw new Conflict(
      `${owner?.displayName || 'Another member'} already stepped up as owner of "${teamName}".`,
    );
  }
}
