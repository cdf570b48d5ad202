import type { Logger } from 'pino';
import type { BudgetBucket, GraphBudgetSettings, GraphBudgetStore } from '../../domain/graphBudget';
import { PlatformBusy } from '../port';
import { pacedWait } from '../pacing';
import { BudgetTurns } from './budgetTurns';
import type { Sleep } from './client';

/**
 * A call the budget could serve only after `maxWaitMs`: it was not sent. The platform is busy, not
 * failing: the job parks until its turn (its worker slot freed, no attempt spent).
 */
export class GraphBudgetDeferred extends PlatformBusy {
  constructor(what: string, waitMs: number) {
    super(`Microsoft Graph's budget for ${what} is spent for the next ${Math.ceil(waitMs / 1000)} s`, waitMs);
    this.name = 'GraphBudgetDeferred';
  }
}

/**
 * Turns a reservation takes in a class (shared by every job of the process), and at most in a
 * team's or a channel's bucket (`BudgetTurns.turnsFor`): about a ninth of the statements of one
 * reservation per call, for at most this many turns a process may hold and not use.
 */
const TURNS_PER_RESERVATION = 8;

/** How often a process deletes buckets that went quiet. */
const SWEEP_EVERY_MS = 5 * 60_000;

/** `/teams/{id}` or `/teams('{id}')`, then optionally `/channels/{id}` (or `('{id}')`). */
const TEAM_PATH = /^\/teams(?:\('([^']+)'\)|\/([^/()?]+))(?:\/channels(?:\('([^']+)'\)|\/([^/()?]+)))?/;

/**
 * The tenant-wide Graph budget as the adapter's request path sees it: which buckets a call draws
 * on (its request class and the team, channel and member additions it touches, after Microsoft's
 * Teams table), a turn reserved in all of them in the shared store before the call is sent, and a
 * 429 turned into a pause of those buckets for every worker. Calls outside Teams (directory,
 * groups, users) are not Teams-throttled and pass freely.
 */
export class GraphBudget {
  private nextSweep = 0;
  /** The turns this process holds in each bucket. */
  private readonly turns = new BudgetTurns();
  /** The reservation this process is making, if any (`reserveInTurn`). */
  private reserving: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: GraphBudgetStore,
    private readonly settings: GraphBudgetSettings,
    private readonly sleep: Sleep,
    private readonly logger?: Pick<Logger, 'debug'>,
  ) {}

  /** The buckets of `method path` (a path under the version, such as `/teams/{id}/channels`). */
  buckets(method: string, path: string): BudgetBucket[] {
    const L = this.settings.limits;
    const perSecond = (rate: number) => 1000 / (rate * this.settings.headroom);
    const team = TEAM_PATH.exec(path);
    const groupTeam = method === 'PUT' && /^\/groups\/[^/]+\/team$/.test(path);
    const createTeam = method === 'POST' && /^\/teams\/?$/.test(path);
    if (!team && !groupTeam && !createTeam) return [];
    const teamId = team?.[1] ?? team?.[2];
    const channelId = team?.[3] ?? team?.[4];
    const rest = team ? path.slice(team[0].length) : '';
    let klass: string;
    let rate: number;
    if (createTeam) [klass, rate] = ['createTeam', L.createTeamPerSecond];
    else if (groupTeam || (method === 'POST' && rest === '/clone'))
      [klass, rate] = ['cloneTeam', L.cloneTeamPerSecond];
    else if (method === 'POST' && (channelId ? rest === '/tabs' : /^\/channels\/?$/.test(rest)))
      [klass, rate] = ['channelOrTab', L.channelOrTabPerSecond];
    else [klass, rate] = ['other', L.otherPerSecond];
    const buckets: BudgetBucket[] = [{ key: `class:${klass}`, intervalMs: perSecond(rate) }];
    if (teamId) buckets.push({ key: `team:${teamId}`, intervalMs: perSecond(L.perTeamPerSecond) });
    if (teamId && channelId) {
      buckets.push({ key: `channel:${teamId}/${channelId}`, intervalMs: perSecond(L.perChannelPerSecond) });
    }
    if (teamId && !channelId && method === 'POST' && /^\/members(\/add)?$/.test(rest)) {
      const interval = 60_000 / (L.memberAdditionsPerMinute * this.settings.headroom);
      buckets.push({ key: `members:${teamId}`, intervalMs: interval });
    }
    return buckets;
  }

  /**
   * Waits for this call's turn in every bucket it draws on; throws GraphBudgetDeferred (sending
   * nothing) when that turn is further than the settings' `maxWaitMs`. The turn comes from the
   * windows this process holds (`BudgetTurns`) when they can serve the call, else from a new
   * reservation of several turns in one statement.
   */
  async acquire(method: string, path: string): Promise<void> {
    const buckets = this.buckets(method, path);
    if (buckets.length === 0) return;
    this.sweepNowAndThen();
    // A turn found free is taken in the same turn of the event loop (or inside
    // `reserveInTurn`'s): no other call of the process can be given it too.
    let at = this.turns.earliest(buckets, Date.now());
    if (at !== undefined) this.turns.take(buckets, at);
    else at = await this.reserveInTurn(buckets);
    const ms = Math.ceil(at - Date.now());
    if (ms > 0) await pacedWait(ms, this.sleep);
    const sent = Date.now();
    this.turns.moved(buckets, at, sent);
    if (ms > 1000) {
      // Long in-process waits are what the worker's slots were once held by: each is on record.
      this.logger?.debug(
        { graphBudget: { method, buckets: buckets.map((b) => b.key), waitedMs: ms } },
        'graph budget wait',
      );
    }
  }

  /**
   * The call's turn from new windows, taken. A process reserves one call's windows
   * at a time, and a call looks again at the windows when its time comes: calls that need a
   * class window at the same moment share one reservation rather than each taking its own.
   */
  private reserveInTurn(call: readonly BudgetBucket[]): Promise<number> {
    const turn = this.reserving.then(async () => {
      const found = await this.findTurn(call);
      this.turns.take(call, found);
      return found;
    });
    this.reserving = turn.then(
      () => undefined,
      () => undefined,
    );
    return turn;
  }

  /** The call's turn in this process's windows, reserving new ones as needed. */
  private async findTurn(call: readonly BudgetBucket[]): Promise<number> {
    const ready = this.turns.earliest(call, Date.now());
    if (ready !== undefined) return ready;
    // First the class when it alone has no turn left (used up by the process's other jobs); if
    // its new turns do not line up with the others', all the call's buckets, which starts their
    // new windows together.
    const lacking = call.filter((b) => this.turns.earliest([b], Date.now()) === undefined);
    // Only a class alone: its new window, shared by the process's jobs, starts near now, inside
    // the call's team window. A team's new window starts after the process's last one, past the
    // class window: both are reserved together. Single turns (a short longest wait) are instants
    // that line up only when reserved together.
    const classOnly = lacking.every((b) => b.key.startsWith('class:'));
    const single = call.some((b) => this.turnsOf(b) === 1);
    if (classOnly && !single && lacking.length > 0 && lacking.length < call.length) {
      const { turn } = await this.reserve(lacking, call);
      if (turn !== undefined) return turn;
    }
    // A window a slow answer left empty is served at its start, as a single turn was.
    const { turn, start } = await this.reserve(call, call);
    return turn ?? start;
  }

  /**
   * The turns a reservation takes in `bucket`. A window spans no more than the longest in-process
   * wait: with a short one (a budget meant to park jobs rather than hold them), turns are reserved
   * one at a time, as they always were.
   */
  private turnsOf(bucket: BudgetBucket): number {
    const fit = Math.max(1, Math.floor(this.settings.maxWaitMs / Math.ceil(bucket.intervalMs)));
    return Math.min(fit, this.turns.turnsFor(bucket, TURNS_PER_RESERVATION));
  }

  /**
   * Reserves turns in `buckets` in one statement; returns the new windows' start and the call's turn in the windows (undefined if they still do
   * not serve every bucket of `call`).
   */
  private async reserve(
    buckets: readonly BudgetBucket[],
    call: readonly BudgetBucket[],
  ): Promise<{ turn: number | undefined; start: number }> {
    // A turn one interval away is the bucket's own pace, waited for here: deferred instead, the
    // job would park, and its step, re-run when it resumes, would spend that turn on the calls it
    // had already made before this one, and be deferred again, for ever.
    const maxWaitMs = Math.max(this.settings.maxWaitMs, ...call.map((b) => Math.ceil(b.intervalMs)));
    const wanted = buckets.map((b) => ({ ...b, turns: this.turnsOf(b) }));
    const asked = Date.now();
    const reservation = await this.store.reserve(wanted, maxWaitMs);
    const answered = Date.now();
    if ('deferredMs' in reservation) {
      throw new GraphBudgetDeferred(
        buckets.map((b) => b.key.split(':')[0]).join(', '),
        reservation.deferredMs,
      );
    }
    for (const bucket of wanted)
      this.turns.add(bucket, bucket.turns, answered + reservation.waitMs, answered - asked);
    const start = answered + reservation.waitMs;
    return { turn: this.turns.earliest(call, answered), start };
  }

  /** Buckets of teams long provisioned hold no state: one process deletes them now and then. */
  private sweepNowAndThen(): void {
    const now = Date.now();
    if (now < this.nextSweep) return;
    this.nextSweep = now + SWEEP_EVERY_MS;
    this.turns.sweep(now);
    // Best effort: a failed sweep leaves rows the next one deletes.
    this.store.sweep().catch(() => undefined);
  }

  /**
   * Graph throttled `method path` anyway (another app instance, a limit lower than published):
   * every bucket of the call, its class included, serves nobody for `retryAfterMs`, in every
   * worker process, since Graph does not say which of its limits was reached.
   */
  async throttled(method: string, path: string, retryAfterMs: number): Promise<void> {
    const keys = this.buckets(method, path).map((b) => b.key);
    this.turns.forget(keys);
    await this.store.penalise(keys, retryAfterMs);
  }
}
