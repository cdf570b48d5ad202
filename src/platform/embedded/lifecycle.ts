import type { Kysely } from 'kysely';
import { NotFound } from '../../domain/errors';
import { dayOf } from '../../domain/lifecycle/dates';
import type { Database, PlatformTeamRow } from '../../store/schema';
import type { LifecycleFacts, LifecyclePage, LifecycleSource, TeamActivity } from '../port';

type TeamRow = Pick<
  PlatformTeamRow,
  'id' | 'display_name' | 'created_at' | 'is_archived' | 'last_activity_at'
>;

/** Teams read at once while streaming the activity. */
const ACTIVITY_PAGE = 1000;

/**
 * The simulated tenant as lifecycle governance reads it: teams page by page in id order (two
 * queries a page: the teams, then their owners and guests), and a simulated activity report: a
 * team's last activity is its creation, or the last time it was marked active (`markActive`).
 */
export class EmbeddedLifecycle implements LifecycleSource {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async listTeams(cursor: string | undefined, size: number): Promise<LifecyclePage> {
    const rows = await this.teamRows()
      .$if(cursor !== undefined, (q) => q.where('id', '>', cursor!))
      .orderBy('id')
      .limit(size)
      .execute();
    const teams = await this.withPeople(rows);
    return rows.length === size ? { teams, next: rows.at(-1)!.id } : { teams };
  }

  async getTeam(teamId: string): Promise<LifecycleFacts | undefined> {
    const rows = await this.teamRows().where('id', '=', teamId).execute();
    return (await this.withPeople(rows))[0];
  }

  async *activity(): AsyncIterable<TeamActivity> {
    let after: string | undefined;
    for (;;) {
      const rows = await this.teamRows()
        .$if(after !== undefined, (q) => q.where('id', '>', after!))
        .orderBy('id')
        .limit(ACTIVITY_PAGE)
        .execute();
      for (const row of rows) yield { teamId: row.id, lastActivityDate: lastActivityOf(row) };
      if (rows.length < ACTIVITY_PAGE) return;
      after = rows.at(-1)!.id;
    }
  }

  /** Records activity in the team now (the viewer's "Mark as active", a simulated conversation). */
  async markActive(teamId: string): Promise<void> {
    const result = await this.db
      .updateTable('platform_teams')
      .set({ last_activity_at: this.now().toISOString() })
      .where('id', '=', teamId)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw new NotFound(`There is no team ${teamId}.`);
  }

  /**
   * Moves the team's creation (and its last activity) `days` into the past: the viewer's "Make it
   * older", so a demo can show what lifecycle governance does to a team months old.
   */
  async backdate(teamId: string, days: number): Promise<void> {
    const row = await this.teamRows().where('id', '=', teamId).executeTakeFirst();
    if (!row) throw new NotFound(`There is no team ${teamId}.`);
    const earlier = (iso: string) => new Date(Date.parse(iso) - days * 86_400_000).toISOString();
    await this.db
      .updateTable('platform_teams')
      .set({
        created_at: earlier(row.created_at),
        last_activity_at: row.last_activity_at ? earlier(row.last_activity_at) : null,
      })
      .where('id', '=', teamId)
      .execute();
  }

  private teamRows() {
    return this.db
      .selectFrom('platform_teams')
      .select(['id', 'display_name', 'created_at', 'is_archived', 'last_activity_at']);
  }

  private async withPeople(rows: TeamRow[]): Promise<LifecycleFacts[]> {
    if (rows.length === 0) return [];
    const people = await this.db
      .selectFrom('platform_members')
      .select(['team_id', 'user_id', 'role'])
      .where(
        'team_id',
        'in',
        rows.map((r) => r.id),
      )
      .where('role', 'in', ['owner', 'guest'])
      .execute();
    const owners = new Map<string, string[]>();
    const guests = new Map<string, string[]>();
    for (const person of people) {
      const into = person.role === 'owner' ? owners : guests;
      into.set(person.team_id, [...(into.get(person.team_id) ?? []), person.user_id]);
    }
    return rows.map((row) => ({
      teamId: row.id,
      displayName: row.display_name,
      createdDateTime: row.created_at,
      isArchived: Number(row.is_archived) === 1,
      lastActivityDate: lastActivityOf(row),
      ownerIds: owners.get(row.id) ?? [],
      guestIds: guests.get(row.id) ?? [],
    }));
  }
}

function lastActivityOf(row: TeamRow): string {
  return dayOf(row.last_activity_at ?? row.created_at);
}
