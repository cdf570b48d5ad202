import { NotFound } from '../../domain/errors';
import { requestClassKey } from '../../domain/graphBudget';
import { backoffMs } from '../../lib/backoff';
import { parseRetryAfter } from '../../lib/retryAfter';
import type { JobWaitReason } from '../../contract';
import { type OperationCheckpoint, type OperationState, PlatformError } from '../port';
import type { GraphClient } from './client';
import type { GraphResponse, Sleep } from './types';
import type { TeamsAsyncOperation } from './payloads';

/**
 * A look at an operation (`GET /teams('{id}')/operations('{id}')`) is a Teams call of the `other`
 * class: a job waiting for its next look says so, and is taken up at that class's turn, not ahead of
 * the jobs that could work at once (jobLeases.ts).
 */
const LOOK_KEY = requestClassKey('other');

/**
 * How the adapter waits for Graph's asynchronous team operations. Graph's guidance
 * (`resources/teamsasyncoperation.md`) is to wait more than 30 s between checks of an operation; a
 * clone is worth a first look after 5 s. When Graph answers with `Retry-After`, that is the wait.
 */
export interface PollingPolicy {
  /** First wait before looking at a create, archive or unarchive operation. */
  initialDelayMs: number;
  /** First wait before looking at a clone operation. */
  cloneInitialDelayMs: number;
  /** Each wait is the previous one times this (Graph gave no `Retry-After`), up to `maxDelayMs`. */
  growth: number;
  maxDelayMs: number;
  /** Give up (transiently: the job may look again later) after this long; a new team's replication too. */
  timeoutMs: number;
  /** First wait before reading again a resource Graph has not replicated yet (grows the same way). */
  replicationDelayMs: number;
  /**
   * Graph replicates operations lazily: a 404 right after the 202 is expected. This many in a row
   * are waited out before the 404 counts.
   */
  notFoundRetries: number;
}

export const DEFAULT_POLLING: PollingPolicy = {
  initialDelayMs: 31_000,
  cloneInitialDelayMs: 5_000,
  growth: 1.5,
  maxDelayMs: 120_000,
  timeoutMs: 30 * 60_000,
  replicationDelayMs: 2_000,
  notFoundRetries: 6,
};

/** Which kind of operation is awaited: clones get their own first wait. */
export type OperationKind = 'create' | 'clone' | 'archive' | 'unarchive' | 'channel';

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

/**
 * Follows Graph's asynchronous operations and waits out its replication, with growing waits and
 * wider ones when Graph asks for them. Every wait between two looks goes through an
 * OperationCheckpoint: a job parks there and comes back with the state of its last look (the
 * operation's `Location`, the last wait), so the look after it is the next one, not a new start.
 */
export class OperationPoller {
  private readonly sleeping: OperationCheckpoint;

  constructor(
    private readonly client: GraphClient,
    private readonly policy: PollingPolicy,
    sleep: Sleep,
  ) {
    this.sleeping = { wait: ({ afterMs }) => sleep(afterMs) };
  }

  /** The caller's checkpoint, or sleeping in-process when there is none (no job, a test). */
  through(operation: OperationCheckpoint | undefined): OperationCheckpoint {
    return operation ?? this.sleeping;
  }

  /**
   * Carries out an operation `start` begins (POST /clone, /archive, /unarchive), or, when `saved`
   * names one an earlier attempt began, follows that one; resolves with its `targetResourceId`.
   */
  async carryOut(
    checkpoint: OperationCheckpoint,
    start: () => Promise<AcceptedOperation>,
    what: string,
    kind: OperationKind,
  ): Promise<string | undefined> {
    const saved = checkpoint.state;
    if (saved?.location)
      return this.follow(checkpoint, { ...saved, location: saved.location }, what, kind, true);
    const accepted = await start();
    return this.follow(checkpoint, { location: accepted.location, teamId: accepted.teamId }, what, kind);
  }

  /**
   * Looks at the operation at `state.location` until it ends: after the kind's first wait, or at
   * once when `resumed` (the job waited while parked). Resolves with the operation's
   * `targetResourceId` once it has succeeded; a failed operation is a final PlatformError carrying
   * Graph's message; one still running after the policy's timeout is a transient one.
   */
  async follow(
    checkpoint: OperationCheckpoint,
    state: OperationState & { location: string },
    what: string,
    kind: OperationKind,
    resumed = false,
  ): Promise<string | undefined> {
    const reason = WAIT_REASONS[kind];
    let current: OperationState = { startedAt: Date.now(), ...state };
    if (!resumed) {
      const first = kind === 'clone' ? this.policy.cloneInitialDelayMs : this.policy.initialDelayMs;
      current = { ...current, delayMs: first };
      await checkpoint.wait({ for: reason, afterMs: first, state: current, budgetKey: LOOK_KEY });
    }
    for (;;) {
      let response: GraphResponse<TeamsAsyncOperation>;
      let misses = 0;
      try {
        response = await this.client.send<TeamsAsyncOperation>({ method: 'GET', path: state.location });
      } catch (error) {
        // Graph replicates operations lazily too: a 404 right after the 202 is expected.
        misses = (current.misses ?? 0) + 1;
        if (!(error instanceof NotFound) || misses > this.policy.notFoundRetries) throw error;
        response = { status: 404, headers: {}, body: { status: 'notStarted' } };
      }
      const operation = response.body ?? {};
      if (operation.status === 'succeeded') return operation.targetResourceId ?? state.teamId;
      if (operation.status === 'failed' || operation.status === 'invalid') {
        const reason = operation.error?.message ?? operation.error?.code ?? 'no reason given';
        throw new PlatformError(`Microsoft Graph could not ${what}: ${reason}`, 500, false);
      }
      if (Date.now() >= (current.startedAt ?? Date.now()) + this.policy.timeoutMs) {
        throw new PlatformError(
          `Microsoft Graph has not finished ${what} after ${Math.round(this.policy.timeoutMs / 1000)} s`,
          504,
          true,
        );
      }
      const asked = parseRetryAfter(response.headers['retry-after']);
      const delay = asked ?? this.grown(current.delayMs ?? this.policy.initialDelayMs);
      current = { ...current, delayMs: delay, misses };
      await checkpoint.wait({ for: reason, afterMs: delay, state: current, budgetKey: LOOK_KEY });
    }
  }

  /**
   * Reads until `read` answers something: a team Graph made but has not replicated yet (404).
   * `saved` is where an earlier attempt left this wait (read again at once); otherwise the wait
   * starts now, as `base` says, after `firstWaitMs` when given (what was made a moment ago is not
   * read before Graph can have replicated it), the waits after it growing from it. Gives up with
   * NotFound after the policy's timeout.
   */
  async appear<T>(
    checkpoint: OperationCheckpoint,
    read: () => Promise<T | undefined>,
    what: string,
    base: OperationState,
    saved?: OperationState,
    firstWaitMs?: number,
  ): Promise<T> {
    let current: OperationState = saved ?? { ...base, startedAt: Date.now(), misses: 0 };
    if (!saved && firstWaitMs !== undefined) {
      current = { ...current, delayMs: firstWaitMs };
      await checkpoint.wait({ for: 'replication', afterMs: firstWaitMs, state: current });
    }
    for (;;) {
      const value = await read();
      if (value !== undefined) return value;
      if (Date.now() >= (current.startedAt ?? Date.now()) + this.policy.timeoutMs) {
        throw new NotFound(`${what} is not visible in Microsoft Graph`);
      }
      const delay =
        current.delayMs === undefined ? this.policy.replicationDelayMs : this.grown(current.delayMs);
      current = { ...current, delayMs: delay, misses: (current.misses ?? 0) + 1 };
      await checkpoint.wait({ for: 'replication', afterMs: delay, state: current });
    }
  }

  /** The wait after one of `delayMs`: `growth` times it, up to the policy's longest. */
  private grown(delayMs: number): number {
    return backoffMs({ baseMs: delayMs, factor: this.policy.growth, capMs: this.policy.maxDelayMs }, 1);
  }
}

/** What a job waiting on each kind of operation waits for (the card's words come from it). */
const WAIT_REASONS: Record<OperationKind, JobWaitReason> = {
  create: 'teamCreation',
  clone: 'teamClone',
  archive: 'teamArchive',
  unarchive: 'teamUnarchive',
  channel: 'channelCreation',
};
