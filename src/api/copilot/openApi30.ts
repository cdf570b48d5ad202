/**
 * A curated OpenAPI 3.0.3 description of some of Steward's operations, made from the OpenAPI 3.1
 * document Steward serves (`buildOpenApiDocument`): the Microsoft 365 Agents Toolkit and Copilot's
 * API plugins read OpenAPI 3.0 only. JSON Schema 2020-12 becomes the OpenAPI 3.0 schema dialect:
 * `type: [x, 'null']` and `anyOf` with `null` become `nullable`, `const` an one-value `enum`,
 * `examples` an `example`, numeric `exclusiveMinimum`/`exclusiveMaximum` the boolean form, a `$ref`
 * with siblings an `allOf`; keywords 3.0 does not know are dropped.
 */
type Json = Record<string, unknown>;

/** What the conversion needs of a served document (the output of `buildOpenApiDocument`). */
export interface OpenApi31 {
  info: { title: string; description?: string };
  paths: Record<string, Record<string, Json>>;
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, Json> };
}

/** Keywords of JSON Schema 2020-12 with no OpenAPI 3.0 equivalent: dropped. */
const DROPPED = new Set([
  '$schema',
  '$id',
  '$anchor',
  '$defs',
  '$comment',
  'contentEncoding',
  'contentMediaType',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
  'dependentRequired',
  'dependentSchemas',
  'prefixItems',
  'if',
  'then',
  'else',
]);
/** Keywords whose value is a schema, or a map or a list of schemas. */
const SCHEMA = new Set(['items', 'not', 'additionalProperties']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf']);
const isNull = (schema: unknown) => (schema as Json | undefined)?.type === 'null';

/** `schema` in the OpenAPI 3.0 dialect. */
export function toSchema30(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
  const source = schema as Json;
  const out: Json = {};
  for (const [key, value] of Object.entries(source)) {
    if (DROPPED.has(key)) continue;
    if (key === 'type' && Array.isArray(value)) {
      const types = value.filter((type) => type !== 'null');
      if (types.length < value.length) out.nullable = true;
      if (types.length === 1) out.type = types[0];
      else if (types.length > 1) out.anyOf = types.map((type: unknown) => ({ type }));
    } else if (key === 'const') {
      out.enum = [value];
    } else if (key === 'examples') {
      if (Array.isArray(value) && value.length > 0) out.example = value[0];
    } else if ((key === 'exclusiveMinimum' || key === 'exclusiveMaximum') && typeof value === 'number') {
      out[key === 'exclusiveMinimum' ? 'minimum' : 'maximum'] = value;
      out[key] = true;
    } else if (key === 'properties' || key === 'patternProperties') {
      out[key] = Object.fromEntries(
        Object.entries(value as Json).map(([name, inner]) => [name, toSchema30(inner)]),
      );
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      const kept = value.filter((inner) => !isNull(inner));
      if (kept.length < value.length) out.nullable = true;
      if (kept.length === 1 && key !== 'allOf') out.allOf = [toSchema30(kept[0])];
      else if (kept.length > 0) out[key] = kept.map(toSchema30);
    } else if (SCHEMA.has(key)) {
      out[key] = typeof value === 'boolean' ? value : toSchema30(value);
    } else {
      out[key] = value;
    }
  }
  return refWithSiblings(out);
}

/** A `$ref` beside other keywords (which 3.0 ignores) as an `allOf` of the reference. */
function refWithSiblings(schema: Json): Json {
  if (typeof schema.$ref !== 'string' || Object.keys(schema).length === 1) return schema;
  const { $ref, ...rest } = schema;
  return { ...rest, allOf: [{ $ref }, ...((rest.allOf as unknown[] | undefined) ?? [])] };
}

/** Every `#/components/schemas/<name>` that `value` points at, directly. */
function references(value: unknown, found: Set<string>): void {
  if (Array.isArray(value)) for (const item of value) references(item, found);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string' && inner.startsWith('#/components/schemas/'))
        found.add(inner.slice('#/components/schemas/'.length));
      else references(inner, found);
    }
  }
}

/**
 * Converts the schemas inside an operation (parameters, bodies, responses); responses lose their
 * headers (rate limits, request id), which a plugin does not read and which would make the
 * document many times longer.
 */
function operation30(op: Json, extra: Json): Json {
  const walk = (value: unknown, key?: string): unknown => {
    if (key === 'schema') return toSchema30(value);
    if (Array.isArray(value)) return value.map((item) => walk(item));
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, walk(inner, name)]));
  };
  const responses = Object.fromEntries(
    Object.entries(op.responses as Record<string, Json>).map(
      ([status, { headers: _headers, ...response }]) => [status, response],
    ),
  );
  return { ...(walk({ ...op, responses }) as Json), ...extra };
}

export interface CuratedOperation {
  operationId: string;
  /** For an operation that changes nothing but is not a GET (a preview): `x-oai-isConsequential: false`. */
  readOnlyPost?: boolean;
}

/**
 * The OpenAPI 3.0.3 document of `operations` only, from `document`, with `serverUrl` as its only
 * server; the component schemas they use, and no other. Throws when an operation is missing.
 */
export function curatedOpenApi30(
  document: OpenApi31,
  operations: readonly CuratedOperation[],
  info: { version: string; serverUrl: string; description: string },
): Json {
  const wanted = new Map(operations.map((op) => [op.operationId, op]));
  const paths: Record<string, Record<string, Json>> = {};
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const curated = wanted.get(op.operationId as string);
      if (!curated) continue;
      wanted.delete(curated.operationId);
      paths[path] ??= {};
      paths[path][method] = operation30(
        op,
        curated.readOnlyPost && method !== 'get' ? { 'x-oai-isConsequential': false } : {},
      );
    }
  }
  if (wanted.size > 0)
    throw new Error(`No such operation in the document: ${[...wanted.keys()].join(', ')}.`);
  const names = new Set<string>();
  references(paths, names);
  for (let size = 0; size !== names.size; ) {
    size = names.size;
    for (const name of [...names]) references(document.components.schemas[name], names);
  }
  const schemas = Object.fromEntries(
    [...names].sort().map((name) => [name, toSchema30(document.components.schemas[name])]),
  );
  return {
    openapi: '3.0.3',
    info: { title: document.info.title, version: info.version, description: info.description },
    servers: [{ url: info.serverUrl }],
    security: [{ bearer: [] }],
    paths,
    components: { securitySchemes: document.components.securitySchemes, schemas },
  };
}
