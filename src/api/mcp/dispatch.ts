import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { JsonText } from '../json';
import { authenticate, authorise, type Identity } from '../pipeline/authenticate';
import { handle } from '../pipeline/handle';
import { limit } from '../pipeline/limit';
import { logRequest } from '../pipeline/log';
import { mapError } from '../pipeline/mapError';
import { type Parsed, parse } from '../pipeline/parse';
import type { RouteEntry, ServeOptions } from '../pipeline/serve';
import { requestState } from '../pipeline/state';

/** One call of an API operation, as a tool makes it: the inputs an HTTP request would carry. */
export interface OperationInputs {
  params: Record<string, string>;
  query: Record<string, string>;
  /** The JSON body, or undefined for none. */
  body: unknown;
}

/** What the operation answered: its status and JSON body (an ApiError on failure). */
export interface OperationOutcome {
  status: number;
  body: unknown;
  /** The body's JSON text when the operation answered one already serialised (a shared cached read). */
  bytes?: Buffer;
}

/** The MCP request a tool call came in, and the caller's `Authorization` header. */
export interface CallerRequest {
  req: IncomingMessage;
  authorization: string | undefined;
  /**
   * Who that header's token names, as the endpoint verified it for this same request: the
   * operation's authenticate stage then checks its roles without verifying the token again.
   */
  identity?: Identity;
}

/**
 * Runs one API operation for a tool through the same stages an HTTP request goes through
 * (docs/explanation/request-lifecycle.md): authenticate (the caller's own token, verified once a
 * request, by the endpoint when it did; the operation's roles), limit (the caller's budget for that operation), parse (the route's own schemas, control
 * characters first), handle, map errors (refusals counted against the caller's address) and log.
 * A tool can therefore do nothing its caller could not do over HTTP, and leaves the same audit.
 */
export async function dispatch(
  entry: RouteEntry,
  inputs: OperationInputs,
  from: CallerRequest,
  options: ServeOptions,
): Promise<OperationOutcome> {
  const { route, policy } = entry;
  const state = requestState(randomUUID(), undefined);
  try {
    const who = from.identity
      ? authorise(from.identity, from.authorization, policy, state)
      : await authenticate(options.authenticator, from.authorization, policy, state);
    // The rate-limit headers the state notes have no HTTP answer to go in: a tool result carries none.
    await limit(options, who.identity, {}, policy, state);
    const input: Parsed = {
      params: parse(route.params, inputs.params, 'path'),
      query: route.query ? parse(route.query, inputs.query, 'query') : undefined,
      headers: parse(route.headers, {}, 'header'),
      body: route.body ? parse(route.body, inputs.body, 'body') : undefined,
    };
    const reply = await handle(route, who, input, state.requestId, options.publicUrl());
    state.status = reply.status;
    const bytes = reply.body instanceof JsonText ? reply.body.bytes : undefined;
    return { status: reply.status, body: plain(reply.body), ...(bytes ? { bytes } : {}) };
  } catch (error) {
    const mapped = await mapError(error, route, from.req, state, options);
    state.status = mapped.status;
    return { status: mapped.status, body: mapped.body };
  } finally {
    logRequest(options, route, state);
  }
}

/**
 * Pre-serialised bodies read back, by their bytes: a shared body (the catalog keeps one per
 * audience) is parsed once. Never changed: a tool's result only serialises it again.
 */
const readBack = new WeakMap<Buffer, unknown>();

/** A reply's body as plain JSON values (a pre-serialised body is read back). */
function plain(body: unknown): unknown {
  if (!(body instanceof JsonText)) return body;
  let value = readBack.get(body.bytes);
  if (value === undefined) {
    value = JSON.parse(body.bytes.toString('utf8'));
    readBack.set(body.bytes, value);
  }
  return value;
}
