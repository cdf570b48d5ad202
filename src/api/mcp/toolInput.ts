import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ValidationFailed } from '../../domain/errors';
import type { Route } from '../route';
import type { OperationInputs } from './dispatch';

type JsonSchema = Record<string, unknown>;
type Where = 'path' | 'query' | 'body';

/** A tool's arguments: the JSON Schema it advertises, and how a call's arguments become the operation's inputs. */
export interface ToolInput {
  /**
   * Advertises the operation's own schemas (its path, query and body, merged into one object);
   * it checks nothing itself: the operation's parse stage validates, as for an HTTP request, so a
   * tool's refusal reads as the operation's (`validationFailed` and its details).
   */
  schema: StandardSchemaWithJSON<Record<string, unknown>, Record<string, unknown>>;
  /** The operation's inputs from a call's arguments (without the tool's own, e.g. `confirmation`). */
  split(args: Record<string, unknown>): OperationInputs;
}

/**
 * The arguments of a tool that calls `route`: its path parameters, its query parameters (`$top` is
 * `top`), and its body's fields when the body is an object (otherwise the body is `body`).
 * `own` adds the tool's own arguments, which are not sent to the operation.
 */
export function toolInputOf(route: Route, own: Record<string, JsonSchema> = {}): ToolInput {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const origin = new Map<string, { where: Where; name: string }>();
  let wholeBody = false;
  const add = (schema: z.ZodType | undefined, where: Where): void => {
    if (!schema) return;
    const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
    const fields = json.properties as Record<string, JsonSchema> | undefined;
    if (where === 'body' && (json.type !== 'object' || !fields)) {
      delete json.$schema;
      properties.body = json;
      origin.set('body', { where, name: 'body' });
      wholeBody = true;
      if (!schema.safeParse(undefined).success) required.push('body');
      return;
    }
    for (const [name, field] of Object.entries(fields ?? {})) {
      const arg = name.startsWith('$') ? name.slice(1) : name;
      if (origin.has(arg)) throw new Error(`${route.operationId}: two inputs named ${arg}`);
      origin.set(arg, { where, name });
      properties[arg] = field;
    }
    for (const name of (json.required as string[] | undefined) ?? []) {
      if (where === 'body' && schema.safeParse(undefined).success) continue;
      required.push(name.startsWith('$') ? name.slice(1) : name);
    }
  };
  add(route.params, 'path');
  add(route.query, 'query');
  add(route.body, 'body');
  Object.assign(properties, own);
  const json: JsonSchema = { type: 'object', properties, additionalProperties: false };
  if (required.length > 0) json.required = required;
  return {
    schema: passThrough(json),
    split(args) {
      const inputs: OperationInputs = { params: {}, query: {}, body: undefined };
      let body: Record<string, unknown> | undefined;
      for (const [arg, value] of Object.entries(args)) {
        if (Object.hasOwn(own, arg)) continue;
        const from = origin.get(arg);
        if (!from) throw new ValidationFailed(`This tool takes no argument named "${arg}".`);
        if (from.where === 'body') {
          if (wholeBody) inputs.body = value;
          else (body ??= {})[from.name] = value;
        } else if (value !== undefined && value !== null) {
          inputs[from.where === 'path' ? 'params' : 'query'][from.name] =
            typeof value === 'string' ? value : JSON.stringify(value);
        }
      }
      if (!wholeBody) inputs.body = body;
      return inputs;
    },
  };
}

/** A Standard Schema that advertises `json` and accepts any object (the operation validates). */
function passThrough(json: JsonSchema): ToolInput['schema'] {
  return {
    '~standard': {
      version: 1,
      vendor: 'steward',
      validate: (value: unknown) =>
        typeof value === 'object' && value !== null && !Array.isArray(value)
          ? { value: value as Record<string, unknown> }
          : { issues: [{ message: 'The arguments must be an object.' }] },
      jsonSchema: { input: () => json, output: () => json },
    },
  };
}
