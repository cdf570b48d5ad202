import type { Transaction } from 'kysely';
import { JobCannotRun } from '../../../domain/errors';
import type { StoredJob } from '../../../domain/jobs';
import { escapeMarkup } from '../../../domain/markup';
import type { JsonObject } from '../../../domain/metadata';
import type { Database } from '../../../store/schema';
import type { StewardEvent } from '../../events';
import type { JobDependencies, JobHandler, JobRun } from '../jobType';
import { teamRecord } from '../teamRecord';
import type { ProvisioningData } from './data';
import { eventPayload } from './events';

/**
 * The work of each provisioning step (`steps.ts` lists them). Each is checkpointed; each is also
 * safe to run again (the team is found by the job's provisioning key, channels and tabs by name,
 * members are added idempotently), so a job resumed after a crash neither duplicates the team nor
 * a member.
 */
export class ProvisioningHandler implements JobHandler<ProvisioningData> {
  readonly trail = 'team_provisioning';

  constructor(
    private readonly deps: Pick<
      JobDependencies,
      'db' | 'teams' | 'events' | 'audit' | 'metadata' | 'metadataNamespace'
    >,
  ) {}

  async run(run: JobRun<ProvisioningData>): Promise<void> {
    const { job } = run;
    const teams = this.deps.teams;
    const plan = run.data.plan;
    const ownerId = plan.members.find((m) => m.role === 'owner')?.id ?? run.data.requester.id;
    const teamId = () => job.checkpoint.teamId!;

    await run.step('team', async () => {
      const earlier = await teams.findTeamByProvisioningKey(job.id);
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
          ? await teams.cloneTeam({
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
          : await teams.createTeam({ ...spec, settings: {}, sensitivityLabelId: plan.sensitivityLabelId }));
      // A clone starts with the source's members (or none): its owner joins at once, before channels
      // (a private channel needs its owner in the team).
      if (plan.clone && !earlier) await teams.addMember(team.id, ownerId, 'owner');
      const how = earlier
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
      if (!plan.clone)
        return {
          log: [
            `Privacy ${plan.visibility}${plan.sensitivityLabelId ? `, label ${plan.sensitivityLabelId}` : ''}.`,
          ],
        };
      await teams.updateTeam(teamId(), { visibility: plan.visibility, description: plan.description });
      return { log: [`Applied privacy ${plan.visibility} to the clone.`] };
    });

    await run.step('channels', async () => {
      const existing = new Set((await teams.listChannels(teamId())).map((c) => c.displayName.toLowerCase()));
      const created: string[] = [];
      for (const channel of plan.channels) {
        if (existing.has(channel.displayName.toLowerCase())) continue;
        await teams.createChannel(teamId(), channel, ownerId);
        created.push(channel.displayName);
      }
      return { log: created.length > 0 ? [`Created channels: ${created.join(', ')}.`] : [] };
    });

    await run.step('tabs', async () => {
      const channels = await teams.listChannels(teamId());
      const primary = await teams.primaryChannel(teamId());
      const created: string[] = [];
      for (const tab of plan.tabs) {
        const channel =
          tab.channel.toLowerCase() === 'general'
            ? primary
            : channels.find((c) => c.displayName.toLowerCase() === tab.channel.toLowerCase());
        if (!channel)
          throw new JobCannotRun(
            `The tab "${tab.displayName}" names a channel "${tab.channel}" the team does not have.`,
          );
        const tabs = await teams.listTabs(teamId(), channel.id);
        if (tabs.some((t) => t.displayName === tab.displayName)) continue;
        await teams.createTab(teamId(), channel.id, tab);
        created.push(`${tab.displayName} (${channel.displayName})`);
      }
      return { log: created.length > 0 ? [`Created tabs: ${created.join(', ')}.`] : [] };
    });

    await run.step('members', async () => {
      for (const member of plan.members) await teams.addMember(teamId(), member.id, member.role);
      const owners = plan.members.filter((m) => m.role === 'owner').length;
      return { log: [`Added ${owners} owner(s) and ${plan.members.length - owners} member(s).`] };
    });

    await run.step('welcome', async () => {
      if (!plan.welcomeMessage.trim()) return { skipped: true };
      const primary = await teams.primaryChannel(teamId());
      await teams.postMessage(teamId(), primary.id, `<p>${escapeMarkup(plan.welcomeMessage)}</p>`);
      return { log: ['Posted the welcome message in General.'] };
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
  ): Promise<StewardEvent[]> {
    const { audit, events } = this.deps;
    const payload = eventPayload(job, data);
    if (data.team) {
      const details = { templateId: data.template.id, requester: data.requester.id };
      await audit.record(trx, teamRecord('team_created', data.team, job, details), now);
    }
    return [
      await events.record(trx, 'team_created', payload, now),
      await events.record(trx, 'team_provisioning_completed', payload, now),
    ];
  }

  async failed(
    job: StoredJob,
    data: ProvisioningData,
    reason: string,
    trx: Transaction<Database>,
    now: Date,
  ): Promise<StewardEvent[]> {
    const payload = { ...eventPayload(job, data), reason };
    return [await this.deps.events.record(trx, 'team_provisioning_failed', payload, now)];
  }
}
