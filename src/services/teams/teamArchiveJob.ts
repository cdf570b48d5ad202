import type { Transaction } from 'kysely';
import type { AuditEntry } from '../../domain/audit';
import type { StepDefinition, StoredJob } from '../../domain/jobs';
import type { Database } from '../../store/schema';
import type { EventBus, StewardEvent } from '../webhooks/events';
import { type JobHandler, type JobRun, jobType, type StepName } from '../jobs/jobType';
import type { TeamsPlatform } from '../../platform/port';
import { teamRecord } from '../audit/teamRecord';
import { ArchiveData } from '../jobData/archiveData';

/** One step, named after the action, then the transaction that completes the job. */
const ARCHIVE_STEPS = {
  archive: [
    { name: 'archive', title: 'Archive the team', weight: 90 },
    { name: 'finish', title: 'Finish', weight: 10 },
  ],
  unarchive: [
    { name: 'unarchive', title: 'Unarchive the team', weight: 90 },
    { name: 'finish', title: 'Finish', weight: 10 },
  ],
} as const satisfies Record<ArchiveData['action'], readonly StepDefinition[]>;
type ArchiveStep = StepName<(typeof ARCHIVE_STEPS)[keyof typeof ARCHIVE_STEPS]>;

/** What an archive job's handler needs. */
export interface TeamArchiveJobDeps {
  teams: TeamsPlatform;
  events: EventBus;
}

/** Archives or unarchives a team. */
class TeamArchiveHandler implements JobHandler<ArchiveData, ArchiveStep> {
  readonly trail = 'teams';

  constructor(private readonly deps: TeamArchiveJobDeps) {}

  async run(run: JobRun<ArchiveData, ArchiveStep>): Promise<void> {
    const data = run.data;
    await run.step(data.action, async () => {
      if (data.action === 'archive')
        await this.deps.teams.archiveTeam(
          data.team.id,
          data.shouldSetSpoSiteReadOnlyForMembers,
          run.operation,
        );
      else await this.deps.teams.unarchiveTeam(data.team.id, run.operation);
      const readOnly =
        data.action === 'archive' && data.shouldSetSpoSiteReadOnlyForMembers
          ? ' (site read-only for members)'
          : '';
      return {
        log: [
          `${data.action === 'archive' ? 'Archived' : 'Unarchived'} "${data.team.displayName}"${readOnly}.`,
        ],
      };
    });
  }

  async completed(
    job: StoredJob,
    data: ArchiveData,
    trx: Transaction<Database>,
    now: Date,
    records: AuditEntry[],
  ): Promise<StewardEvent[]> {
    const type = data.action === 'archive' ? 'team_archived' : 'team_unarchived';
    const details = {
      requester: data.requester.id,
      ...(data.action === 'archive' ? { siteReadOnly: data.shouldSetSpoSiteReadOnlyForMembers } : {}),
    };
    records.push(teamRecord(type, data.team, job, details));
    const payload = { team: data.team, requester: data.requester, provisioning: { id: job.id } };
    return [await this.deps.events.record(trx, type, payload, now)];
  }

  async failed(): Promise<StewardEvent[]> {
    return [];
  }
}

/** `TeamArchiveRequest`: archives or unarchives a team. */
export const teamArchiveJob = jobType({
  type: 'TeamArchiveRequest',
  data: ArchiveData,
  steps: (data) => ARCHIVE_STEPS[data.action === 'unarchive' ? 'unarchive' : 'archive'],
  handler: (deps: TeamArchiveJobDeps) => new TeamArchiveHandler(deps),
});
