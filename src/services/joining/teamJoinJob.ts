import type { Transaction } from 'kysely';
import { z } from 'zod';
import type { AuditEntry } from '../../domain/audit';
import type { StepDefinition, StoredJob } from '../../domain/jobs';
import { JoinRequestRepository } from '../../store/joining/joinRequests';
import type { Database } from '../../store/schema';
import type { EventBus, StewardEvent } from '../webhooks/events';
import { type JobHandler, type JobRun, jobType, type StepName } from '../jobs/jobType';
import type { TeamsPlatform } from '../../platform/port';
import { teamRecord } from '../audit/teamRecord';

const Person = z.looseObject({ id: z.string(), displayName: z.string() });

/** The data of a job that adds someone whose request to join was approved (or who joined directly). */
export const TeamJoinData = z.looseObject({
  joinRequestId: z.string(),
  team: Person,
  requester: Person,
  direct: z.boolean(),
  decidedBy: Person.nullable(),
});
export type TeamJoinData = z.output<typeof TeamJoinData>;

const JOIN_STEPS = [
  { name: 'addMember', title: 'Add the member', weight: 90 },
  { name: 'finish', title: 'Finish', weight: 10 },
] as const satisfies readonly StepDefinition[];
type JoinStep = StepName<typeof JOIN_STEPS>;

/** What a join job's handler needs. */
export interface TeamJoinJobDeps {
  teams: TeamsPlatform;
  events: EventBus;
}

/**
 * Adds the requester as a member through the platform (Graph: `POST /teams/{id}/members`, one call
 * counted against the Graph budget like every call of the adapter). Safe to run again: someone
 * already in the team (a member or an owner, whom adding as a member would demote) is left as they
 * are and the step is done.
 */
class TeamJoinHandler implements JobHandler<TeamJoinData, JoinStep> {
  readonly trail = 'teams';
  private readonly requests = new JoinRequestRepository();

  constructor(private readonly deps: TeamJoinJobDeps) {}

  async run(run: JobRun<TeamJoinData, JoinStep>): Promise<void> {
    const { team, requester } = run.data;
    await run.step('addMember', async () => {
      const members = await this.deps.teams.listMembers(team.id);
      if (members.some((m) => m.userId === requester.id))
        return { log: [`${requester.displayName} is in "${team.displayName}" already.`], skipped: true };
      await this.deps.teams.addMember(team.id, requester.id, 'member');
      return { log: [`Added ${requester.displayName} to "${team.displayName}".`] };
    });
  }

  async completed(
    job: StoredJob,
    data: TeamJoinData,
    trx: Transaction<Database>,
    now: Date,
    records: AuditEntry[],
  ): Promise<StewardEvent[]> {
    await this.requests.finish(data.joinRequestId, 'joined', null, now.toISOString(), trx);
    records.push(
      teamRecord('member_joined', data.team, job, {
        joinRequestId: data.joinRequestId,
        userId: data.requester.id,
        direct: data.direct,
      }),
    );
    const payload = {
      team: data.team,
      requester: data.requester,
      joinRequest: { id: data.joinRequestId, direct: data.direct },
    };
    return [await this.deps.events.record(trx, 'team_member_joined', payload, now)];
  }

  async failed(
    _job: StoredJob,
    data: TeamJoinData,
    reason: string,
    trx: Transaction<Database>,
    now: Date,
  ): Promise<StewardEvent[]> {
    await this.requests.finish(data.joinRequestId, 'failed', reason, now.toISOString(), trx);
    return [];
  }
}

/** `TeamJoinRequest`: adds the person whose request to join a team was approved. */
export const teamJoinJob = jobType({
  type: 'TeamJoinRequest',
  data: TeamJoinData,
  steps: () => JOIN_STEPS,
  handler: (deps: TeamJoinJobDeps) => new TeamJoinHandler(deps),
});
