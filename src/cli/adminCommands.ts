import { readZipEntry } from '../lib/zip';
import { GRAPH_APPLICATION_PERMISSIONS, MICROSOFT_GRAPH_APP_ID } from '../platform/graph/permissions';
import { type AdminGraph, GraphRefusal } from './adminGraph';

/**
 * What `npm run admin` does in the tenant, through Microsoft Graph (microsoftgraph/
 * microsoft-graph-docs-contrib, api-reference/v1.0/): grants Steward's identity its application
 * permissions, and publishes Steward's Teams app to the organisation's catalog.
 */

/** A wrong input the administrator can fix (exit 2), as against Graph's refusal (exit 1). */
export class AdminUsageError extends Error {}

interface ServicePrincipal {
  id: string;
  appId: string;
  displayName?: string;
  appRoles?: Array<{ id: string; value: string | null; isEnabled?: boolean; allowedMemberTypes?: string[] }>;
}

interface Assignment {
  appRoleId: string;
  resourceId: string;
}

export interface GrantOutcome {
  principal: ServicePrincipal;
  /** Per resource (Microsoft Graph, Steward's API): the roles granted now and those already there. */
  resources: Array<{ name: string; granted: string[]; already: string[] }>;
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SP_FIELDS = '$select=id,appId,displayName,appRoles';

/**
 * A service principal by its application (client) id, as a managed identity is known, else by its
 * object id (`api/serviceprincipal-get.md`: the `appId` alternate key).
 */
async function servicePrincipal(graph: AdminGraph, key: string, what: string): Promise<ServicePrincipal> {
  if (!GUID.test(key))
    throw new AdminUsageError(`${what} "${key}" is not a GUID (a client id or an object id).`);
  const found =
    (await graph.find<ServicePrincipal>(`/servicePrincipals(appId='${key}')?${SP_FIELDS}`)) ??
    (await graph.find<ServicePrincipal>(`/servicePrincipals/${key}?${SP_FIELDS}`));
  if (!found)
    throw new AdminUsageError(`No service principal has the client id or object id ${key} (${what}).`);
  return found;
}

/**
 * Grants `roles` of `resource` to `principal` as app role assignments
 * (`api/serviceprincipal-post-approleassignments.md`), skipping those already granted
 * (`api/serviceprincipal-list-approleassignments.md`); a grant Graph answers "already exists" (made
 * meanwhile) counts as already there.
 */
async function grantRoles(
  graph: AdminGraph,
  principal: ServicePrincipal,
  existing: Assignment[],
  resource: ServicePrincipal,
  roles: readonly string[],
): Promise<{ name: string; granted: string[]; already: string[] }> {
  const outcome = {
    name: resource.displayName ?? resource.appId,
    granted: [] as string[],
    already: [] as string[],
  };
  const missing = roles.filter((value) => !appRole(resource, value));
  if (missing.length > 0)
    throw new AdminUsageError(
      `${outcome.name} has no application permission (app role) ${missing.join(', ')}.`,
    );
  for (const value of roles) {
    const role = appRole(resource, value)!;
    if (existing.some((a) => a.resourceId === resource.id && a.appRoleId === role.id)) {
      outcome.already.push(value);
      continue;
    }
    try {
      await graph.postJson(`/servicePrincipals/${principal.id}/appRoleAssignments`, {
        principalId: principal.id,
        resourceId: resource.id,
        appRoleId: role.id,
      });
      outcome.granted.push(value);
    } catch (error) {
      if (!(error instanceof GraphRefusal && error.status === 400 && /already exists/i.test(error.message)))
        throw error;
      outcome.already.push(value);
    }
  }
  return outcome;
}

function appRole(resource: ServicePrincipal, value: string) {
  return resource.appRoles?.find(
    (role) =>
      role.value === value &&
      role.isEnabled !== false &&
      (role.allowedMemberTypes ?? ['Application']).includes('Application'),
  );
}

/** `grant-permissions`: Steward's Graph permissions and, with `apiApp`, its API's app role `role`. */
export async function grantPermissions(
  graph: AdminGraph,
  options: { principal: string; apiApp?: string; role?: string },
): Promise<GrantOutcome> {
  if ((options.apiApp === undefined) !== (options.role === undefined))
    throw new AdminUsageError('--api-app and --role go together.');
  const principal = await servicePrincipal(graph, options.principal, '--principal');
  const microsoftGraph = await servicePrincipal(graph, MICROSOFT_GRAPH_APP_ID, 'Microsoft Graph');
  const api =
    options.apiApp === undefined ? undefined : await servicePrincipal(graph, options.apiApp, '--api-app');
  const existing = await graph.all<Assignment>(`/servicePrincipals/${principal.id}/appRoleAssignments`);
  const resources = [
    await grantRoles(graph, principal, existing, microsoftGraph, GRAPH_APPLICATION_PERMISSIONS),
  ];
  if (api && options.role) resources.push(await grantRoles(graph, principal, existing, api, [options.role]));
  return { principal, resources };
}

export interface PublishOutcome {
  action: 'published' | 'updated';
  catalogId: string;
  manifestId: string;
  version: string;
}

/**
 * `publish-app`: the package's app in the organisation's catalog, found by its manifest id
 * (`api/appcatalogs-list-teamsapps.md`, Example 3: the catalog's `externalId`), is updated with a
 * new app definition (`api/teamsapp-update.md`), else published (`api/teamsapp-publish.md`).
 */
export async function publishApp(graph: AdminGraph, zip: Buffer): Promise<PublishOutcome> {
  let manifest: { id?: unknown; version?: unknown };
  try {
    const entry = readZipEntry(zip, 'manifest.json');
    if (!entry)
      throw new AdminUsageError('The package has no manifest.json: build it with `npm run manifest`.');
    manifest = JSON.parse(entry.toString('utf8')) as typeof manifest;
  } catch (error) {
    if (error instanceof AdminUsageError) throw error;
    throw new AdminUsageError(`The package cannot be read (${(error as Error).message}).`);
  }
  if (typeof manifest.id !== 'string' || !GUID.test(manifest.id))
    throw new AdminUsageError("The package's manifest.json has no id (a GUID).");
  const manifestId = manifest.id;
  const version = typeof manifest.version === 'string' ? manifest.version : '?';
  const filter = encodeURIComponent(`externalId eq '${manifestId}'`);
  const apps = await graph.all<{ id: string; distributionMethod?: string }>(
    `/appCatalogs/teamsApps?$filter=${filter}&$select=id,distributionMethod`,
  );
  const existing = apps.find((app) => app.distributionMethod === 'organization');
  if (existing) {
    await graph.postZip(`/appCatalogs/teamsApps/${existing.id}/appDefinitions`, zip);
    return { action: 'updated', catalogId: existing.id, manifestId, version };
  }
  const published = await graph.postZip<{ id: string }>('/appCatalogs/teamsApps', zip);
  return { action: 'published', catalogId: published.id, manifestId, version };
}
