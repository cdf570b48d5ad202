import { counted } from '../../lib/counted';
import type { Transaction } from 'kysely';
import type { AuditEntry } from '../../domain/audit';
import { z } from 'zod';
import type { StepDefinition, StoredJob } from '../../domain/jobs';
import type { Database } from '../../store/schema';
import type { EventBus, StewardEvent } from '../webhooks/events';
import { type JobHandler, type JobRun, jobType, type StepName } from '../jobs/jobType';
import type { TeamsPlatform } from '../../platform/port';
import { teamRecord } from '../audit/teamRecord';

const Team = z.looseObject({ id: z.string(), displayName: z.string() });
const Person = Team;

/**
 * A change the lifecycle evaluator decided (delete an expired team, give a team back its permanent
 * owners), or one its people answered from a card (a member steps up as owner of an ownerless team,
 * an owner's guest review removes guests).
 */
export const LifecycleChangeData = z.discriminatedUnion('action', [
  z.looseObject({ action: z.literal('delete'), team: Team, reason: z.string() }),
  z.looseObject({
    action: z.literal('restoreOwners'),
    team: Team,
    reason: z.string(),
    ownerIds: z.array(z.string()).min(1),
  }),
  z.looseObject({ action: z.literal('stepUp'), team: Team, reason: z.string(), owner: Person }),
  z.looseObject({
    action: z.literal('removeGuests'),
    team: Team,
    reason: z.string(),
    guests: z.array(Person).min(1),
    reviewer: Person,
  }),
]);
export type LifecycleChangeData = z.output<typeof LifecycleChangeData>;

const CHANGE_STEPS = {
  delete: [
    { name: 'delete', title: 'Delete the team', weight: 90 },
    { name: 'finish', title: 'Finish', weight: 10 },
  ],
  restoreOwners: [
    { name: 'restoreOwners', title: 'Restore the permanent owners', weight: 90 },
    { name: 'finish', title: 'Finish', weight: 10 },
  ],
  stepUp: [
    { name: 'addOwner', title: 'Make the member an owner', weight: 90 },
    { name: 'finish', title: 'Finish', weight: 10 },
  ],
  removeGuests: [
    { name: 'removeGuests', title: 'Remove the guests', weight: 90 },
    { name: 'finish', title: 'Finish', weight: 10 },
  ],
} as const satisfies Record<LifecycleChangeData['action'], readonly StepDefinition[]>;
type ChangeStep = StepName<(typeof CHANGE_STEPS)[keyof typeof CHANGE_STEPS]>;

/** The `teams` trail's action when each change completes. */
const COMPLETED_AS: Readonly<Record<LifecycleChangeData['action'], string>> = {
  delete: 'team_deleted',
  restoreOwners: 'permanent_owners_restored',
  stepUp: 'owner_stepped_up',
  removeGuests: 'guests_removed',
};

/** What a lifecycle change's handler needs. */
export interface LifecycleChangeJobDeps {
  teams: TeamsPlatform;
  events: EventBus;
}

/** Carries out the change on the platform; its completion is recorded in the `teams` trail. */
class LifecycleChangeHandler implements JobHandler<LifecycleChangeData, ChangeStep> {
  readonly trail = 'lifecycle';

  constructor(private readonly deps: LifecycleChangeJobDeps) {}

  async run(run: JobRun<LifecycleChangeData, ChangeStep>): Promise<void> {
    const data = run.data;
    if (data.action === 'delete') {
      await run.step('delete', async () => {
        await this.deps.teams.deleteTeam(data.team.id);
        return { log: [`Deleted "${data.team.displayName}".`] };
      });
      return;
    }
    if (data.action === 'stepUp') {
      await run.step('addOwner', async () => {
        // Adding an owner twice is not an error, so a step run again after a crash changes nothing.
        await this.deps.teams.addMember(data.team.id, data.owner.id, 'owner');
        return { log: [`${data.owner.displayName} is now an owner of "${data.team.displayName}".`] };
      });
      return;
    }
    if (data.action === 'removeGuests') {
      await run.step('removeGuests', async () => {
        const log: string[] = [];
        for (const guest of data.guests) {
          // A guest already gone (an earlier attempt, or someone else) is not an error.
          const removed = await this.deps.teams.removeMember(data.team.id, guest.id);
          log.push(
            removed
              ? `Removed ${guest.displayName} from "${data.team.displayName}".`
              : `${guest.displayName} was no longer in "${data.team.displayName}".`,
          );
        }
        return { log };
      });
      return;
    }
    await run.step('restoreOwners', async () => {
      const owners = data.ownerIds.map((id) => ({ id, role: 'owner' as const }));
      const { added, changed } = await this.deps.teams.addMembers(data.team.id, owners);
      return {
        log: [`Restored ${counted(added + changed, 'permanent owner')} of "${data.team.displayName}".`],
      };
    });
  }

  async completed(
    job: StoredJob,
    data: LifecycleChangeData,
    trx: Transaction<Database>,
    now: Date,
    records: AuditEntry[],
  ): Promise<StewardEvent[]> {
    const details = {
      reason: data.reason,
      ...(data.action === 'restoreOwners' ? { owners: data.ownerIds } : {}),
      ...(data.action === 'stepUp' ? { owner: data.owner.id } : {}),
      ...(data.action === 'removeGuests'
        ? { guests: data.guests.map((g) => g.id), reviewer: data.reviewer.id }
        : {}),
    };
    records.push(teamRecord(COMPLETED_AS[data.action], data.team, job, details));
    if (data.action !== 'delete') return [];
    const payload = {
      team: data.team,
      requester: { id: job.requesterId },
      lifecycle: { reason: data.reason },
    };
    return [await this.deps.events.record(trx, 'team_deleted', payload, now)];
  }

  async failed(): Promise<StewardEvent[]> {
    return [];
  }
}

/**
 * `LifecycleChange`: deletes an expired team, restores a team's permanent owners, makes a member
 * who stepped up an owner, or removes the guests an owner's review let go.
 */
export const lifecycleChangeJob = jobType({
  type: 'LifecycleChange',
  data: LifecycleChangeData,
  // Read loosely (the data is also read to show a job): an unknown action shows the owners' steps.
  steps: (data) =>
    Object.hasOwn(CHANGE_STEPS, String(data.action))
      ? CHANGE_STEPS[data.action as LifecycleChangeData['action']]
      : CHANGE_STEPS.restoreOwners,
  handler: (deps: LifecycleChangeJobDeps) => new LifecycleChangeHandler(deps),
});
