import type { Logger } from 'pino';
import type { DirectoryReader, RoleHolders } from '../../domain/directory';
import { GOVERNANCE_ROLES, isGovernanceRole } from '../../contract/roles';
import type { GovernanceManagers } from '../../contract';

/** How long a lookup that listed nobody is reused at most, so a fixed permission shows soon. */
const FAILED_LOOKUP_MS = 60_000;

/**
 * Who is told about teams nobody owns (`GET /lifecycle/governanceManagers`), by precedence:
 *
 * 1. `STEWARD_GOVERNANCE_MANAGERS`, when set: those people, whatever the directory says;
 * 2. else who holds a governance role (GOVERNANCE_MANAGER, TEAMS_SERVICE_ADMIN, GLOBAL_ADMIN) in
 *    the directory: the embedded one records roles; with Microsoft Graph they are read from the
 *    app-role assignments of Steward's app registration.
 *
 * Never an error: a directory that refuses or fails gives `listed: false` and why. The answer is
 * reused for `cacheMs` (a minute at most when nobody was listed), one lookup at a time, so the
 * bot's lookups do not reach Graph each time.
 */
export class GovernanceManagerLookup {
  private cached: { until: number; answer: Promise<GovernanceManagers> } | undefined;

  constructor(
    private readonly deps: {
      directory: DirectoryReader;
      configured: readonly string[];
      cacheMs: number;
      log: Pick<Logger, 'warn'>;
      clock?: () => number;
    },
  ) {}

  /** The governance managers, from the cache while it is fresh. */
  list(): Promise<GovernanceManagers> {
    const now = (this.deps.clock ?? Date.now)();
    if (this.cached && now < this.cached.until) return this.cached.answer;
    const answer = this.lookUp();
    // Until it settles, callers share this lookup; then it is kept as long as it deserves.
    this.cached = { until: Infinity, answer };
    void answer.then((found) => {
      if (this.cached?.answer !== answer) return;
      const keep = found.listed ? this.deps.cacheMs : Math.min(this.deps.cacheMs, FAILED_LOOKUP_MS);
      this.cached = { until: (this.deps.clock ?? Date.now)() + keep, answer };
    });
    return answer;
  }

  private async lookUp(): Promise<GovernanceManagers> {
    const { configured, directory, log } = this.deps;
    let answer: GovernanceManagers;
    try {
      answer =
        configured.length > 0
          ? await this.configuredPeople()
          : wire(await directory.roleHolders(GOVERNANCE_ROLES));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      answer = {
        listed: false,
        source: configured.length > 0 ? 'configuration' : 'directory',
        reason: `The directory could not be read: ${message}`,
        value: [],
      };
    }
    if (!answer.listed) log.warn({ reason: answer.reason }, 'the governance managers cannot be listed');
    return answer;
  }

  /** The configured people as the directory knows them; ids it does not know are left out, and logged. */
  private async configuredPeople(): Promise<GovernanceManagers> {
    const { configured, directory, log } = this.deps;
    const found = await directory.findUsers(configured);
    const unknown = configured.filter((id) => !found.has(id));
    if (unknown.length > 0)
      log.warn({ unknown }, 'STEWARD_GOVERNANCE_MANAGERS names people the directory does not know');
    const value = configured.flatMap((id) => {
      const user = found.get(id);
      return user ? [{ ...user, roles: ['GOVERNANCE_MANAGER' as const] }] : [];
    });
    return { listed: true, source: 'configuration', value };
  }
}

function wire(holders: RoleHolders): GovernanceManagers {
  return holders.listed
    ? {
        listed: true,
        source: holders.source,
        value: holders.people.map((person) => ({ ...person, roles: person.roles.filter(isGovernanceRole) })),
      }
    : { listed: false, source: holders.source, reason: holders.reason, value: [] };
}
