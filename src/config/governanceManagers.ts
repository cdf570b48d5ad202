import { setting } from './setting';
import { ConfigError, type Read } from './values';

/** Who is told about teams nobody owns, and how long the answer is reused. */
export interface GovernanceManagerSettings {
  /**
   * `STEWARD_GOVERNANCE_MANAGERS`: object ids of the governance managers. When set, this list is the
   * answer in every mode, and the directory is not asked who holds the role (so a tenant need not
   * grant Graph the permission to read app-role assignments).
   */
  configured: readonly string[];
  /** `STEWARD_GOVERNANCE_MANAGERS_CACHE_SECONDS` (default 300): how long a lookup is reused. */
  cacheMs: number;
}

const OBJECT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Reads the governance managers' settings; a value that is not an object id stops start-up. */
export function readGovernanceManagers(read: Read): GovernanceManagerSettings {
  const name = 'STEWARD_GOVERNANCE_MANAGERS';
  const ids = (setting(read, name) ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
  const bad = ids.find((id) => !OBJECT_ID.test(id));
  if (bad !== undefined)
    throw new ConfigError(name, `expected comma-separated user object ids (GUIDs), got "${bad}"`);
  const seconds = setting(read, 'STEWARD_GOVERNANCE_MANAGERS_CACHE_SECONDS');
  return {
    configured: [...new Set(ids.map((id) => id.toLowerCase()))],
    cacheMs: seconds * 1000,
  };
}

/**
 * `STEWARD_GRAPH_ROLES_APP`: the app registration whose app roles Steward's tokens carry (its
 * client id or Application ID URI), where Graph reads who holds them. Default: the API's audience
 * in `entra` mode; none with embedded tokens, whose roles are not assigned in Entra ID.
 */
export function readRolesApp(read: Read, auth: { mode: string; audience: string }): string | undefined {
  return setting(read, 'STEWARD_GRAPH_ROLES_APP') ?? (auth.mode === 'entra' ? auth.audience : undefined);
}
