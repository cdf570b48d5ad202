import { NotFound } from '../../domain/errors';
import type { TeamInventoryItem } from '../../domain/reports/model';
import type { Team, TeamMember } from '../../contract';
import { TEAMS_READ_AT_ONCE } from './budget';
import type { GraphClient } from './client';
import type { GraphTeam } from './mapping';

/**
 * Every team with its archive flag and owner count. Graph has no query for that: `GET /teams`
 * lists the teams but fills in only id, name and description, so each team is then read (for
 * `isArchived`, `createdDateTime`) with its members, a few teams at a time. Two calls per team,
 * acceptable for a report opened now and then; a team deleted in between is left out.
 */
export async function teamInventory(
  client: GraphClient,
  getTeam: (teamId: string) => Promise<Team | undefined>,
  listMembers: (teamId: string) => Promise<TeamMember[]>,
): Promise<TeamInventoryItem[]> {
  const listed = await client.list<GraphTeam>('/teams?$select=id,displayName');
  const items: Array<TeamInventoryItem | undefined> = new Array(listed.length);
  let next = 0;
  const work = async () => {
    while (next < listed.length) {
      const index = next++;
      try {
        const [team, members] = await Promise.all([
          getTeam(listed[index]!.id),
          listMembers(listed[index]!.id),
        ]);
        if (!team) continue;
        items[index] = {
          id: team.id,
          displayName: team.displayName,
          isArchived: team.isArchived === true,
          ownerCount: members.filter((m) => m.roles.includes('owner')).length,
          createdDateTime: team.createdDateTime,
        };
      } catch (error) {
        if (!(error instanceof NotFound)) throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(TEAMS_READ_AT_ONCE, listed.length) }, work));
  return items
    .filter((item): item is TeamInventoryItem => item !== undefined)
    .sort((a, b) => a.displayName.localeCompare(b.displayName) || a.id.localeCompare(b.id));
}
