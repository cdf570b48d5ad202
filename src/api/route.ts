import type { z } from 'zod';
import type { Caller } from '../domain/caller';
import type { SignedInPerson } from '../domain/delegation';
import type { OperationId } from '../domain/rbac';

/** Where the API's routes are mounted: every route's `path` is below it. */
export const API_BASE = '/api/v1.0';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A documented response of an operation. */
export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
  headers?: Record<string, string>;
}

/** What a handler receives: the caller and the already-validated parameters, query and body. */
export interface RouteContext<P, Q, B, H = Record<string, string | undefined>> {
  caller: Caller;
  params: P;
  query: Q;
  body: B;
  /** The request headers the route declares, validated. */
  headers: H;
  requestId: string;
  /** The deployment's public base URL (for links in responses). */
  baseUrl: string;
  /**
   * A person caller's own sign-in (their bearer token), for the few operations that act on their
   * behalf through a delegated grant (a sensitivity label). Never logged, never returned; absent
   * for applications.
   */
  person?: SignedInPerson;
}

/** What a handler returns; the server serialises it. */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * One operation of the API: its contract (operationId, path, schemas, responses) and its handler.
 * Security and tier come from the RBAC table by operationId; a route says nothing else about them.
 */
export interface Route<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  H extends z.ZodType = z.ZodType,
> {
  operationId: OperationId;
  method: HttpMethod;
  /** OpenAPI-style path below /api/v1.0, e.g. `/catalog/templates/{template_id}`. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  params?: P;
  query?: Q;
  body?: B;
  /** Request headers the operation reads (lower-case names), e.g. `idempotency-key`. */
  headers?: H;
  /** Success responses by status; error responses are added from the operation's checks. */
  responses: Record<number, ResponseSpec>;
  handle(context: RouteContext<z.output<P>, z.output<Q>, z.output<B>, z.output<H>>): Promise<Reply>;
}

/** Declares a route with its types inferred from its schemas. */
export function defineRoute<
  P extends z.ZodType,
  Q extends z.ZodType,
  B extends z.ZodType,
  H extends z.ZodType,
>(route: Route<P, Q, B, H>): Route {
  return route as unknown as Route;
}
