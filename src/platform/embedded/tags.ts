import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { NotFound } from '../../domain/errors';
import type { Database } from '../../store/schema';
import { PlatformError } from '../port';
import type { NewTag, TagSummary } from '../teamTools';
import type { Stamp } from './teamCreation';
import { lockTeam } from './teamRecords';
import { requireTeam } from './teamRows';

/**
 * A team's tags in the embedded tenant, refusing what Graph refuses: a tag holds only members of
 * the team (400) and at least one. Each write is one transaction under the team's lock.
 */
export class EmbeddedTags {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: { stamp: Stamp },
    private readonly call: <T>(operation: () => Promise<T>) => Promise<T>,
  ) {}

  listTags(teamId: string): Promise<TagSummary[]> {
    return this.call(async () => {
      await requireTeam(this.db, teamId);
      const rows = await this.db
        .selectFrom('platform_tags')
        .select(['id', 'display_name'])
        .where('team_id', '=', teamId)
        .orderBy('created_at')
        .execute();
      return rows.map((r) => ({ id: r.id, displayName: r.display_name }));
    });
  }

  createTag(teamId: string, tag: NewTag): Promise<TagSummary> {
    return this.call(() =>
      this.db.transaction().execute(async (trx) => {
        await lockTeam(trx, teamId);
        if (tag.memberIds.length === 0)
          throw new PlatformError('A tag needs at least one member.', 400, false);
        await requireMembers(trx, teamId, tag.memberIds);
        const id = randomUUID();
        await trx
          .insertInto('platform_tags')
          .values({
            id,
            team_id: teamId,
            display_name: tag.displayName,
            description: tag.description ?? null,
            created_at: this.options.stamp(),
          })
          .execute();
        await trx
          .insertInto('platform_tag_members')
          .values([...new Set(tag.memberIds)].map((user_id) => ({ tag_id: id, team_id: teamId, user_id })))
          .execute();
        return { id, displayName: tag.displayName };
      }),
    );
  }

  listTagMembers(teamId: string, tagId: string): Promise<string[]> {
    return this.call(async () => {
      await this.tag(this.db, teamId, tagId);
      const rows = await this.db
        .selectFrom('platform_tag_members')
        .select('user_id')
        .where('tag_id', '=', tagId)
        .execute();
      return rows.map((r) => r.user_id);
    });
  }

  addTagMember(teamId: string, tagId: string, userId: string): Promise<void> {
    return this.call(() =>
      this.db.transaction().execute(async (trx) => {
        await lockTeam(trx, teamId);
        await this.tag(trx, teamId, tagId);
        await requireMembers(trx, teamId, [userId]);
        await trx
          .insertInto('platform_tag_members')
          .values({ tag_id: tagId, team_id: teamId, user_id: userId })
          .onConflict((oc) => oc.columns(['tag_id', 'user_id']).doNothing())
          .execute();
      }),
    );
  }

  private async tag(
    db: Kysely<Database> | Transaction<Database>,
    teamId: string,
    tagId: string,
  ): Promise<void> {
    const tag = await db
      .selectFrom('platform_tags')
      .select('id')
      .where('id', '=', tagId)
      .where('team_id', '=', teamId)
      .executeTakeFirst();
    if (!tag) throw new NotFound(`Team ${teamId} has no tag ${tagId}.`);
  }
}

/** Graph refuses a tag member who is not in the team (400). */
async function requireMembers(
  trx: Transaction<Database>,
  teamId: string,
  userIds: readonly string[],
): Promise<void> {
  const rows = await trx
    .selectFrom('platform_members')
    .select('user_id')
    .where('team_id', '=', teamId)
    .where('user_id', 'in', [...userIds])
    .execute();
  const members = new Set(rows.map((r) => r.user_id));
  const outside = userIds.filter((id) => !members.has(id));
  if (outside.length > 0) {
    throw new PlatformError(
      `A tag's members must be members of the team (${outside.length} are not).`,
      400,
      false,
    );
  }
}
