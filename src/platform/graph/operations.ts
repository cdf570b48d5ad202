import { NotFound } from '../../domain/errors';
import { PlatformError } from '../port';
import type { GraphClient, GraphResponse, Sleep } from './client';
import { parseRetryAfter } from './errors';

/** How the adapter waits for Graph's asynchronous team operations. */
export interface PollingPolicy {
  /** First wait before looking at an operation again. */
  initialDelayMs: number;
  /** Waits grow by half each time up to this. */
  maxDelayMs: number;
  /** Give up (transiently: the job may look again later) after this long. */
  timeoutMs: number;
  /**
   * Graph replicates new groups and operations lazily: a 404 right after they were made is
   * expected. This many in a row are waited out before the 404 counts.
   */
  notFoundRetries: number;
}

export const DEFAULT_POLLING: PollingPolicy = {
  initialDelayMs: 1000,
  maxDelayMs: 15_000,
  timeoutMs: 15 * 60_000,
  notFoundRetries: 6,
};

/** Graph's teamsAsyncOperation. */
interface TeamsAsyncOperation {
  id?: string;
  operationType?: string;
  status?: 'invalid' | 'notStarted' | 'inProgress' | 'succeeded' | 'failed' | string;
  targetResourceId?: string | null;
  targetResourceLocation?: string | null;
  error?: { code?: string | null; message?: string | null } | null;
}

/** What an accepted (202) team operation tells us before it finishes. */
export interface AcceptedOperation {
  /** The operation to poll (`Location`). */
  location: string;
  /** The team the operation creates or changes, from `Content-Location` or the operation's path. */
  teamId: string | undefined;
}

/** Reads `Location` and `Content-Location` of a 202 from POST /teams, /clone, /archive, /unarchive. */
export function acceptedOperation(response: GraphResponse<unknown>, what: string): AcceptedOperation {
  const location = response.headers['location'];
  if (response.status !== 202 || !location) {
    throw new PlatformError(
      `Microsoft Graph answered ${response.status} without an operation to ${what}`,
      502,
      false,
    );
  }
  return { location, teamId: teamIdIn(response.headers['content-location']) };
}

/** The id in `/teams('id')` or `/teams/id`. */
export function teamIdIn(path: string | undefined): string | undefined {
  const match = /\/teams(?:\('([^']+)'\)|\/([^/?('"]+))/.exec(path ?? '');
  return match ? decodeURIComponent(match[1] ?? match[2] ?? '') : undefined;
}

/** Polls an operation until it ends, with growing waits and wider ones when Graph asks for them. */
export class OperationPoller {
  constructor(
    private readonly client: GraphClient,
    private readonly policy: PollingPolicy,
    private readonly sleep: Sleep,
  ) {}

  /**
   * Resolves with the operation's `targetResourceId` once it has succeeded; a failed operation is a
   * final PlatformError carrying Graph's message. `onPending` runs after each unfinished look.
   */
  async wait(
    accepted: AcceptedOperation,
    what: string,
    onPending?: () => Promise<void>,
  ): Promise<string | undefined> {
    const deadline = Date.now() + this.policy.timeoutMs;
    let delay = this.policy.initialDelayMs;
    let notFound = 0;
    for (;;) {
      await this.sleep(delay);
      let response: GraphResponse<TeamsAsyncOperation>;
      try {
        response = await this.client.send<TeamsAsyncOperation>({ method: 'GET', path: accepted.location });
        notFound = 0;
      } catch (error) {
        if (!(error instanceof NotFound) || ++notFound > this.policy.notFoundRetries) throw error;
        response = { status: 404, headers: {}, body: { status: 'notStarted' } };
      }
      const operation = response.body ?? {};
      if (operation.status === 'succeeded') return operation.targetResourceId ?? accepted.teamId;
      if (operation.status === 'failed' || operation.status === 'invalid') {
        const reason = operation.error?.message ?? operation.error?.code ?? 'no reason given';
        throw new PlatformError(`Microsoft Graph could not ${what}: ${reason}`, 500, false);
      }
      if (onPending) await onPending();
      if (Date.now() >= deadline) {
        throw new PlatformError(
          `Microsoft Graph has not finished ${what} after ${Math.round(this.policy.timeoutMs / 1000)} s`,
          504,
          true,
        );
      }
      const asked = parseRetryAfter(response.headers['retry-after']);
      delay = Math.max(asked ?? 0, Math.min(this.policy.maxDelayMs, Math.round(delay * 1.5)));
    }
  }

  /**
   * Repeats `read` while it answers undefined (Graph has not replicated yet), then gives up with
   * NotFound; a `patient` wait (for an operation started elsewhere) lasts up to the polling timeout.
   */
  async eventually<T>(
    read: () => Promise<T | undefined>,
    what: string,
    options: { patient?: boolean } = {},
  ): Promise<T> {
    const deadline = Date.now() + this.policy.timeoutMs;
    let delay = this.policy.initialDelayMs;
    for (let attempt = 0; ; attempt++) {
      const value = await read();
      if (value !== undefined) return value;
      const exhausted = options.patient ? Date.now() >= deadline : attempt >= this.policy.notFoundRetries;
      if (exhausted) throw new NotFound(`${what} is not visible in Microsoft Graph`);
      await this.sleep(delay);
      delay = Math.min(this.policy.maxDelayMs, Math.round(delay * 1.5));
    }
  }
}
