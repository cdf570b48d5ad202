import type { HttpAnswer, OperationRequest } from '../http';
import type { CallOptions } from '../options';

/** How operation methods send their request: the client binds the token and the transport. */
export type Send = <T>(operation: OperationRequest, options?: CallOptions) => Promise<HttpAnswer<T>>;

/** An asynchronous operation's answer: 202 with the job and its `Location`. */
export interface AcceptedJob<J> {
  /** The job's id, for `getJob`. */
  jobId: string;
  /** The job's URL, from the `Location` header. */
  location: string;
  /** The job as queued. */
  job: J;
}

/** Sends `operation` and resolves to the answer's body. */
export async function bodyOf<T>(send: Send, operation: OperationRequest, options?: CallOptions): Promise<T> {
  return (await send<T>(operation, options)).body;
}
