import { counted } from '../../../lib/counted';
import type { Kysely, Transaction } from 'kysely';
import type { AuditEntry } from '../../../domain/audit';
import { JobCannotRun } from '../../../domain/errors';
import type { StoredJob } from '../../../domain/jobs';
import type { TeamsPlatform } from '../../../platform/port';
import type { JsonObject } from '../../../domain/metadata';
import type { Database } from '../../../store/schema';
import type { EventBus, StewardEvent } from '../../webhooks/events';
import type { MetadataService } from '../../teams/metadata';
import type { SensitivityLabels } from '../../labels/sensitivityLabels';
import type { JobHandler, JobRun } from '../../jobs/jobType';
import { teamRecord } from '../../audit/teamRecord';
import { TeamTemplateRepository } from '../../../store/drift/teamTemplates';
import type { ProvisioningData } from '../../jobData/provisioningData';
import { eventPayload } from '../../jobData/provisioningEvents';
import type { ProvisioningStep } from './steps';
import {
  applyTemplateSettings,
  channelsWithFiles,
  createOrFindChannel,
  creationSettings,
  layOutChannelFiles,
  scopedOperation,
} from '../../workspace/workspaceSteps';
import { runWorkspaceSteps } from './teamToolsSteps';

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
    const { job } = run;
    const teams = this.deps.teams;
    const plan = run.data.plan;
    const ownerId = plan.members.find((m) => m.role === 'owner')?.id ?? run.data.requester.id;
    const teamId = () => job.checkpoint.teamId!;
    // Channels this run of the job made: none of their tabs can exist yet, so the tabs step pins
    // theirs without reading the channel first. A run that ends (a crash, a park) forgets them,
    // and the next run reads every channel again, which keeps the tabs step safe to repeat.
    const madeNow = new Set<string>();

    await run.step('team', async () => {
      // A step back from a park goes on following its operation; otherwise an earlier attempt
      // may have got as far as a team, found by the job's provisioning key. A new team's creation
      // finds that team itself (`found`), so only a clone looks for it first.
      const resuming = run.operation.state !== undefined;
      const earlier = resuming || !plan.clone ? undefined : await teams.findTeamByProvisioningKey(job.id);
      const spec = {
        displayName: plan.displayName,
        description: plan.description,
        visibility: plan.visibility,
        mailNickname: plan.mailNickname,
        ownerId,
        provisioningKey: job.id,
      };
      // Graph's clone cannot be found by anything we chose: its operation goes with the job
      // (`run.operation`), so a resumed job waits for it instead of cloning again.
      const team =
        earlier ??
        (plan.clone
          ? await teams.cloneTeam(
              {
                ...spec,
                sourceTeamId: plan.clone.teamId,
                parts: {
                  apps: plan.clone.includeApps,
                  tabs: plan.clone.includeTabs,
                  settings: plan.clone.includeSettings,
                  channels: plan.clone.includeChannels,
                  members: plan.clone.includeMembers,
                },
              },
              run.operation,
            )
          : await teams.createTeam(
              {
                ...spec,
                members: plan.members,
                settings: creationSettings(plan),
              },
              run.operation,
            ));
      // A clone starts with the source's members (or none): its owner joins at once, before channels
      // (a private channel needs its owner in the team).
      if (plan.clone && !earlier) await teams.addMembers(team.id, [{ id: ownerId, role: 'owner' }]);
      const how =
        earlier || ('found' in team && team.found)
          ? 'Found team'
          : plan.clone
            ? `Cloned "${plan.clone.teamName ?? plan.clone.teamId}" as team`
            : 'Created team';
      return {
        teamId: team.id,
        data: { ...run.data, team: { id: team.id, displayName: team.displayName, webUrl: team.webUrl } },
        log: [`${how} "${team.displayName}" (${team.id}).`],
      };
    });

    await run.step('settings', async () => {
      const log: string[] = [];
      if (plan.clone) {
        await teams.updateTeam(teamId(), { visibility: plan.visibility, description: plan.description });
        log.push(`The copy is ${plan.visibility}, as the template asks.`);
      } else log.push(`The team is ${plan.visibility}.`);
      log.push(...(await applyTemplateSettings(teams, teamId(), plan)));
      const labelId = plan.sensitivityLabelId;
      const team = run.data.team;
      if (!labelId || !team) return { log };
      // Never a reason to fail the job: the team exists and is usable without its label.
      const label = await this.deps.labels.applyForJob({
        id: job.id,
        team,
        templateId: run.data.template.id,
        labelId,
        owners: plan.members.filter((m) => m.role === 'owner').map((m) => m.id),
      });
      log.push(
        label.status === 'applied'
          ? `Applied the sensitivity label ${labelId} with the authority of ${nameOf(run.data, label.appliedBy)}.`
          : `The team has no sensitivity label yet (${labelId}): ${label.reason} An owner can apply it with "Apply the label".`,
      );
      return { log, data: { ...run.data, label } };
    });

    await run.step('channels', async () => {
      const channelIds = await channelIdsOf(teams, teamId());
      const created: string[] = [];
      for (const channel of plan.channels) {
        if (channelIds[channel.displayName.toLowerCase()]) continue;
        // A shared channel is made asynchronously on Graph: its wait is this channel's own.
        const operation = scopedOperation(run.operation, `channel:${channel.displayName.toLowerCase()}`);
        const made = await createOrFindChannel(teams, teamId(), channel, ownerId, operation);
        channelIds[channel.displayName.toLowerCase()] = made.id;
        madeNow.add(made.id);
        created.push(channel.displayName);
      }
      return {
        data: { ...run.data, channelIds },
        log: created.length > 0 ? [`Created channels: ${created.join(', ')}.`] : [],
      };
    });

    await run.step('tabs', async () => {
      // The channels step's ids; read again only for a job queued before it recorded them.
      const channelIds = run.data.channelIds ?? (await channelIdsOf(teams, teamId()));
      const created: string[] = [];
      const pinned = new Set<string>();
      for (const tab of plan.tabs) {
        const channelId = channelIds[tab.channel.toLowerCase()];
        if (!channelId)
          throw new JobCannotRun(
            `The tab "${tab.displayName}" names a channel "${tab.channel}" the team does not have.`,
          );
        const key = `${channelId}\n${tab.displayName}`;
        if (madeNow.has(channelId)) {
          if (pinned.has(key)) continue;
        } else {
          const tabs = await teams.listTabs(teamId(), channelId);
          if (tabs.some((t) => t.displayName === tab.displayName)) continue;
        }
        // Nothing here reads the tab back: its app's details are for API callers, not this job.
        await teams.createTab(teamId(), channelId, tab, { withApp: false });
        pinned.add(key);
        created.push(`${tab.displayName} (${tab.channel})`);
      }
      return { log: created.length > 0 ? [`Created tabs: ${created.join(', ')}.`] : [] };
    });

    await run.step('members', async () => {
      const owners = plan.members.filter((m) => m.role === 'owner').length;
      const counts = `${counted(owners, 'owner')} and ${counted(plan.members.length - owners, 'member')}`;
      // Those the team got at creation are already there; only the rest is added, in bulk. When
      // its creation request carried everyone, there is nobody to add and nothing to read.
      const atCreation = plan.clone ? [] : teams.membersAtCreation({ ownerId, members: plan.members });
      const placed = new Set(atCreation.map((m) => `${m.role}:${m.id}`));
      if (plan.members.every((m) => placed.has(`${m.role}:${m.id}`))) {
        return { log: [`The team has its ${counts}, all in its creation request.`] };
      }
      const { added, changed } = await teams.addMembers(teamId(), plan.members);
      return {
        log: [`The team has its ${counts}${changesSaid(added, changed)}.`],
      };
    });

    // The template's plan, tags and apps (`teamToolsSteps.ts`).
    await runWorkspaceSteps(run, teams);

    await run.step('welcome', async () => {
      if (!plan.welcomeMessage.trim()) return { skipped: true };
      const outcome = await teams.welcome(teamId(), plan.welcomeMessage, run.data.channelIds?.general);
      if ('skipped' in outcome)
        return { skipped: true, log: [`Skipped the welcome message: ${outcome.skipped}`] };
      return { log: [outcome.posted] };
    });

    // After everything that does not need the files: a private or shared channel's files folder
    // waits (parked) for its SharePoint site, up to minutes, and the members, plan, tags, apps and
    // welcome are not held behind it.
    await run.step('files', async () => {
      if (channelsWithFiles(plan).length === 0) return { skipped: true };
      const channelIds = run.data.channelIds ?? (await channelIdsOf(teams, teamId()));
      return { log: await layOutChannelFiles(teams, teamId(), plan, channelIds, run.operation) };
    });

    await run.step('metadata', async () => {
      const metadata = run.data.request.metadata;
      if (!metadata || Object.keys(metadata).length === 0) return { skipped: true };
      const { db, metadata: service, metadataNamespace: namespace } = this.deps;
      await db
        .transaction()
        .execute((trx) =>
          service.putForJob(trx, job, teamId(), namespace, metadata as JsonObject, new Date()),
        );
      return { log: [`Stored the request's metadata in namespace "${namespace}".`] };
    });
  }

  async completed(
    job: StoredJob,
    data: ProvisioningData,
    trx: Transaction<Database>,
    now: Date,
    records: AuditEntry[],
  ): Promise<StewardEvent[]> {
    const { events } = this.deps;
    await this.deps.labels.forget(job.id, trx);
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

  async failed(
    job: StoredJob,
    data: ProvisioningData,
    reason: string,
    trx: Transaction<Database>,
    now: Date,
  ): Promise<StewardEvent[]> {
    await this.deps.labels.forget(job.id, trx);
    const payload = { ...eventPayload(job, data), reason };
    return [await this.deps.events.record(trx, 'team_provisioning_failed', payload, now)];
  }
}

/**
 * The team's channels by lower-cased name, General under `general` whatever the platform calls it:
 * one read of the channels, and one of the primary channel only when none is named General.
 */
async function channelIdsOf(teams: TeamsPlatform, teamId: string): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const channel of await teams.listChannels(teamId)) ids[channel.displayName.toLowerCase()] = channel.id;
  ids.general ??= (await teams.primaryChannel(teamId)).id;
  return ids;
}

/** The name of the person whose authority applied the label: requester, approver or planned member. */
function nameOf(data: ProvisioningData, id: string | undefined): string {
  if (!id) return 'nobody';
  if (data.requester.id === id) return data.requester.displayName;
  const votes = (data.approval?.stages ?? []).flatMap((stage) => stage.votes ?? []);
  const people: Array<{ id: string; name?: string | null }> = [
    ...votes,
    ...(data.approval?.approvers ?? []),
    ...data.plan.members.map((m) => ({ id: m.id, name: m.displayName })),
  ];
  return people.find((p) => p.id === id && p.name)?.name ?? id;
}

/** What the members step changed, as a sentence's end: " (2 added now, 1 role changed)", or nothing. */
function changesSaid(added: number, changed: number): string {
  const said = [
    ...(added > 0 ? [`${added} added now`] : []),
    ...(changed > 0 ? [`${counted(changed, 'role')} changed`] : []),
  ];
  return said.length > 0 ? ` (${said.join(', ')})` : '';
}
