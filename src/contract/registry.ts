import { z } from 'zod';

/**
 * Every wire model registered here becomes `components.schemas.<id>` in the OpenAPI document, so
 * the names in `api-contract.md` are spelled exactly once: where the schema is defined.
 */
export const models = z.registry<{ id: string; description?: string }>();

/** Registers `schema` as the named model and returns it unchanged. */
export function model<T extends z.ZodType>(id: string, schema: T, description?: string): T {
  models.add(schema, description ? { id, description } : { id });
  return schema;
}

/** The metadata key that marks a multi-line string field (see `domain/controlCharacters.ts`). */
export const MULTI_LINE = 'x-multiLine';

/**
 * Marks a string field as multi-line (a description, a message, a rule): tab and line breaks are
 * allowed in it. Every other string of a request is one line.
 */
export function multiLine<T extends z.ZodType>(schema: T): T {
  return schema.meta({ [MULTI_LINE]: true });
}

/**
 * A boolean on output; older clients send `"true"` / `"false"` strings, which are accepted on input
 * and normalised here.
 */
export const Flag = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

/** An OData-style collection: `{ "@odata.context", "@odata.count", "@odata.nextLink"?, value }`. */
export function odataCollection<T extends z.ZodType>(item: T) {
  return z.object({
    '@odata.context': z.string(),
    '@odata.count': z
      .number()
      .int()
      .nonnegative()
      .describe('How many items match, across all pages (not the size of this page).'),
    '@odata.nextLink': z.string().optional(),
    value: z.array(item),
  });
}

/** The wire shape of an OData collection of `T`. */
export interface ODataCollection<T> {
  '@odata.context': string;
  '@odata.count': number;
  '@odata.nextLink'?: string;
  value: T[];
}
