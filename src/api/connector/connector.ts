import { API_BASE } from '../route';
import { type JsonSchema, swaggerSchema, titleOf } from './swaggerSchema';
import { subscriptionBody, triggerPaths, UNSUBSCRIBE_OPERATION } from './triggers';

/**
 * The Power Platform custom connector of a deployment, made from the OpenAPI document the API
 * serves (`openapi.ts`, itself made from the route table), so its actions, parameters and models
 * are the API's own: `apiDefinition.swagger.json` (Swagger 2.0 with Microsoft's `x-ms-*`
 * extensions) and `apiProperties.json` (Entra ID sign-in).
 */

/** The deployment the connector calls, and the Entra ID app registration people sign in to. */
export interface ConnectorOptions {
  /** The API's host name (and port), e.g. `steward.contoso.com`. */
  host: string;
  /** The client id of the app registration the connector signs in with. */
  clientId: string;
  /** The API's Application ID URI, whose tokens Steward accepts (`STEWARD_AUTH_AUDIENCE`). */
  resourceUri: string;
}

/** The operations the connector offers as actions, in the designer's order, with their prominence. */
export const ACTIONS: ReadonlyArray<readonly [string, 'important' | 'advanced']> = [
  ['createTeamProvisioningJob', 'important'],
  ['getMyCatalogTemplates', 'important'],
  ['getJob', 'important'],
  ['getMyJobs', 'advanced'],
  ['getMyApprovals', 'important'],
  ['approveTeamCreation', 'important'],
  ['rejectTeamCreation', 'important'],
  ['getTeam', 'advanced'],
  ['getTeamMembers', 'advanced'],
  ['addTeamMember', 'advanced'],
  ['getTeamChannels', 'advanced'],
  ['createTeamChannel', 'advanced'],
  ['getTeamChannelTabs', 'advanced'],
  ['createTeamChannelTab', 'advanced'],
  ['archiveTeam', 'advanced'],
  ['unarchiveTeam', 'advanced'],
];

interface OpenApiOperation {
  operationId: string;
  summary: string;
  description?: string;
  parameters?: Array<{
    name: string;
    in: string;
    required: boolean;
    description?: string;
    schema: JsonSchema;
  }>;
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<
    string,
    {
      description: string;
      headers?: Record<string, unknown>;
      content?: Record<string, { schema: JsonSchema }>;
    }
  >;
}
/** The parts of the OpenAPI 3.1 document the connector is made from. */
export interface OpenApiSource {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, JsonSchema> };
}

/** A summary as the designer shows it: no "(an extension)", no closing period, at most 80 characters. */
function designerSummary(summary: string): string {
  const plain = summary.replace(/\s*\(an extension\)$/, '').replace(/\.$/, '');
  return plain.length <= 80 ? plain : `${plain.slice(0, 79)}…`;
}

/** The keywords a path, query or header parameter takes from its schema. */
const PARAMETER_KEYWORDS = [
  'format',
  'enum',
  'default',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
];

/** A path, query or header parameter in Swagger 2.0's flat form. */
function parameter(source: NonNullable<OpenApiOperation['parameters']>[number]): JsonSchema {
  const schema = swaggerSchema(source.schema);
  const description =
    source.description ?? (typeof schema.description === 'string' ? schema.description : undefined);
  const flat = Object.fromEntries(
    PARAMETER_KEYWORDS.filter((k) => schema[k] !== undefined).map((k) => [k, schema[k]]),
  );
  return {
    name: source.name,
    in: source.in,
    required: source.in === 'path' ? true : source.required,
    'x-ms-summary': titleOf(source.name),
    ...(description ? { description } : {}),
    type: typeof schema.type === 'string' && schema.type !== 'object' ? schema.type : 'string',
    ...flat,
  };
}

function action(op: OpenApiOperation, visibility: string): JsonSchema {
  const parameters: JsonSchema[] = (op.parameters ?? []).map(parameter);
  const body = op.requestBody?.content['application/json']?.schema;
  if (body) {
    parameters.push({
      name: 'body',
      in: 'body',
      required: op.requestBody!.required,
      'x-ms-summary': 'Body',
      schema: swaggerSchema(body),
    });
  }
  const responses: Record<string, JsonSchema> = {};
  for (const [status, response] of Object.entries(op.responses)) {
    if (!/^2\d\d$/.test(status)) continue;
    const schema = response.content?.['application/json']?.schema;
    const headers = Object.entries(response.headers ?? {})
      .filter(([name]) => name === 'Location')
      .map(([name, header]) => [name, { type: 'string', description: (header as JsonSchema).description }]);
    responses[status] = {
      description: response.description,
      ...(headers.length ? { headers: Object.fromEntries(headers) } : {}),
      ...(schema ? { schema: swaggerSchema(schema) } : {}),
    };
  }
  responses.default = { description: 'Refused', schema: { $ref: '#/definitions/ApiError' } };
  const summary = designerSummary(op.summary);
  return {
    operationId: op.operationId,
    summary,
    description: op.description && op.description !== summary ? op.description : `${summary}.`,
    'x-ms-visibility': visibility,
    parameters,
    responses,
  };
}

/** Every `#/definitions/…` name `value` refers to, with those they refer to in turn. */
function referenced(value: unknown, definitions: Record<string, JsonSchema>, found = new Set<string>()) {
  if (Array.isArray(value)) for (const item of value) referenced(item, definitions, found);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string' && inner.startsWith('#/definitions/')) {
        const name = inner.slice('#/definitions/'.length);
        if (!found.has(name) && definitions[name]) {
          found.add(name);
          referenced(definitions[name], definitions, found);
        }
      } else referenced(inner, definitions, found);
    }
  }
  return found;
}

/** `apiDefinition.swagger.json`: the actions, one trigger per event, and Entra ID sign-in. */
export function apiDefinition(source: OpenApiSource, options: ConnectorOptions): JsonSchema {
  const operations = new Map<string, { path: string; method: string; op: OpenApiOperation }>();
  for (const [path, methods] of Object.entries(source.paths))
    for (const [method, op] of Object.entries(methods)) operations.set(op.operationId, { path, method, op });
  const named = (id: string) => {
    const found = operations.get(id);
    if (!found) throw new Error(`The API has no operation ${id}.`);
    return found;
  };
  const all: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(source.components.schemas)) all[name] = swaggerSchema(schema);
  // The template of a request is picked from the caller's own templates.
  const request = all.TeamProvisioningRequest as {
    properties: { template: { properties: { id: JsonSchema } } };
  };
  request.properties.template.properties.id['x-ms-dynamic-values'] = {
    operationId: 'getMyCatalogTemplates',
    'value-collection': 'value',
    'value-path': 'templateConfiguration/id',
    'value-title': 'templateConfiguration/name',
  };
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const [id, visibility] of ACTIONS) {
    const { path, method, op } = named(id);
    paths[path] ??= {};
    paths[path][method] = action(op, visibility);
  }
  const subscribe = named('createHookSubscription');
  const subscription = subscribe.op.requestBody!.content['application/json']!.schema;
  const subscriptionSchema = swaggerSchema(
    source.components.schemas[String(subscription.$ref).split('/').pop()!],
  );
  Object.assign(paths, triggerPaths(subscriptionBody(subscriptionSchema)));
  const unsubscribe = named(UNSUBSCRIBE_OPERATION);
  paths[unsubscribe.path] = { [unsubscribe.method]: action(unsubscribe.op, 'internal') };
  const used = referenced(paths, all);
  const definitions = Object.fromEntries([...used].sort().map((name) => [name, all[name]!]));
  return {
    swagger: '2.0',
    info: {
      title: 'Steward',
      description:
        'Team provisioning and governance for Microsoft Teams: request teams from templates, follow and ' +
        'decide approvals, manage your teams, and start flows on governance events.',
      version: '1.0',
    },
    host: options.host,
    basePath: API_BASE,
    schemes: ['https'],
    consumes: ['application/json'],
    produces: ['application/json'],
    paths,
    definitions,
    parameters: {},
    responses: {},
    securityDefinitions: {
      oauth2_auth: {
        type: 'oauth2',
        flow: 'accessCode',
        authorizationUrl: 'https://login.microsoftonline.com/common/oauth2/authorize',
        tokenUrl: 'https://login.windows.net/common/oauth2/authorize',
        scopes: {},
      },
    },
    security: [{ oauth2_auth: [] }],
    tags: [],
    'x-ms-connector-metadata': [
      { propertyName: 'Website', propertyValue: `https://${options.host}` },
      { propertyName: 'Privacy policy', propertyValue: `https://${options.host}` },
      { propertyName: 'Categories', propertyValue: 'Collaboration;IT Operations' },
    ],
  };
}

/** `apiProperties.json`: Entra ID (`aad`) sign-in to the deployment's API, on behalf of the person. */
export function apiProperties(options: ConnectorOptions): JsonSchema {
  return {
    properties: {
      connectionParameters: {
        token: {
          type: 'oauthSetting',
          oAuthSettings: {
            identityProvider: 'aad',
            clientId: options.clientId,
            scopes: [],
            redirectMode: 'Global',
            redirectUrl: 'https://global.consent.azure-apim.net/redirect',
            properties: { IsFirstParty: 'False' },
            customParameters: {
              loginUri: { value: 'https://login.microsoftonline.com' },
              tenantId: { value: 'common' },
              resourceUri: { value: options.resourceUri },
            },
          },
          uiDefinition: {
            displayName: 'Sign in with Microsoft Entra ID',
            description: 'The account the flow calls Steward as.',
            tooltip: 'Provide your work account',
            constraints: { required: 'true' },
          },
        },
      },
      iconBrandColor: '#464775',
      capabilities: ['actions', 'triggers'],
      publisher: 'Steward',
      stackOwner: 'Steward',
    },
  };
}
