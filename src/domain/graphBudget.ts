/**
 * The tenant-wide Microsoft Graph budget's vocabulary: the limits it keeps to, and the store every
 * worker process shares its buckets through (`docs/graph-budget.md`).
 */

/**
 * Microsoft Graph's Teams throttling limits per app per tenant, the one table Steward paces to:
 * the "Microsoft Teams service limits" of "Microsoft Graph service-specific throttling limits"
 * (https://learn.microsoft.com/graph/throttling-limits#microsoft-teams-service-limits, its table in
 * `includes/throttling-teams.md` of microsoftgraph/microsoft-graph-docs-contrib, the version with
 * the "Limit per app per tenant per resource" column). Each field is one of its rows;
 * `platform/graph/budget.ts` says which operations spend which. A deployment may lower any of them
 * (`config/graphBudget.ts`).
 */
export interface GraphLimits {
  /** `POST /teams`: 10 rps. */
  createTeamPerSecond: number;
  /** `PUT /groups/{id}/team` and `POST /teams/{id}/clone`: six rps. */
  cloneTeamPerSecond: number;
  /** `POST` channel and `POST` tab: 30 rps. */
  channelOrTabPerSecond: number;
  /** Other API calls for Microsoft Teams (app installations among them): 30 rps. */
  otherPerSecond: number;
  /** "A maximum of four requests per second per app can be issued on a given team." */
  perTeamPerSecond: number;
  /** "A maximum of one request per second per app per tenant can be issued on a given channel." */
  perChannelPerSecond: number;
  /**
   * `POST` channel, per resource: 1 rps, counted on the team whose channels collection the channel
   * is created in. Lower than the four a second any call on that team gets.
   */
  channelCreationsPerTeamPerSecond: number;
  /** `POST /teams/{id}/members` (and its bulk `members/add`), per resource: "4rpm" on one team. */
  memberAdditionsPerMinute: number;
}

export const PUBLISHED_GRAPH_LIMITS: Readonly<GraphLimits> = {
  createTeamPerSecond: 10,
  cloneTeamPerSecond: 6,
  channelOrTabPerSecond: 30,
  otherPerSecond: 30,
  perTeamPerSecond: 4,
  perChannelPerSecond: 1,
  channelCreationsPerTeamPerSecond: 1,
  memberAdditionsPerMinute: 4,
};

/** How a deployment spends the limits: `GraphLimits` plus how close to them it runs. */
export interface GraphBudgetSettings {
  limits: GraphLimits;
  /**
   * The share of each rate Steward spends (0.9: nine tenths). The rest absorbs the time between a
   * reservation and the request reaching Graph, so that two calls paced exactly one interval
   * apart do not arrive a few milliseconds too close.
   */
  headroom: number;
  /**
   * The share of a request class's rate Steward spends (`class:createTeam`, `class:other`…; 0.98 by
   * default), `headroom` when absent. A class's bucket is shared by every team: its calls come from
   * many jobs, and Graph's bucket for it holds a second's worth of calls, so a call a few
   * milliseconds early is not one too many; the rate itself is what bounds a run. A team's or a
   * channel's bucket holds one to four calls, and one job's calls follow each other in it: there,
   * `headroom` keeps them apart.
   */
  classHeadroom?: number;
  /**
   * The longest a call waits in-process for its turn (at least its slowest bucket's interval). A
   * later turn is not taken: the call fails as `GraphBudgetDeferred` naming the wait, and the job
   * parks until then, its slot freed, no attempt spent.
   */
  maxWaitMs: number;
}

/** One bucket a call draws on: its key and the spacing between two of its calls. */
export interface BudgetBucket {
  /** `class:createTeam`, `team:{id}`, `channel:{team}/{channel}`, `channelCreations:{team}`, `members:{team}`. */
  key: string;
  /** Milliseconds between two calls at the budgeted rate (the GCRA emission interval). */
  intervalMs: number;
}

/**
 * A reservation's outcome: when the call may start, or how long until it could and the bucket that
 * held it back (`key`).
 */
export type Reservation = { waitMs: number } | { deferredMs: number; key: string };

/** The bucket of a request class (`createTeam`, `cloneTeam`, `channelOrTab`, `other`). */
export function requestClassKey(klass: 'createTeam' | 'cloneTeam' | 'channelOrTab' | 'other'): string {
  return `class:${klass}`;
}

/**
 * Where the buckets live: one row per bucket holding its theoretical arrival time (GCRA), shared
 * by every process on the same database.
 */
export interface GraphBudgetStore {
  /**
   * Reserves one call in every bucket at once, unless one of them could serve it only after
   * `maxWaitMs`; then nothing is reserved and the answer says how long that would be.
   */
  reserve(buckets: readonly BudgetBucket[], maxWaitMs: number): Promise<Reservation>;
  /** Graph answered 429: no bucket of `keys` serves anyone before `retryAfterMs` from now. */
  penalise(keys: readonly string[], retryAfterMs: number): Promise<void>;
  /** Deletes buckets whose time has passed (they hold no state); returns how many. */
  sweep(): Promise<number>;
}
