import type { Caller } from '../../domain/caller';
import { Conflict, Forbidden, NotFound } from '../../domain/errors';
import type { Team, TeamMember } from '../../contract';
import type { TeamsPlatform } from '../../platform/port';

/** How a caller stands to a team. */
export type Relation = 'owner' | 'member';

/** Who may see and change a team: the checks every team operation starts with. */
export class TeamAccess {
  constructor(private readonly teams: TeamsPlatform) {}

  async require(teamId: string): Promise<Team> {
    const team = await this.teams.getTeam(teamId);
    if (!team) throw teamNotFound(teamId);
    return team;
  }

  async membersOf(teamId: string): Promise<TeamMember[]> {
    try {
      return await this.teams.listMembers(teamId);
    } catch (error) {
      if (error instanceof NotFound) throw teamNotFound(teamId);
      throw error;
    }
  }

  /**
   * The caller's relation to the team, which must be at least `needed`; admins pass as owners.
   * Someone outside the team may not know it exists (404); a member who is not an owner gets 403.
   */
  async requireRelation(caller: Caller, teamId: string, needed: Relation): Promise<Relation> {
    if (caller.privileged) return 'owner';
    const member = (await this.membersOf(teamId)).find((m) => m.userId === caller.id);
    if (!member) throw teamNotFound(teamId);
    const relation: Relation = member.roles.includes('owner') ? 'owner' : 'member';
    if (needed === 'owner' && relation !== 'owner')
      throw new Forbidden('Only the owners of this team may do this.');
    return relation;
  }
}

/** Refuses changes to an archived team. */
export function requireActive(team: Team): void {
  if (team.isArchived) throw new Conflict(`"${team.displayName}" is archived: unarchive it first.`);
}

/** The 404 of a team the caller may not know about, or that does not exist. */
export function teamNotFound(teamId: string): NotFound {
  return new NotFound(`No team "${teamId}".`);
}
