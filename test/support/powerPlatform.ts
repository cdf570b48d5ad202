import { readFileSync } from 'node:fs';
import path from 'node:path';
import AjvDraft04 from 'ajv-draft-04';

/** Microsoft's published connector schemas, beside the repository (their README says where from). */
export const POWER_PLATFORM_SCHEMAS = path.resolve(__dirname, '../../../shared/reference/power-platform');

/**
 * Reads one of Microsoft's connector schemas: JSON with `//` comments (their files carry a few),
 * which are dropped outside strings before parsing.
 */
export function readConnectorSchema(name: string): Record<string, unknown> {
  const text = readFileSync(path.join(POWER_PLATFORM_SCHEMAS, name), 'utf8');
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else out += c;
  }
  return JSON.parse(out) as Record<string, unknown>;
}

type Schema = Record<string, unknown>;

/** `x-nullable: true` (Swagger 2.0, as Power Platform reads it) as draft-04 says it: null is allowed. */
function withNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withNulls);
  if (typeof value !== 'object' || value === null) return value;
  const out: Schema = {};
  for (const [key, inner] of Object.entries(value)) out[key] = withNulls(inner);
  if (out['x-nullable'] === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum)) out.enum = [...(out.enum as unknown[]), null];
  }
  return out;
}

/**
 * A validator of `schema` (a Swagger 2.0 schema of a connector, `$ref`s into its `definitions`), as
 * a flow reads what arrives: draft-04, nulls where `x-nullable` allows them.
 */
export function connectorSchemaValidator(
  definitions: Schema,
  schema: Schema,
): ((value: unknown) => boolean) & { errors?: unknown } {
  const ajv = new AjvDraft04({ strict: false, allErrors: true });
  return ajv.compile(withNulls({ ...schema, definitions }) as Schema);
}
