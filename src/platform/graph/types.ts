/*
 * What the Graph client and the parts it calls on (the budget, the error mapping) share: a module
 * of its own, so that none of them imports the client for a type.
 */

/** Waits `ms` milliseconds (tests pass their own clock). */
export type Sleep = (ms: number) => Promise<void>;

/** Graph's answer to one request, its JSON body parsed. */
export interface GraphResponse<T> {
  status: number;
  headers: Record<string, string>;
  /** Undefined for an empty body (204, 202 without content). */
  body: T | undefined;
}
