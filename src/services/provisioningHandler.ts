import type { Transaction } from 'kysely';
import type { StoredJob } from '../domain/jobs';
import type { TeamsPlatform } from '../platform/port';
import type { Kysely } from 'kysely';
import type { AuditEntry } from '../domain/audit';
import { SYSTEM_ACTOR } from '../domain/audit';
import { escapeMarkup } from '../domain/markup';
import type { JsonObject } from '../domain/metadata';
import type { Database } from '../store/schema';
import type { AuditLog } from './audit';
import type { EventBus, StewardEvent } from './events';
import type { JobHandler, JobRun } from './jobWorker';
import type { MetadataService } from './metadata';
import { eventPayload, type ProvisioningData } from './provisioning';

/**
 * The steps of a provisioning job, in order. Each is checkpointed; each is also safe to run again
 * (the team is found by the job's provisioning key, channels and tabs by name, members are added
 * idempotently), so a job resumed after a crash neither duplicates the team nor a member.
 */
export class ProvisioningHandler implements JobHandler {
  readonly trail = 'team_provisioning';

  constructor(
    private readonly teams: TeamsPlatform,
    private readonly events: EventBus,
    private readonly audit: AuditLog,
    private readonly metadata: { db: Kysely<Database>; service: MetadataService; namespace: string },
  ) {}

  async run(run: JobRun): Promise<void> {
    const job = run.job;
    const data = () => job.data as ProvisioningData;
    const plan = data().plan;
    const ownerId = plan.members.find((m) => m.role === 'owner')?.id ?? data().requester.id;
    const teamId = () => job.checkpoint.teamId!;

    await run.step('team', 25, async () => {
      const earlier = await this.teams.findTeamByProvisioningKey(job.id);
      const spec = {
        displayName: plan.displayName,
        description: plan.description,
        visibility: plan.visibility,
        mailNickname: plan.mailNickname,
        ownerId,
        provisioningKey: job.id,
      };
      const team =
        earlier ??
        (plan.clone
          ? await this.teams.cloneTeam({
              ...spec,
              sourceTeamId: plan.clone.teamId,
              parts: {
                apps: plan.clone.includeApps,
                tabs: plan.clone.includeTabs,
                settings: plan.clone.includeSettings,
                channels: plan.clone.includeChannels,
                members: plan.clone.includeMembers,
              },
            })
          : await this.teams.createTeam({
              ...spec,
              settings: {},
              sensitivityLabelId: plan.sensitivityLabelId,
            }));
      // A clone starts with the source's members (or none): its owner joins at once, before channels
      // (a private channel needs its owner in the team).
      if (plan.clone && !earlier) await this.teams.addMember(team.id, ownerId, 'owner');
      const how = earlier
        ? 'Found team'
        : plan.clone
          ? `Cloned "${plan.clone.teamName ?? plan.clone.teamId}" as team`
          : 'Created team';
      return {
        teamId: team.id,
        data: { ...data(), team: { id: team.id, displayName: team.displayName, webUrl: team.webUrl } },
        log: [`${how} "${team.displayName}" (${team.id}).`],
      };
    });

    await run.step('settings', 35, async () => {
      if (!plan.clone)
        return {
          log: [
            `Privacy ${plan.visibility}${plan.sensitivityLabelId ? `, label ${plan.sensitivityLabelId}` : ''}.`,
          ],
        };
      await this.teams.updateTeam(teamId(), { visibility: plan.visibility, description: plan.description });
      return { log: [`Applied privacy ${plan.visibility} to the clone.`] };
    });

    await run.step('channels', 50, async () => {
      const existing = new Set(
        (await this.teams.listChannels(teamId())).map((c) => c.displayName.toLowerCase()),
      );
      const created: string[] = [];
      for (const channel of plan.channels) {
        if (existing.has(channel.displayName.toLowerCase())) continue;
        await this.teams.createChannel(teamId(), channel, ownerId);
        created.push(channel.displayName);
      }
      return { log: created.length > 0 ? [`Created channels: ${created.join(', ')}.`] : [] };
    });

    await run.step('tabs', 60, async () => {
      const channels = await this.teams.listChannels(teamId());
      const primary = await this.teams.primaryChannel(teamId());
      const created: string[] = [];
      for (const tab of plan.tabs) {
        const channel =
          tab.channel.toLowerCase() === 'general'
            ? primary
            : channels.find((c) => c.displayName.toLowerCase() === tab.channel.toLowerCase());
        if (!channel)
          throw new Error(
            `The tab "${tab.displayName}" names a channel "${tab.channel}" the team does not have.`,
          );
        const tabs = await this.teams.listTabs(teamId(), channel.id);
        if (tabs.some((t) => t.displayName === tab.displayName)) continue;
        await this.teams.createTab(teamId(), channel.id, tab);
        created.push(`${tab.displayName} (${channel.displayName})`);
      }
      return { log: created.length > 0 ? [`Created tabs: ${created.join(', ')}.`] : [] };
    });

    await run.step('members', 85, async () => {
      for (const member of plan.members) await this.teams.addMember(teamId(), member.id, member.role);
      const owners = plan.members.filter((m) => m.role === 'owner').length;
      return { log: [`Added ${owners} owner(s) and ${plan.members.length - owners} member(s).`] };
    });

    await run.step('welcome', 95, async () => {
      if (!plan.welcomeMessage.trim()) return;
      const primary = await this.teams.primaryChannel(teamId());
      await this.teams.postMessage(teamId(), primary.id, `<p>${escapeMarkup(plan.welcomeMessage)}</p>`);
      return { log: ['Posted the welcome message in General.'] };
    });

    await run.step('metadata', 98, async () => {
      const metadata = data().request.metadata;
      if (!metadata || Object.keys(metadata).length === 0) return;
      const { db, service, namespace } = this.metadata;
      await db
        .transaction()
        .execute((trx) =>
          service.putForJob(trx, job, teamId(), namespace, metadata as JsonObject, new Date()),
        );
      return { log: [`Stored the request's metadata in namespace "${this.metadata.namespace}".`] };
    });
  }

  async completed(job: StoredJob, trx: Transaction<Database>, now: Date): Promise<StewardEvent[]> {
    const data = job.data as ProvisioningData;
    const payload = eventPayload(job, data);
    const team = data.team;
    if (team) {
      await this.audit.record(
        trx,
        teamRecord('team_created', { id: team.id, displayName: team.displayName }, job, {
          templateId: data.template.id,
          requester: data.requester.id,
        }),
        now,
      );
    }
    return [
      await this.events.record(trx, 'team_created', payload, now),
      await this.events.record(trx, 'team_provisioning_completed', payload, now),
    ];
  }

  async failed(
    job: StoredJob,
    reason: string,
    trx: Transaction<Database>,
    now: Date,
  ): Promise<StewardEvent[]> {
    const payload = { ...eventPayload(job, job.data as ProvisioningData), reason };
    return [await this.events.record(trx, 'team_provisioning_failed', payload, now)];
  }
}

/** Archives or unarchives a team (`TeamArchiveRequest` jobs). */
export class TeamArchiveHandler implements JobHandler {
  readonly trail = 'teams';

  constructor(
    private readonly teams: TeamsPlatform,
    private readonly events: EventBus,
    private readonly audit: AuditLog,
  ) {}

  async run(run: JobRun): Promise<void> {
    const data = run.job.data as ArchiveData;
    await run.step(data.action, 90, async () => {
      if (data.action === 'archive')
        await this.teams.archiveTeam(data.team.id, data.shouldSetSpoSiteReadOnlyForMembers);
      else await this.teams.unarchiveTeam(data.team.id);
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

  async completed(job: StoredJob, trx: Transaction<Database>, now: Date): Promise<StewardEvent[]> {
    const data = job.data as ArchiveData;
    const type = data.action === 'archive' ? 'team_archived' : 'team_unarchived';
    await this.audit.record(
      trx,
      teamRecord(type, data.team, job, {
        requester: data.requester.id,
        ...(data.action === 'archive' ? { siteReadOnly: data.shouldSetSpoSiteReadOnlyForMembers } : {}),
      }),
      now,
    );
    return [
      await this.events.record(
        trx,
        type,
        { team: data.team, requester: data.requester, provisioning: { id: job.id } },
        now,
      ),
    ];
  }

  async failed(): Promise<StewardEvent[]> {
    return [];
  }
}

/** A record in the `teams` trail of something a job did to a team. */
function teamRecord(
  action: string,
  team: { id: string; displayName: string },
  job: StoredJob,
  details: Record<string, unknown>,
): AuditEntry {
  return {
    trail: 'teams',
    action,
    actor: SYSTEM_ACTOR,
    target: { type: 'team', id: team.id, displayName: team.displayName },
    outcome: 'success',
    requestId: null,
    details: { jobId: job.id, ...details },
  };
}

/** The data of an archive or unarchive job. */
export interface ArchiveData {
  [key: string]: unknown;
  action: 'archive' | 'unarchive';
  team: { id: string; displayName: string };
  requester: { id: string; displayName: string };
  shouldSetSpoSiteReadOnlyForMembers: boolean;
}
