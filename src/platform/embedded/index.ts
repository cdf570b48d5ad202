import type { Kysely } from 'kysely';
import type { DirectoryReader } from '../../domain/directory';
import type { Database } from '../../store/schema';
import type { DelegatedGrant, SignedInPerson } from '../../domain/delegation';
import type { DelegatedAccess, Platform } from '../port';
import { EmbeddedLifecycle } from './lifecycle';
import { type EmbeddedFault, EmbeddedTeams } from './teams';

export { EmbeddedLifecycle } from './lifecycle';
export { SEED_TEMPLATE_TEAM_ID, seedEmbeddedTeams } from './seed';
export { EmbeddedTeams, type EmbeddedFault, type TeamView, type TeamViewSource } from './teams';
export {
  BACKDATE_DAYS,
  escapeHtml,
  renderTeamListPage,
  renderTeamNotFoundPage,
  renderTeamPage,
  renderViewerForeignFormPage,
  renderViewerLoopbackOnlyPage,
  VIEWER_HEADERS,
} from './viewer';

/** The embedded platform, with its teams typed as the simulated tenant (seeding and the viewer need that). */
export interface EmbeddedPlatform extends Platform {
  readonly kind: 'embedded';
  readonly teams: EmbeddedTeams;
  readonly lifecycle: EmbeddedLifecycle;
}

/** What the embedded platform is built from. */
export interface EmbeddedPlatformParts {
  /** The seeded people, groups and labels. */
  directory: DirectoryReader;
  /** Steward's own database, which holds the simulated tenant's teams. */
  db: Kysely<Database>;
  /** The deployment's public base URL (teams' webUrl points at the viewer under it). */
  publicUrl: () => string;
  /** Delay before every teams call (tests and benchmarks); 0 for none. */
  latencyMs?: number;
  /** Calls that fail: the Nth teams call (1-based) answers with the status. */
  faults?: ReadonlyArray<EmbeddedFault>;
  /** The tenant's clock (marking a team active stamps it); the system's by default. */
  now?: () => Date;
}

/**
 * The embedded platform: a simulated tenant kept in Steward's own database. Its directory is the
 * seeded people, groups and labels; its teams are rows shaped like Microsoft Graph's answers.
 */
export function createEmbeddedPlatform(parts: EmbeddedPlatformParts): EmbeddedPlatform {
  const teams = new EmbeddedTeams(parts.db, {
    publicUrl: parts.publicUrl,
    latencyMs: parts.latencyMs ?? 0,
    faults: parts.faults ?? [],
  });
  const lifecycle = new EmbeddedLifecycle(parts.db, parts.now);
  return {
    kind: 'embedded',
    directory: parts.directory,
    teams,
    lifecycle,
    delegation: new EmbeddedDelegation(parts.now),
  };
}

/** How long a grant of the embedded tenant lasts: as long as a delegated token of Entra ID at least does. */
const EMBEDDED_GRANT_SECONDS = 3600;

/**
 * The embedded tenant's stand-in for the on-behalf-of flow: the API has verified the person's token
 * already, and the tenant lives in Steward's own database, so the grant only names the person and
 * when it lapses; the tenant checks them like Graph checks a delegated token (`applyLabel`).
 */
class EmbeddedDelegation implements DelegatedAccess {
  constructor(private readonly now: () => Date = () => new Date()) {}

  async exchange(person: SignedInPerson): Promise<DelegatedGrant> {
    return this.grantFor(person.userId);
  }

  /** As Entra ID's refresh token does: the same person, a new lapse. */
  async refresh(grant: DelegatedGrant): Promise<DelegatedGrant> {
    return this.grantFor(grant.userId);
  }

  private grantFor(userId: string): DelegatedGrant {
    return {
      userId,
      token: 'embedded-delegated-grant',
      expiresAt: new Date(this.now().getTime() + EMBEDDED_GRANT_SECONDS * 1000),
      refreshToken: 'embedded-refresh',
    };
  }
}
