import { type CatalogTemplate, type DriftDifference, type DriftKind, tagPeople } from '../../contract';
import {
  bucketKey,
  channelKey,
  planTitle,
  settingChange,
  type TeamState,
} from '../../domain/drift/comparers';
import type { LabelOutcome } from '../../domain/delegation';
import type { OperationCheckpoint, TeamsPlatform } from '../../platform/port';
import { createTemplateTag, installTemplateApp, layOutPlan } from '../workspace/teamTools';
import { createOrFindChannel, layOutFiles, scopedOperation } from '../workspace/workspaceSteps';

/** What an applier works with: one team, its state as just read, and the template's current version. */
export interface ApplyContext {
  teams: TeamsPlatform;
  team: { id: string; displayName: string };
  template: CatalogTemplate;
  state: TeamState;
  /** The team's channels by key, kept up to date as channels are made (tabs go in them). */
  channelIds: Map<string, string>;
  /** Puts the template's label on with the grant the job carries (the label's own path). */
  applyLabel(labelId: string): Promise<LabelOutcome>;
  /** When the drift was asked to be applied: a new bucket's tasks are due counted from it. */
  requestedAt: string;
  /** The job's long operation (a shared channel Graph is still making is waited for through it). */
  operation: OperationCheckpoint;
}

/**
 * How each kind of difference is applied: by adding what the template asks for, never by
 * removing or replacing anything. Each returns a line for the job's log. A new kind of template
 * part adds its applier here beside its comparer (`domain/drift/comparers.ts`).
 */
export const DRIFT_APPLIERS: {
  readonly [K in DriftKind]: (ctx: ApplyContext, d: DriftDifference) => Promise<string>;
} = {
  channel: async (ctx, d) => {
    const wanted = ctx.template.newTeam.channels.find((c) => `channel:${channelKey(c.displayName)}` === d.id);
    if (!wanted) return `The template no longer has the channel "${d.name}".`;
    const existing = ctx.channelIds.get(channelKey(wanted.displayName));
    if (existing) return `The channel "${wanted.displayName}" is there already.`;
    // A private or shared channel needs an owner who is in the team: the first of its owners.
    const owner = ctx.state.members.find((m) => m.owner) ?? (await firstOwner(ctx));
    if (wanted.membershipType !== 'standard' && !owner)
      return `Skipped the ${wanted.membershipType} channel "${wanted.displayName}": the team has no owner to own it.`;
    // The provisioning job's way: a channel an earlier attempt made is found, not made twice.
    const made = await createOrFindChannel(
      ctx.teams,
      ctx.team.id,
      {
        displayName: wanted.displayName,
        description: wanted.description,
        membershipType: wanted.membershipType,
      },
      owner?.userId ?? '',
      scopedOperation(ctx.operation, `channel:${channelKey(wanted.displayName)}`),
    );
    ctx.channelIds.set(channelKey(wanted.displayName), made.id);
    return `Created the channel "${wanted.displayName}".`;
  },
  channelFile: async (ctx, d) => {
    const wanted = ctx.template.newTeam.channels.find(
      (c) => `channelFile:${channelKey(c.displayName)}` === d.id,
    );
    if (!wanted) return `The template no longer puts folders or files in "${d.name}".`;
    const key = channelKey(wanted.displayName);
    const channelId = ctx.channelIds.get(key);
    if (!channelId) return `Skipped the folders and files of "${d.name}": the channel is not there.`;
    // The provisioning job's way: what is there is kept, a file never overwritten.
    return layOutFiles(
      ctx.teams,
      ctx.team.id,
      wanted,
      channelId,
      scopedOperation(ctx.operation, `files:${key}`),
    );
  },
  tab: async (ctx, d) => {
    const wanted = ctx.template.newTeam.tabs.find(
      (t) => `tab:${channelKey(t.channel)}/${t.displayName.trim().toLowerCase()}` === d.id,
    );
    if (!wanted) return `The template no longer pins the tab ${d.name}.`;
    const key = channelKey(wanted.channel);
    let channelId = ctx.channelIds.get(key);
    if (!channelId && key === 'general') channelId = (await ctx.teams.primaryChannel(ctx.team.id)).id;
    if (!channelId) return `Skipped the tab ${d.name}: its channel is not there.`;
    await ctx.teams.createTab(ctx.team.id, channelId, wanted, { withApp: false });
    return `Pinned the tab ${d.name}.`;
  },
  permanentOwner: async (ctx, d) => {
    const id = d.id.slice('permanentOwner:'.length);
    await ctx.teams.addMember(ctx.team.id, id, 'owner');
    return `Made ${d.name} an owner.`;
  },
  permanentMember: async (ctx, d) => {
    const id = d.id.slice('permanentMember:'.length);
    await ctx.teams.addMember(ctx.team.id, id, 'member');
    return `Added ${d.name} as a member.`;
  },
  sensitivityLabel: async (ctx, d) => {
    const labelId = d.id.slice('sensitivityLabel:'.length);
    const outcome = await ctx.applyLabel(labelId);
    return outcome.status === 'applied'
      ? 'Applied the sensitivity label.'
      : `The sensitivity label is still missing: ${outcome.reason ?? 'the platform did not take it.'}`;
  },
  planBucket: async (ctx, d) => {
    const planner = ctx.template.newTeam.planner;
    if (!planner) return `The template no longer has a plan.`;
    const only =
      d.id === 'plan'
        ? undefined
        : new Set(
            planner.buckets
              .filter((b) => `planBucket:${bucketKey(b.name)}` === d.id)
              .map((b) => bucketKey(b.name)),
          );
    if (only?.size === 0) return `The template's plan no longer has the bucket "${d.name}".`;
    const title = planTitle(ctx.template, ctx.team.displayName);
    return (await layOutPlan(ctx.teams.workspace, ctx.team.id, title, planner, ctx.requestedAt, only)).log;
  },
  tag: async (ctx, d) => {
    const tag = (ctx.template.newTeam.tags ?? []).find((t) => `tag:${t.displayName.toLowerCase()}` === d.id);
    if (!tag) return `The template no longer has the tag "${d.name}".`;
    const there = (await ctx.teams.workspace.listTags(ctx.team.id)).some(
      (t) => t.displayName.toLowerCase() === tag.displayName.toLowerCase(),
    );
    // A tag the team has is the owners' to keep: its members are never changed.
    if (there) return `The tag "${tag.displayName}" is there already.`;
    const people = tagPeople(
      ctx.state.members.map((m) => ({
        id: m.userId,
        role: m.owner ? ('owner' as const) : ('member' as const),
      })),
      tag.members,
    ).map((m) => m.id);
    if (people.length === 0) return `Skipped the tag "${tag.displayName}": the team has nobody to give it.`;
    return `Made the tag ${await createTemplateTag(ctx.teams.workspace, ctx.team.id, tag, people)}.`;
  },
  app: async (ctx, d) => {
    const app = (ctx.template.newTeam.apps ?? []).find((a) => `app:${a.teamsAppId}` === d.id);
    if (!app) return `The template no longer installs the app "${d.name}".`;
    const outcome = await installTemplateApp(ctx.teams.workspace, ctx.team.id, app);
    if (outcome.skipped) return outcome.skipped;
    return outcome.installed ? `Installed the app "${d.name}".` : `The app "${d.name}" is installed already.`;
  },
  teamSetting: async (ctx, d) => {
    const change = settingChange(ctx.template, d.id);
    if (!change) return `The template no longer sets ${d.name}.`;
    // Only that setting: Graph's PATCH of a team changes what it carries and keeps the rest.
    await ctx.teams.updateTeam(ctx.team.id, change);
    return `Set ${d.name} as the template asks.`;
  },
  // Never applicable: listed so that every kind says how it is applied.
  visibility: async (_ctx, d) =>
    `Left the team's privacy as it is (${d.reason ?? 'not Steward’s to change'}).`,
};

async function firstOwner(ctx: ApplyContext): Promise<{ userId: string } | undefined> {
  const members = await ctx.teams.listMembers(ctx.team.id);
  return members.find((m) => m.roles.includes('owner'));
}
