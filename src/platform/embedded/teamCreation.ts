import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import { NotFound } from '../../domain/errors';
import type { Database, PlatformTeamRow } from '../../store/schema';
import type { CloneTeamSpec, NewTeamSpec } from '../port';
import {
  DEFAULT_TEAM_SETTINGS,
  type FullTeamSettings,
  memberId,
  mergeSettings,
  newChannelId,
  settingsOf,
} from './teamRows';

/** Hands out creation times as ISO strings, each later than the one before. */
export type Stamp = () => string;

/**
 * A clock that never repeats itself, so that things created within one millisecond (a clone's
 * channels, seeded tabs) still list in the order they were made.
 */
export function monotonicStamp(now: () => Date = () => new Date()): Stamp {
  let lastMs = 0;
  return () => {
    lastMs = Math.max(now().getTime(), lastMs + 1);
    return new Date(lastMs).toISOString();
  };
}

/** What the team row of a new team is made of. */
interface TeamRowSpec extends Omit<NewTeamSpec, 'settings' | 'ownerId'> {
  id: string;
  settings: FullTeamSettings;
  classification: string | null;
}

/**
 * Inserts a team, its General channel and its first owner. Returns false, having written nothing,
 * when the id or the provisioning key is taken: a concurrent call with the same key got there
 * first (PostgreSQL makes this insert wait for that call's transaction), and its team is the answer.
 */
export async function insertNewTeam(
  trx: Transaction<Database>,
  spec: NewTeamSpec,
  id: string,
  stamp: Stamp,
): Promise<boolean> {
  const settings = mergeSettings(DEFAULT_TEAM_SETTINGS, spec.settings);
  const general = await insertTeamWithGeneral(trx, { ...spec, id, settings, classification: null }, stamp);
  if (!general) return false;
  await upsertMember(trx, id, spec.ownerId, 'owner', stamp());
  return true;
}

/**
 * Copies `spec.sourceTeamId` into a new team `id`, part by part: channels are the source's other
 * channels; tabs those of the copied channels (General's at least); members keep their roles.
 * Apps are accepted and ignored, the embedded tenant installs none. Returns false as insertNewTeam does.
 */
export async function insertClonedTeam(
  trx: Transaction<Database>,
  spec: CloneTeamSpec,
  id: string,
  stamp: Stamp,
): Promise<boolean> {
  const source = await trx
    .selectFrom('platform_teams')
    .selectAll()
    .where('id', '=', spec.sourceTeamId)
    .executeTakeFirst();
  if (!source) throw new NotFound(`There is no team ${spec.sourceTeamId} to clone.`);
  const { parts } = spec;
  const settings = parts.settings ? settingsOf(source) : DEFAULT_TEAM_SETTINGS;
  const row = { ...spec, id, settings, classification: source.classification };
  const general = await insertTeamWithGeneral(trx, row, stamp);
  if (!general) return false;

  const sourceChannels = await trx
    .selectFrom('platform_channels')
    .selectAll()
    .where('team_id', '=', source.id)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  // Source channel id → its copy; General always has one, the team's own General.
  const copies = new Map<string, string>();
  for (const channel of sourceChannels) {
    if (Number(channel.is_primary) === 1) copies.set(channel.id, general);
    else if (parts.channels) {
      const copy = newChannelId();
      copies.set(channel.id, copy);
      await trx
        .insertInto('platform_channels')
        .values({ ...channel, id: copy, team_id: id, is_primary: 0, created_at: stamp() })
        .execute();
    }
  }

  if (parts.tabs) {
    const tabs = await trx
      .selectFrom('platform_tabs')
      .selectAll()
      .where('team_id', '=', source.id)
      .orderBy('sort_order')
      .execute();
    for (const tab of tabs) {
      const channelId = copies.get(tab.channel_id);
      if (!channelId) continue;
      await trx
        .insertInto('platform_tabs')
        .values({ ...tab, id: randomUUID(), team_id: id, channel_id: channelId, created_at: stamp() })
        .execute();
    }
  }

  if (parts.members) {
    const members = await trx
      .selectFrom('platform_members')
      .select(['user_id', 'role'])
      .where('team_id', '=', source.id)
      .orderBy('created_at')
      .orderBy('user_id')
      .execute();
    for (const member of members)
      await upsertMember(trx, id, member.user_id, member.role === 'owner' ? 'owner' : 'member', stamp());
  }
  await upsertMember(trx, id, spec.ownerId, 'owner', stamp());
  return true;
}

/** Inserts the team row and its General channel; returns the channel's id, or undefined on a conflict. */
async function insertTeamWithGeneral(
  trx: Transaction<Database>,
  spec: TeamRowSpec,
  stamp: Stamp,
): Promise<string | undefined> {
  const general = newChannelId();
  const row: PlatformTeamRow = {
    id: spec.id,
    provisioning_key: spec.provisioningKey,
    display_name: spec.displayName,
    description: spec.description,
    visibility: spec.visibility,
    mail_nickname: spec.mailNickname,
    classification: spec.classification,
    specialization: 'none',
    // Graph's internalId is the team's thread id, which its General channel shares.
    internal_id: general,
    // A label is put on later, by a person (`TeamRecords.applyLabel`), as on Graph.
    sensitivity_label_id: null,
    settings: JSON.stringify(spec.settings),
    is_archived: 0,
    site_read_only: 0,
    created_at: stamp(),
  };
  const inserted = await trx
    .insertInto('platform_teams')
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return undefined;
  await trx
    .insertInto('platform_channels')
    .values({
      id: general,
      team_id: spec.id,
      display_name: 'General',
      // Teams shows the team's description on its General channel.
      description: spec.description,
      membership_type: 'standard',
      is_primary: 1,
      created_at: row.created_at,
    })
    .execute();
  return general;
}

/** Adds `userId` to the team with `role`, or gives an existing member that role. */
export async function upsertMember(
  trx: Transaction<Database>,
  teamId: string,
  userId: string,
  role: 'owner' | 'member',
  createdAt: string,
): Promise<void> {
  await trx
    .insertInto('platform_members')
    .values({ id: memberId(teamId, userId), team_id: teamId, user_id: userId, role, created_at: createdAt })
    .onConflict((oc) => oc.columns(['team_id', 'user_id']).doUpdateSet({ role }))
    .execute();
}
