import type { Transaction } from 'kysely';
import { z } from 'zod';
import type { StoredJob } from '../../domain/jobs';
import type { Database } from '../../store/schema';
import type { StewardEvent } from '../events';
import { type JobDependencies, type JobHandler, type JobRun, jobType } from './jobType';
import { teamRecord } from './teamRecord';

const Team = z.looseObject({ id: z.string(), displayName: z.string() });

/** A change the lifecycle evaluator decided: delete an expired team, or give a team back its permanent owners. */
export const LifecycleChangeData = z.discriminatedUnion('action', [
  z.looseObject({ action: z.literal('delete'), team: Team, reason: z.string() }),
  z.looseObject({
    action: z.literal('restoreOwners'),
    team: Team,
    reason: z.string(),
    ownerIds: z.array(z.string()).min(1),
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
} as const;

/** Carries out the change on the platform; its completion is recorded in the `teams` trail. */
class LifecycleChangeHandler implements JobHandler<LifecycleChangeData> {
  readonly trail = 'lifecycle';

  constructor(private readonly deps: Pick<JobDependencies, 'teams' | 'events' | 'audit'>) {}

  async run(run: JobRun<LifecycleChangeData>): Promise<void> {
    const data = run.data;
    if (data.action === 'delete') {
      await run.step('delete', async () => {
        await this.deps.teams.deleteTeam(data.team.id);
        return { log: [`Deleted "${data.team.displayName}".`] };
      });
      return;
    }
    await run.step('restoreOwners', async () => {
      const owners = data.ownerIds.map((id) => ({ id, role: 'owner' as const }));
      const { added, changed } = await this.deps.teams.addMembers(data.team.id, owners);
      return { log: [`Restored ${added + changed} permanent owner(s) of "${data.team.displayName}".`] };
    });
  }

  async completed(
    job: StoredJob,
    data: LifecycleChangeData,
    trx: Transaction<Database>,
    now: Date,
  ): Promise<StewardEvent[]> {
    const action = data.action === 'delete' ? 'team_deleted' : 'permanent_owners_restored';
    const details = {
      reason: data.reason,
      ...(data.action === 'restoreOwners' ? { owners: data.ownerIds } : {}),
    };
    await this.deps.audit.record(trx, teamRecord(action, data.team, job, details), now);
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

/** `LifecycleChange`: deletes an expired team, or restores a team's permanent owners. */
export const lifecycleChangeJob = jobType({
  type: 'LifecycleChange',
  data: LifecycleChangeData,
  steps: (data) => CHANGE_STEPS[data.action === 'delete' ? 'delete' : 'restoreOwners'],
  handler: (deps) => new LifecycleChangeHandler(deps),
});
