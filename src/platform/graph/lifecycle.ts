import type { Dispatcher } from 'undici';
import { NotFound } from '../../domain/errors';
import type { LifecycleFacts, LifecyclePage, LifecycleSource, TeamActivity } from '../port';
import { teamActivityReport } from './activityReport';
import { TEAMS_READ_AT_ONCE } from './budget';
import type { GraphClient } from './client';
import type { GraphMember, GraphTeam } from './mapping';
import { segment } from './paths';

interface TeamsPage {
  value?: Array<{ id: string; displayName?: string | null }>;
  '@odata.nextLink'?: string;
}

/**
 * The tenant on Microsoft Graph as lifecycle governance reads it. `GET /teams` lists every team
 * page by page (its `@odata.nextLink` is the cursor) but fills in only ids and names, so each team
 * is then read for `createdDateTime` and `isArchived` (`GET /teams/{id}`) and its members with their
 * roles (`GET /teams/{id}/members`: `owner`, `guest`). Activity comes from the Teams activity report.
 */
export class GraphLifecycle implements LifecycleSource {
  constructor(
    private readonly client: GraphClient,
    private readonly dispatcher: Dispatcher,
  ) {}

  async listTeams(cursor: string | undefined, size: number): Promise<LifecyclePage> {
    const page = await this.client.get<TeamsPage>(
      cursor ?? `/teams?$select=id,displayName&$top=${Math.min(size, 999)}`,
    );
    const listed = page.value ?? [];
    const teams: Array<LifecycleFacts | undefined> = new Array(listed.length);
    let next = 0;
    const work = async () => {
      while (next < listed.length) {
        const index = next++;
        teams[index] = await this.getTeam(listed[index]!.id);
      }
    };
    await Promise.all(Array.from({ length: Math.min(TEAMS_READ_AT_ONCE, listed.length) }, work));
    const found = teams.filter((t): t is LifecycleFacts => t !== undefined);
    const link = page['@odata.nextLink'];
    return link ? { teams: found, next: link } : { teams: found };
  }

  /** The team and its owners and guests; undefined when it was deleted meanwhile. */
  async getTeam(teamId: string): Promise<LifecycleFacts | undefined> {
    try {
      const [team, members] = await Promise.all([
        this.client.get<GraphTeam>(`/teams/${segment(teamId)}`),
        this.client.list<GraphMember>(`/teams/${segment(teamId)}/members`),
      ]);
      const withRole = (role: string) =>
        members
          .filter((m) => (m.roles ?? []).some((r) => r.toLowerCase() === role) && m.userId)
          .map((m) => m.userId!);
      return {
        teamId: team.id,
        displayName: team.displayName ?? '',
        createdDateTime: team.createdDateTime ?? new Date(0).toISOString(),
        isArchived: team.isArchived === true,
        lastActivityDate: null,
        ownerIds: withRole('owner'),
        guestIds: withRole('guest'),
      };
    } catch (error) {
      if (error instanceof NotFound) return undefined;
      throw error;
    }
  }

  activity(): AsyncIterable<TeamActivity> {
    return teamActivityReport(this.client, this.dispatcher);
  }
}
