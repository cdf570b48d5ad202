import type { Kysely, Transaction } from 'kysely';
import type { AuditEntry } from '../../../domain/audit';
import type { StoredJob } from '../../../domain/jobs';
import type { TeamsPlatform } from '../../../platform/port';
import type { JsonObject } from '../../../domain/metadata';
import type { Database } from '../../../store/schema';
import type { EventBus, StewardEvent } from '../../webhooks/events';
import type { MetadataService } from '../../teams/metadata';
import type { SensitivityLabels } from '../../labels/sensitivityLabels';
import type { JobHandler, JobRun, StepResult } from '../../jobs/jobType';
import { teamRecord } from '../../audit/teamRecord';
import { TeamTemplateRepository } from '../../../store/drift/teamTemplates';
import type { ProvisioningData } from '../../jobData/provisioningData';
import { eventPayload } from '../../jobData/provisioningEvents';
import type { ProvisioningStep } from './steps';
import { runWorkspaceSteps } from './teamToolsSteps';
import {
  channelsStep,
  filesStep,
  membersStep,
  settingsStep,
  tabsStep,
  teamStep,
  teamSteps,
  welcomeStep,
} from './teamSteps';

/** What a provisioning job's handler needs. */
export interface ProvisioningJobDeps {
  db: Kysely<Database>;
  teams: TeamsPlatform;
  events: EventBus;
  metadata: MetadataService;
  /** The metadata namespace a provisioning job stores the request's metadata in. */
  metadataNamespace: string;
  /** Sensitivity labels, put on with a person's delegated grant. */
  labels: SensitivityLabels;
}

/**
 * The work of each provisioning step (`steps.ts` lists them). Each is checkpointed; each is also
 * safe to run again (the team is found by the job's provisioning key, channels and tabs by name,
 * members are added idempotently), so a job resumed after a crash neither duplicates the team nor
 * a member.
 */
export class ProvisioningHandler implements JobHandler<ProvisioningData, ProvisioningStep> {
  readonly trail = 'team_provisioning';

  constructor(private readonly deps: ProvisioningJobDeps) {}

  async run(run: JobRun<ProvisioningData, ProvisioningStep>): Promise<void> {
    const steps = teamSteps(run, this.deps.teams);
    await run.step('team', () => teamStep(steps));
    await run.step('settings', () => settingsStep(steps, this.deps.labels));
    await run.step('channels', () => channelsStep(steps));
    await run.step('tabs', () => tabsStep(steps));
    await run.step('members', () => membersStep(steps));
    // The template's plan, tags and apps (`teamToolsSteps.ts`).
    await runWorkspaceSteps(run, this.deps.teams);
    await run.step('welcome', () => welcomeStep(steps));
    // After everything that does not need the files: a private or shared channel's files folder
    // waits (parked) for its SharePoint site, up to minutes, and the members, plan, tags, apps and
    // welcome are not held behind it.
    await run.step('files', () => filesStep(steps));
    await run.step('metadata', () => this.storeMetadata(run, steps.teamId()));
  }

  /** `metadata`: the request's metadata, stored in the configured namespace. */
  private async storeMetadata(
    run: JobRun<ProvisioningData, ProvisioningStep>,
    teamId: string,
  ): Promise<StepResult<ProvisioningData>> {
    const metadata = run.data.request.metadata;
    if (!metadata || Object.keys(metadata).length === 0) return { skipped: true };
    const { db, metadata: service, metadataNamespace: namespace } = this.deps;
    await db
      .transaction()
      .execute((trx) =>
        service.putForJob(trx, run.job, teamId, namespace, metadata as JsonObject, new Date()),
      );
    return { log: [`Stored the request's metadata in namespace "${namespace}".`] };
  }

  async completed(
    job: StoredJob,
    data: ProvisioningData,
    trx: Transaction<Database>,
    now: Date,
    records: AuditEntry[],
  ): Promise<StewardEvent[]> {
    const { events } = this.deps;
    await this.forgetGrants(job, data, trx);
    const payload = eventPayload(job, data);
    if (data.team) {
      const details = { templateId: data.template.id, requester: data.requester.id };
      records.push(teamRecord('team_created', data.team, job, details));
      // Which version of its template the team was made from: what drift compares from.
      await new TeamTemplateRepository(trx).record({
        teamId: data.team.id,
        displayName: data.team.displayName,
        templateId: data.template.id,
        version: data.template.version ?? null,
        jobId: job.id,
        now: now.toISOString(),
      });
    }
    return events.recordAll(
      trx,
      [
        { type: 'team_created', payload },
        { type: 'team_provisioning_completed', payload },
      ],
      now,
    );
  }

  /**
   * Deletes the delegated grants the job kept for its sensitivity label. Grants are kept only for a
   * plan with a label (the request's and its approvers'), and no amendment changes the label: a job
   * without one has none, and its end costs no statement for them.
   */
  private async forgetGrants(job: StoredJob, data: ProvisioningData, trx: Transaction<Database>) {
    if (data.plan.sensitivityLabelId) await this.deps.labels.forget(job.id, trx);
  }

  async failed(
    job: StoredJob,
    data: ProvisioningData,
    reason: string,
    trx: Transaction<Database>,
    now: Date,
  ): Promise<StewardEvent[]> {
    await this.forgetGrants(job, data, trx);
    const payload = { ...eventPayload(job, data), reason };
    return [await this.deps.events.record(trx, 'team_provisioning_failed', payload, now)];
  }
}
