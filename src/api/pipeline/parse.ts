import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';
import { findControlCharacter } from '../../domain/controlCharacters';
import { ValidationFailed } from '../../domain/errors';
import { detailsOf } from '../errors';
import { readJsonBody } from '../middleware/readJsonBody';
import type { Route } from '../route';

/** A request's inputs as its route's schemas parsed them. */
export interface Parsed {
  params: unknown;
  query: unknown;
  headers: unknown;
  body: unknown;
}

/** Where the parse stage reads a request's inputs from. */
export interface RequestInputs {
  /** The path's parameters, decoded. */
  params: Record<string, string>;
  /** The query string, without its `?` (empty when there is none). */
  search: string;
  req: IncomingMessage;
}

const NO_INPUT: Parsed = Object.freeze({
  params: undefined,
  query: undefined,
  headers: undefined,
  body: undefined,
});

/**
 * Stage 3, parse: validates the path, query and headers the route declares, then reads and
 * validates its JSON body (400 `validationFailed`; 408, 413, 415 from the body's reading). A route
 * that declares none of them reads nothing.
 */
export async function parseRequest(
  route: Route,
  inputs: RequestInputs,
  bodyTimeoutMs: number,
): Promise<Parsed> {
  if (!route.params && !route.query && !route.headers && !route.body) return NO_INPUT;
  const params = parse(route.params, { ...inputs.params }, 'path');
  const query = route.query ? parse(route.query, queryOf(inputs.search), 'query') : undefined;
  const headers = parse(route.headers, inputs.req.headers, 'header');
  const body = route.body
    ? parse(route.body, await readJsonBody(inputs.req, bodyTimeoutMs), 'body')
    : undefined;
  return { params, query, headers, body };
}

function queryOf(search: string): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(search)) query[name] = value;
  return query;
}

/** One input against its schema: control and format characters first, then the schema's rules. */
export function parse<T extends z.ZodType>(
  schema: T | undefined,
  value: unknown,
  where: string,
): z.output<T> {
  if (!schema) return undefined as z.output<T>;
  const control = where === 'header' ? undefined : findControlCharacter(value, where, schema);
  if (control?.loneSurrogate) {
    const code = `U+${control.codePoint.toString(16).toUpperCase()}`;
    throw new ValidationFailed(`The request ${where} holds text that is not well-formed Unicode.`, [
      {
        code: 'malformedText',
        target: control.target,
        message: `A lone surrogate (here ${code}, half of a pair) is not a character: send well-formed Unicode text.`,
      },
    ]);
  }
  if (control?.kind === 'formatCharacter') {
    const code = `U+${control.codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
    throw new ValidationFailed(`The request ${where} holds a character that changes how text reads.`, [
      {
        code: 'formatCharacter',
        target: control.target,
        message: `Direction and display controls (here ${code}) are not allowed: they make text read other than it is written.`,
      },
    ]);
  }
  if (control) {
    const code = `U+${control.codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
    throw new ValidationFailed(`The request ${where} holds a control character.`, [
      {
        code: 'controlCharacter',
        target: control.target,
        message: control.singleLine
          ? `Control characters (here ${code}) are not allowed in this one-line field, tab and line breaks included.`
          : `Control characters (here ${code}) are not allowed; tab and line breaks are.`,
      },
    ]);
  }
  const result = schema.safeParse(value ?? (where === 'body' ? undefined : {}));
  if (!result.success) {
    const message =
      where === 'body' ? 'The request body is not valid.' : `The request ${where} is not valid.`;
    throw new ValidationFailed(message, detailsOf(result.error, where));
  }
  return result.data;
}
