import { segment } from './paths';

/** `@odata.bind` URLs: Graph wants absolute URLs of its own (so a sovereign cloud's host, not the public one). */
export class Binds {
  constructor(private readonly baseUrl: string) {}

  /** A user, for owners, members and conversation members. */
  user(userId: string): string {
    return `${this.baseUrl}/users('${encodeURIComponent(userId)}')`;
  }

  /** A group, to make a team from it. */
  group(groupId: string): string {
    return `${this.baseUrl}/groups('${encodeURIComponent(groupId)}')`;
  }

  /** The standard team template. */
  template(): string {
    return `${this.baseUrl}/teamsTemplates('standard')`;
  }

  /** A team on beta, for what v1.0's team resource lacks (`discoverySettings`). */
  betaTeam(teamId: string): string {
    return `${new URL(this.baseUrl).origin}/beta/teams/${segment(teamId)}`;
  }

  /** An app of the tenant's catalog, for tabs. */
  app(teamsAppId: string): string {
    return `${this.baseUrl}/appCatalogs/teamsApps/${encodeURIComponent(teamsAppId)}`;
  }
}
