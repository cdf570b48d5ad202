import type { CatalogTemplate, DriftDifference, DriftKind } from '../../contract';
import { channelKey, type TeamState } from '../../domain/drift/comparers';
import type { LabelOutcome } from '../../domain/delegation';
import type { TeamsPlatform } from '../../platform/port';

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
    // A private channel needs an owner who is in the team: the first of its owners.
    const owner = ctx.state.members.find((m) => m.owner) ?? (await firstOwner(ctx));
    if (wanted.membershipType === 'private' && !owner)
      return `Skipped the private channel "${wanted.displayName}": the team has no owner to own it.`;
    const made = await ctx.teams.createChannel(ctx.team.id, wanted, owner?.userId ?? '');
    ctx.channelIds.set(channelKey(wanted.displayName), made.id);
    return `Created the channel "${wanted.displayName}".`;
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
  // Never applicable: listed so that every kind says how it is applied.
  visibility: async (_ctx, d) =>
    `Left the team's privacy as it is (${d.reason ?? 'not Steward’s to change'}).`,
};

async function firstOwner(ctx: ApplyContext): Promise<{ userId: string } | undefined> {
  const members = await ctx.teams.listMembers(ctx.team.id);
  return members.find((m) => m.roles.includes('owner'));
}
