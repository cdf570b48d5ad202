import { randomUUID } from 'node:crypto';
import { readZipEntry, ZipError } from '../../../src/lib/zip';
import { AppRoleGrantsApi } from './appRoleGrants';
import { fail, type Json, type Reply, unquote } from './protocol';
import { ENTRA_ROLES, type Handler, type ParsedRequest } from './records';

/** The teamsApp properties a `$filter` may name (`resources/teamsapp.md`). */
const FILTERABLE = ['id', 'externalId', 'displayName', 'distributionMethod'];
const DELEGATED_READ = [
  'AppCatalog.Submit',
  'AppCatalog.Read.All',
  'AppCatalog.ReadWrite.All',
  'Directory.Read.All',
  'Directory.ReadWrite.All',
];
const DELEGATED_WRITE = ['AppCatalog.Submit', 'AppCatalog.ReadWrite.All', 'Directory.ReadWrite.All'];

/** One version of an app in the catalog (`resources/teamsappdefinition.md`). */
interface AppDefinition {
  id: string;
  teamsAppId: string;
  displayName: string;
  version: string;
  publishingState: 'submitted' | 'published';
}

/**
 * The Teams app catalog (microsoftgraph/microsoft-graph-docs-contrib, api-reference/v1.0/):
 *
 * - `GET /appCatalogs/teamsApps` (`api/appcatalogs-list-teamsapps.md`): store apps and the
 *   organisation's; `$filter` on its properties with `eq`, `ne`, `and`, `or`, `not` (this fake:
 *   `eq` and `ne` clauses joined by one of `and` / `or`), `$select`. An organisation's app has a
 *   catalog `id` made by the server; its manifest's id is its `externalId` (the page's note).
 *   Application permissions AppCatalog.Read.All or AppCatalog.ReadWrite.All.
 * - `POST /appCatalogs/teamsApps` with the app package (`api/teamsapp-publish.md`): Content-Type
 *   `application/zip`; 201 with the teamsApp (`distributionMethod` `organization`); a manifest that
 *   cannot be read is 400 `UnableToParseTeamsAppManifest` with the schema errors; "each app in the
 *   app catalog must have a unique manifest ID" (an `externalId` already there: 409). Only an
 *   administrator publishes without `requiresReview=true` (Global or Teams Administrator here).
 * - `POST /appCatalogs/teamsApps/{id}/appDefinitions` (`api/teamsapp-update.md`): a new version of
 *   an organisation's app, 204; delegated only ("Application: Not supported"), and "only global
 *   administrators can call this API" (without `requiresReview=true`).
 */
export abstract class AppCatalogApi extends AppRoleGrantsApi {
  /** Each catalog app's versions, by catalog id. */
  readonly appDefinitions = new Map<string, AppDefinition[]>();

  /** Steward's own app in the catalog: the organisation's app whose `externalId` is the bot's manifest id. */
  stewardApp(): Json | undefined {
    const manifestId = this.options.bot?.teamsAppId;
    return manifestId === undefined ? undefined : this.organisationApp(manifestId);
  }

  /** Publishes an organisation's app as an administrator would (a new catalog id); returns it. */
  publishOrganisationApp(manifest: { id: string; name: string; version: string }): Json {
    const app = {
      id: randomUUID(),
      externalId: manifest.id,
      displayName: manifest.name,
      distributionMethod: 'organization',
    };
    this.apps.set(app.id, app);
    this.appDefinitions.set(app.id, [this.definition(app.id, manifest, 'published')]);
    return app;
  }

  protected appCatalogRoutes(): Array<[string, RegExp, Handler]> {
    return [
      ['GET', /^\/appCatalogs\/teamsApps$/, (r) => this.listCatalog(r)],
      ['POST', /^\/appCatalogs\/teamsApps$/, (r) => this.publish(r)],
      ['POST', /^\/appCatalogs\/teamsApps\/([^/]+)\/appDefinitions$/, (r, id) => this.update(r, id)],
    ];
  }

  private organisationApp(manifestId: string): Json | undefined {
    return [...this.apps.values()].find(
      (app) => app.distributionMethod === 'organization' && app.externalId === manifestId,
    );
  }

  private listCatalog(request: ParsedRequest): Reply {
    const denied = this.denied(['AppCatalog.Read.All', 'AppCatalog.ReadWrite.All'], DELEGATED_READ);
    if (denied) return denied;
    const filter = request.url.searchParams.get('$filter');
    const test = filter === null ? () => true : catalogFilter(filter);
    if (typeof test !== 'function') return test;
    const select = request.url.searchParams.get('$select')?.split(',');
    const apps = [...this.apps.values()]
      .filter(test)
      .map((app) => (select ? Object.fromEntries(select.map((field) => [field, app[field] ?? null])) : app));
    return this.collection(request, apps);
  }

  private publish(request: ParsedRequest): Reply {
    const reviewed = request.url.searchParams.get('requiresReview') === 'true';
    const admins = reviewed ? undefined : [ENTRA_ROLES.globalAdministrator, ENTRA_ROLES.teamsAdministrator];
    const denied = this.denied(['AppCatalog.ReadWrite.All'], DELEGATED_WRITE, admins);
    if (denied) return denied;
    const manifest = this.manifestOf(request);
    if ('status' in manifest) return manifest;
    if (this.organisationApp(manifest.id))
      return fail(
        409,
        'Conflict',
        `An app with the manifest id ${manifest.id} is already in the app catalog.`,
      );
    const app = this.publishOrganisationApp(manifest);
    if (reviewed) this.appDefinitions.get(String(app.id))![0]!.publishingState = 'submitted';
    return {
      status: 201,
      headers: { location: `${this.baseUrl}/appCatalogs/teamsApps/${String(app.id)}` },
      body: { '@odata.context': `${this.baseUrl}/$metadata#appCatalogs/teamsApps/$entity`, ...app },
    };
  }

  private update(request: ParsedRequest, id: string): Reply {
    if (this.caller?.idtyp !== 'user')
      return fail(403, 'Forbidden', 'Application permissions are not supported for this operation.');
    const reviewed = request.url.searchParams.get('requiresReview') === 'true';
    const denied = this.denied([], DELEGATED_WRITE, reviewed ? undefined : [ENTRA_ROLES.globalAdministrator]);
    if (denied) return denied;
    const app = this.apps.get(id);
    if (!app) return fail(404, 'NotFound', `No app with id '${id}' in the app catalog.`);
    if (app.distributionMethod !== 'organization')
      return fail(
        400,
        'BadRequest',
        "Only an app whose distributionMethod is 'organization' can be updated.",
      );
    const manifest = this.manifestOf(request);
    if ('status' in manifest) return manifest;
    if (manifest.id !== app.externalId)
      return fail(400, 'BadRequest', "The package's manifest id is not the app's (its externalId).");
    const definition = this.definition(id, manifest, reviewed ? 'submitted' : 'published');
    this.appDefinitions.get(id)?.push(definition);
    if (!reviewed) app.displayName = manifest.name;
    return reviewed ? { status: 201, body: definition } : { status: 204 };
  }

  /** The manifest of the zip in the body, or Graph's answer to a package it cannot read. */
  private manifestOf(request: ParsedRequest): { id: string; name: string; version: string } | Reply {
    if (!(request.headers['content-type'] ?? '').startsWith('application/zip'))
      return fail(
        415,
        'UnsupportedMediaType',
        'The request body must be a Teams app package (application/zip).',
      );
    let manifest: Json;
    try {
      const entry = readZipEntry(request.raw ?? Buffer.alloc(0), 'manifest.json');
      manifest = entry ? (JSON.parse(entry.toString('utf8')) as Json) : {};
    } catch (error) {
      if (!(error instanceof ZipError || error instanceof SyntaxError)) throw error;
      manifest = {};
    }
    const name = (manifest.name as { short?: unknown } | undefined)?.short;
    const missing = [
      ...(typeof manifest.id === 'string' ? [] : ['id']),
      ...(typeof manifest.version === 'string' ? [] : ['version']),
      ...(typeof name === 'string' ? [] : ['name']),
    ];
    if (missing.length === 0)
      return { id: String(manifest.id), name: String(name), version: String(manifest.version) };
    const details = missing.map((target) => ({
      code: 'SchemaError_Required',
      message: 'Required properties are missing from object: [].',
      target,
    }));
    const message = details.map((d) => `${d.target} | ${d.message}`).join('; ');
    const reply = fail(400, 'BadRequest', message);
    const error = (reply.body as { error: Json }).error;
    error.innerError = {
      ...(error.innerError as Json),
      code: 'UnableToParseTeamsAppManifest',
      message,
      details,
    };
    return reply;
  }

  private definition(
    teamsAppId: string,
    manifest: { name: string; version: string },
    publishingState: AppDefinition['publishingState'],
  ): AppDefinition {
    const id = Buffer.from(`${teamsAppId}##${manifest.version}##${publishingState}`).toString('base64');
    return { id, teamsAppId, displayName: manifest.name, version: manifest.version, publishingState };
  }
}

/** A test of catalog apps for `filter`: `field eq|ne 'value'` clauses joined by `and` or by `or`; else Graph's 400. */
function catalogFilter(filter: string): ((app: Json) => boolean) | Reply {
  const joiner = /\s+and\s+/i.test(filter) ? 'and' : 'or';
  const tests: Array<(app: Json) => boolean> = [];
  for (const clause of filter.split(new RegExp(`\\s+${joiner}\\s+`, 'i'))) {
    const m = /^\s*(\w+)\s+(eq|ne)\s+('(?:[^']|'')*')\s*$/i.exec(clause);
    if (!m) return fail(400, 'BadRequest', `Invalid filter clause: ${clause}`);
    const [, field = '', operator = '', literal = ''] = m;
    if (!FILTERABLE.includes(field))
      return fail(
        400,
        'BadRequest',
        `Could not find a property named '${field}' on type 'microsoft.graph.teamsApp'.`,
      );
    const value = unquote(literal).toLowerCase();
    const equal = (app: Json) => String(app[field] ?? '').toLowerCase() === value;
    tests.push(operator.toLowerCase() === 'eq' ? equal : (app) => !equal(app));
  }
  return joiner === 'and' ? (app) => tests.every((t) => t(app)) : (app) => tests.some((t) => t(app));
}
