/**
 * JSON Schema as the OpenAPI 3.1 document states it (draft 2020-12) turned into the Swagger 2.0
 * subset a Power Platform connector takes (draft-04 keywords, `x-nullable`, no `anyOf`, `oneOf`,
 * `const` or type lists), with `x-ms-summary` titles on object properties.
 */
export type JsonSchema = Record<string, unknown>;

const FROM = '#/components/schemas/';
const TO = '#/definitions/';

/** The keywords Swagger 2.0's Schema Object keeps as they are. */
const KEPT = [
  'type',
  'format',
  'title',
  'description',
  'default',
  'multipleOf',
  'maximum',
  'minimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxProperties',
  'minProperties',
  'enum',
  'readOnly',
] as const;

/** `templateId` → `Template Id`: a property's title for the connector's designer. */
export function titleOf(name: string): string {
  const words = name
    .replace(/^[$@]+/, '')
    .replace(/[._-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .trim();
  return words.replace(/\b\w/g, (c) => c.toUpperCase()) || name;
}

/** The Swagger 2.0 form of `schema`. */
export function swaggerSchema(schema: unknown): JsonSchema {
  if (typeof schema !== 'object' || schema === null) return {};
  const source = schema as JsonSchema;
  if (typeof source.$ref === 'string') return { $ref: source.$ref.replace(FROM, TO) };
  const variants = (source.anyOf ?? source.oneOf) as unknown[] | undefined;
  if (Array.isArray(variants)) return fromVariants(source, variants);
  const out: JsonSchema = {};
  for (const key of KEPT) if (source[key] !== undefined) out[key] = source[key];
  if (Array.isArray(source.type)) {
    const types = (source.type as string[]).filter((t) => t !== 'null');
    if (types.length < source.type.length) out['x-nullable'] = true;
    if (types.length === 1) out.type = types[0];
    else delete out.type;
  }
  if (source.const !== undefined) {
    out.enum = [source.const];
    out.type ??= typeof source.const === 'number' ? 'number' : typeof source.const;
  }
  if (Array.isArray(out.enum) && out.enum.includes(null)) {
    out.enum = out.enum.filter((v) => v !== null);
    out['x-nullable'] = true;
  }
  if (typeof source.exclusiveMinimum === 'number') {
    out.minimum = source.exclusiveMinimum;
    out.exclusiveMinimum = true;
  }
  if (typeof source.exclusiveMaximum === 'number') {
    out.maximum = source.exclusiveMaximum;
    out.exclusiveMaximum = true;
  }
  // Draft-04's maximums and minimums must be finite, as JSON allows nothing else.
  for (const key of ['maximum', 'minimum']) {
    if (typeof out[key] === 'number' && !Number.isSafeInteger(out[key]) && Math.abs(out[key]) > 2 ** 53) {
      delete out[key];
    }
  }
  if (source.items !== undefined && !Array.isArray(source.items)) out.items = swaggerSchema(source.items);
  if (out.type === 'array' && out.items === undefined) out.items = {};
  if (typeof source.properties === 'object' && source.properties !== null) {
    out.properties = Object.fromEntries(
      Object.entries(source.properties as JsonSchema).map(([name, property]) => {
        const converted = swaggerSchema(property);
        return [name, converted.$ref ? converted : { 'x-ms-summary': titleOf(name), ...converted }];
      }),
    );
  }
  if (Array.isArray(source.required) && source.required.length > 0) out.required = source.required;
  if (typeof source.additionalProperties === 'boolean')
    out.additionalProperties = source.additionalProperties;
  else if (source.additionalProperties !== undefined)
    out.additionalProperties = swaggerSchema(source.additionalProperties);
  if (Array.isArray(source.allOf)) out.allOf = source.allOf.map(swaggerSchema);
  return out;
}

/**
 * `anyOf` / `oneOf`: a nullable form when every variant but `null` is one schema, an enum when all
 * are constants, else any value (Swagger 2.0 has no unions), described as the source was.
 */
function fromVariants(source: JsonSchema, variants: unknown[]): JsonSchema {
  const isNull = (v: unknown) => (v as JsonSchema)?.type === 'null';
  const rest = variants.filter((v) => !isNull(v));
  const nullable = rest.length < variants.length ? { 'x-nullable': true } : {};
  const described = typeof source.description === 'string' ? { description: source.description } : {};
  if (rest.length === 1) {
    const only = swaggerSchema(rest[0]);
    return only.$ref ? only : { ...only, ...described, ...nullable };
  }
  const constants = rest.map((v) => (v as JsonSchema).const ?? (v as JsonSchema).enum);
  if (
    constants.every(
      (c) => typeof c === 'string' || (Array.isArray(c) && c.every((x) => typeof x === 'string')),
    )
  )
    return { type: 'string', enum: constants.flat(), ...described, ...nullable };
  return { ...described, ...nullable };
}
