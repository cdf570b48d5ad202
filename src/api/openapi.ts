import { z } from 'zod';
import { type OperationPolicy, policyOf, TIER_LIMITS } from '../domain/rbac';
import { EVENT_PAYLOADS, EVENT_TYPES, models } from '../contract';
import { API_BASE, type Route } from './route';

type JsonSchema = Record<string, unknown>;
const COMPONENT = '#/components/schemas/';

/** Turns a zod schema into JSON Schema whose named models point into `components.schemas`. */
function toSchema(schema: z.ZodType): JsonSchema {
  const id = models.get(schema)?.id;
  if (id) return { $ref: `${COMPONENT}${id}` };
  const json = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    metadata: models,
    io: 'input',
    unrepresentable: 'any',
  }) as JsonSchema;
  delete json.$schema;
  delete json.$defs;
  return JSON.parse(JSON.stringify(json).replaceAll('"#/$defs/', `"${COMPONENT}`)) as JsonSchema;
}

/** Every registered wire model as `components.schemas`, keyed by its contract name (made once). */
let components: Record<string, JsonSchema> | undefined;
function componentSchemas(): Record<string, JsonSchema> {
  components ??= modelSchemas();
  return structuredClone(components);
}

function modelSchemas(): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(models, {
    target: 'draft-2020-12',
    uri: (id) => `${COMPONENT}${id}`,
    io: 'input',
    unrepresentable: 'any',
  }) as { schemas: Record<string, JsonSchema> };
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    delete schema.$id;
  }
  return schemas;
}

function parameters(schema: z.ZodType | undefined, where: 'path' | 'query' | 'header'): JsonSchema[] {
  if (!(schema instanceof z.ZodObject)) return [];
  return Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, property]) => {
    const json = toSchema(property);
    const description = typeof json.description === 'string' ? json.description : undefined;
    return {
      name,
      in: where,
      required: where === 'path' || !property.safeParse(undefined).success,
      ...(description ? { description } : {}),
      schema: json,
    };
  });
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'The request is malformed or breaks a rule; `details` names the fields.',
  401: 'No bearer token, or one that does not verify.',
  403: 'The caller lacks the role this operation needs.',
  404: 'No such resource, or the caller may not see it.',
  409: 'The resource is not in a state that allows this.',
  408: 'The request body did not arrive completely in time (or the client went away).',
  413: 'The request body is over 1 MiB.',
  415: 'The request body is not application/json.',
  429: 'The caller spent its budget for this tier; see Retry-After.',
  502: 'The collaboration platform refused the request.',
  503: 'The store or the collaboration platform is unavailable for now; see Retry-After.',
};

const RATE_HEADERS = {
  'X-RateLimit-Limit': { description: 'Calls a minute allowed for this tier.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Calls left in the current minute.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': {
    description: 'Seconds until the current minute ends and the budget is full again.',
    schema: { type: 'integer', minimum: 1 },
  },
  'request-id': { description: 'Identifies this request in the logs.', schema: { type: 'string' } },
  'X-Content-Type-Options': { description: 'Always `nosniff`.', schema: { type: 'string' } },
  'Cache-Control': {
    description: 'Always `no-store`: answers depend on the token.',
    schema: { type: 'string' },
  },
};

function errorResponses(route: Route): Record<string, JsonSchema> {
  // Every operation can meet an unavailable store or platform (503) or a platform refusal (502).
  const statuses = new Set([400, 401, 403, 429, 502, 503]);
  if (route.path.includes('{')) statuses.add(404);
  if (route.body) {
    statuses.add(408);
    statuses.add(413);
    statuses.add(415);
  }
  for (const status of Object.keys(route.responses).map(Number)) if (status >= 400) statuses.add(status);
  const responses: Record<string, JsonSchema> = {};
  for (const status of [...statuses].sort()) {
    const headers: Record<string, unknown> = { ...RATE_HEADERS };
    if (status === 429 || status === 503)
      headers['Retry-After'] = { description: 'Seconds to wait.', schema: { type: 'integer' } };
    if (status === 401)
      headers['WWW-Authenticate'] = {
        description:
          '`Bearer` when no credentials were sent; `Bearer error="invalid_request"` for another scheme, `Bearer error="invalid_token"` for a token that does not verify (RFC 6750).',
        schema: { type: 'string' },
      };
    responses[String(status)] = {
      description: route.responses[status]?.description ?? ERROR_DESCRIPTIONS[status] ?? 'Error.',
      headers,
      content: { 'application/json': { schema: { $ref: `${COMPONENT}ApiError` } } },
    };
  }
  return responses;
}

function operation(route: Route, policy: OperationPolicy): JsonSchema {
  const responses: Record<string, JsonSchema> = {};
  for (const [status, spec] of Object.entries(route.responses)) {
    if (Number(status) >= 400) continue;
    const headers: Record<string, unknown> = { ...RATE_HEADERS };
    for (const [name, description] of Object.entries(spec.headers ?? {})) {
      headers[name] = { description, schema: { type: 'string' } };
    }
    responses[status] = {
      description: spec.description,
      headers,
      ...(spec.schema ? { content: { 'application/json': { schema: toSchema(spec.schema) } } } : {}),
    };
  }
  Object.assign(responses, errorResponses(route));
  const roles = policy.roles.join(', ');
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: [
      route.description,
      `Roles: ${roles}${policy.condition ? ` (a plain user must be ${policy.condition})` : ''}. ` +
        `Tier ${policy.tier}: ${TIER_LIMITS[policy.tier]} calls a minute.`,
    ]
      .filter(Boolean)
      .join('\n\n'),
    tags: [route.tag],
    security: [{ bearer: [] }],
    'x-steward-tier': policy.tier,
    'x-steward-roles': [...policy.roles],
    ...(policy.extension ? { 'x-steward-extension': true } : {}),
    parameters: [
      ...parameters(route.params, 'path'),
      ...parameters(route.query, 'query'),
      ...parameters(route.headers, 'header'),
    ],
    ...(route.body
      ? {
          requestBody: {
            required: !route.body.safeParse(undefined).success,
            content: { 'application/json': { schema: toSchema(route.body) } },
          },
        }
      : {}),
    responses,
  };
}

/** Each event's delivery as OpenAPI 3.1 `webhooks`: the POST a hook subscribed to it receives. */
function webhooks(): Record<string, JsonSchema> {
  const header = (name: string, description: string) => ({
    name,
    in: 'header',
    required: name !== 'X-Steward-Signature',
    description,
    schema: { type: 'string' },
  });
  return Object.fromEntries(
    EVENT_TYPES.map((code) => [
      code,
      {
        post: {
          summary: `The \`${code}\` event, delivered`,
          parameters: [
            header('X-Steward-Webhook', 'The hook’s id.'),
            header('X-Steward-Event', `\`${code}\`.`),
            header('X-Steward-Delivery', 'The delivery id, the same on every attempt.'),
            header('X-Steward-Signature', 'When the hook has a secret: hex HMAC-SHA256 of the body.'),
          ],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: toSchema(EVENT_PAYLOADS[code]) } },
          },
          responses: { '200': { description: 'Received (200, 201 or 202; anything else is retried).' } },
        },
      },
    ]),
  );
}

/** The OpenAPI 3.1 document of `routes`, as served at `GET /api/v1.0/openapi.json`. */
export function buildOpenApiDocument(routes: readonly Route[], info: { version: string; serverUrl: string }) {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    paths[route.path] ??= {};
    paths[route.path]![route.method] = operation(route, policyOf(route.operationId));
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Steward governance API',
      version: info.version,
      description:
        'Team provisioning and governance for Microsoft Teams. Every operation needs a bearer token; ' +
        'errors are ApiError objects; calls are rate limited per caller and tier.',
    },
    servers: [{ url: `${info.serverUrl}${API_BASE}` }],
    security: [{ bearer: [] }],
    paths,
    webhooks: webhooks(),
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: componentSchemas(),
    },
  };
}
