import type { Kysely } from 'kysely';
import type { Caller } from '../../domain/caller';
import { NotFound, PlatformBusy } from '../../domain/errors';
import { answersSearch, mostSimilar, type TeamLikeness } from '../../domain/similarTeams';
import type { DirectoryTeam, SimilarTeam, Team, TeamMember, TeamProvisioningRequest } from '../../contract';
import { withBudgetDeadline } from '../../platform/pacing';
import type { TeamsPlatform } from '../../platform/port';
import type { TemplateRepository } from '../../store/catalog/templates';
import { type MadeTeam, madeTeams } from '../../store/joining/joinRequests';
import type { Database } from '../../store/schema';

/** The most teams a search returns. */
export const DIRECTORY_TOP_MAX = 25;
/** The most alike teams a request is warned about. */
export const SIMILAR_TEAMS_MAX = 5;
/**
 * The most candidate teams read from the platform for one search (two reads each: the team, its
 * members): the best-ranked, since those the caller may not see are left out after the reads.
 */
const PLATFORM_READS_MAX = 20;

/**
 * How long a read of the similar teams shown with a request may wait for its Graph budget turn.
 * The warning is best effort: while provisioning jobs spend the tenant's Teams budget, waiting for
 * turns behind them kept a request open for 50 s and took turns from the jobs (bench/RESULTS.md,
 * graph-pace); the request is made without the warning instead.
 */
const SIMILAR_READS_WAIT_MS = 1000;

/** A team as the caller may see it, with what the directory shows of it. */
export interface SeenTeam {
  entry: DirectoryTeam;
  team: Team;
  members: TeamMember[];
}

/**
 * The team directory: teams made from templates, as a caller may see them (`joining.ts` says who
 * may see what), found by name or by likeness to a team someone asks for.
 */
export class TeamDirectory {
  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      teams: TeamsPlatform;
      templates: TemplateRepository;
    },
  ) {}

  /** Teams whose name answers `search`, that the caller may see, most alike first. */
  async search(caller: Caller, search: string, top: number): Promise<DirectoryTeam[]> {
    const candidates = (await madeTeams(this.deps.db)).filter(
      (t) => answersSearch(search, t.name) || answersSearch(search, t.displayName),
    );
    const ranked = mostSimilar({ name: search }, candidates, candidates.length);
    // Prefix matches that are not alike by the rule come after the alike ones.
    const ordered = [
      ...ranked.map((r) => r.candidate),
      ...candidates.filter((c) => !ranked.some((r) => r.candidate === c)),
    ];
    const seen = await this.seeAll(caller, ordered.slice(0, Math.max(top, PLATFORM_READS_MAX)));
    return seen.slice(0, top).map((s) => s.entry);
  }

  /**
   * Existing teams alike a team someone asks for, that they may see: a warning, never a refusal. A
   * failure to read them is the caller's to ignore.
   */
  async similarTo(caller: Caller, wanted: TeamLikeness): Promise<SimilarTeam[]> {
    const alike = mostSimilar(wanted, await madeTeams(this.deps.db), PLATFORM_READS_MAX);
    const seen = await this.seeAll(
      caller,
      alike.map((a) => a.candidate),
    );
    const reasons = new Map(alike.map((a) => [a.candidate.teamId, a.similarity.reason]));
    return seen
      .slice(0, SIMILAR_TEAMS_MAX)
      .map((s) => ({ ...s.entry, reason: reasons.get(s.team.id) ?? 'name' }));
  }

  /**
   * The warning of a provisioning request (or its preview): teams alike the one asked for, their
   * names compared as their requesters typed them (before any naming convention). Undefined when
   * they could not be read: the request is made (or previewed) all the same.
   */
  async similarToRequest(
    caller: Caller,
    request: TeamProvisioningRequest,
  ): Promise<SimilarTeam[] | undefined> {
    try {
      const wanted = {
        name: request.team.name,
        description: request.team.description ?? '',
        templateId: request.template.id,
      };
      return await withBudgetDeadline(SIMILAR_READS_WAIT_MS, () => this.similarTo(caller, wanted));
    } catch {
      return undefined;
    }
  }

  /** The candidates the caller may see, in order, read from the platform a few at a time. */
  private async seeAll(caller: Caller, candidates: readonly MadeTeam[]): Promise<SeenTeam[]> {
    const seen: SeenTeam[] = [];
    const batch = 4;
    for (let i = 0; i < candidates.length; i += batch) {
      const read = await Promise.all(
        candidates.slice(i, i + batch).map((c) =>
          this.see(caller, c.teamId, c).catch((error: unknown) => {
            // A team that cannot be read is left out; a budget with no turn for the reads leaves
            // the whole answer unknown, not silently short.
            if (error instanceof PlatformBusy) throw error;
            return undefined;
          }),
        ),
      );
      for (const one of read) if (one) seen.push(one);
    }
    return seen;
  }

  /** The team as the caller may see it, or undefined when they may not (or it is gone). */
  async see(caller: Caller, teamId: string, made: MadeTeam | undefined): Promise<SeenTeam | undefined> {
    const team = await this.deps.teams.getTeam(teamId);
    if (!team) return undefined;
    let members: TeamMember[];
    try {
      members = await this.deps.teams.listMembers(teamId);
    } catch (error) {
      if (error instanceof NotFound) return undefined;
      throw error;
    }
    const isMember = members.some((m) => m.userId === caller.id);
    const listed = team.discoverySettings.showInTeamsSearchAndSuggestions === true;
    if (!caller.privileged && !isMember && team.visibility !== 'public' && !listed) return undefined;
    const template = made?.templateId ? await this.deps.templates.get(made.templateId) : undefined;
    const directJoin =
      team.visibility === 'public' && template?.template.templateConfiguration.allowDirectJoin === true;
    const entry: DirectoryTeam = {
      id: team.id,
      displayName: team.displayName,
      description: team.description,
      visibility: team.visibility,
      template: made?.templateId
        ? {
            id: made.templateId,
            name: template?.template.templateConfiguration.name ?? made.templateName ?? '',
          }
        : null,
      owners: members
        .filter((m) => m.roles.includes('owner'))
        .map((m) => ({ id: m.userId, displayName: m.displayName })),
      memberCount: members.length,
      webUrl: team.webUrl,
      access: isMember ? 'member' : directJoin ? 'direct' : 'request',
    };
    return { entry, team, members };
  }
}
