import type { Caller } from './caller';
import { refusedCharacterOf } from './controlCharacters';
import { Unauthorized } from './errors';
import { type AppRole, DIRECTORY_ROLE_TEMPLATES, isAppRole } from '../contract/roles';

/** The claims Steward reads from a verified token. */
export interface StewardClaims {
  oid?: unknown;
  tid?: unknown;
  name?: unknown;
  preferred_username?: unknown;
  roles?: unknown;
  wids?: unknown;
  idtyp?: unknown;
  azp?: unknown;
  appid?: unknown;
  sub?: unknown;
}

/**
 * Turns verified claims into a caller: the tenant must be ours, users get AUTHENTICATED_USER plus
 * their app roles and directory roles, application tokens exactly the app roles they carry.
 *
 * An application is granted nothing by default: Entra ID issues a client-credentials token
 * without `roles` to any application of the tenant when the API does not require assignment, so
 * AUTHORIZED_APP, like every other role, must be assigned to the application and be in its token.
 * The ids (`oid`, `azp`) must be one-line, well-formed text: they are looked up in the directory
 * and stored as actors, and PostgreSQL refuses a NUL.
 */
export function callerFromClaims(claims: StewardClaims, tenantId: string): Omit<Caller, 'privileged'> {
  if (typeof claims.tid !== 'string' || claims.tid.toLowerCase() !== tenantId.toLowerCase()) {
    throw new Unauthorized('The token was issued for another tenant.');
  }
  const roles = new Set<AppRole>(strings(claims.roles).filter(isAppRole));
  roles.delete('AUTHENTICATED_USER');
  const name = typeof claims.name === 'string' ? claims.name : undefined;
  if (claims.idtyp === 'app') {
    const id = firstString(claims.azp, claims.appid, claims.oid, claims.sub);
    if (!id) throw new Unauthorized('The application token names no application (azp).');
    return { id, tenantId: claims.tid, kind: 'app', name, roles };
  }
  const id = firstString(claims.oid);
  if (!id) throw new Unauthorized('The token has no object id (oid).');
  roles.delete('AUTHORIZED_APP');
  for (const wid of strings(claims.wids)) {
    const role = DIRECTORY_ROLE_TEMPLATES[wid];
    if (role) roles.add(role);
  }
  roles.add('AUTHENTICATED_USER');
  const upn = typeof claims.preferred_username === 'string' ? claims.preferred_username : undefined;
  return { id, tenantId: claims.tid, kind: 'user', name, upn, roles };
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The first claim that is an id: a non-empty one-line string of at most 128 characters. */
function firstString(...values: unknown[]): string | undefined {
  const found = values.find((v): v is string => typeof v === 'string' && v.length > 0);
  if (found === undefined) return undefined;
  if (found.length > 128 || refusedCharacterOf(found))
    throw new Unauthorized('The token names its subject with an id that is not valid.');
  return found;
}
