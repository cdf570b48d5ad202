import type { Logger } from 'pino';
import type { BudgetBucket, GraphBudgetSettings, GraphBudgetStore } from '../../domain/graphBudget';
import { PlatformBusy } from '../port';
import { budgetDeadline, pacedWait } from '../pacing';
import type { Sleep } from './types';

/**
 * A call the budget could serve only after `maxWaitMs`: it was not sent. The platform is busy, not
 * failing: the job parks until its turn (its worker slot freed, no attempt spent).
 */
export class GraphBudgetDeferred extends PlatformBusy {
  constructor(what: string, waitMs: number, budgetKey: string) {
    super(
      `Microsoft Graph's budget for ${what} is spent for the next ${Math.ceil(waitMs / 1000)} s`,
      waitMs,
      budgetKey,
    );
    this.name = 'GraphBudgetDeferred';
  }
}

/** How often a process deletes buckets that went quiet. */
const SWEEP_EVERY_MS = 5 * 60_000;

/** `/teams/{id}` or `/teams('{id}')`, then optionally `/channels/{id}` (or `('{id}')`). */
const TEAM_PATH = /^\/teams(?:\('([^']+)'\)|\/([^/()?]+))(?:\/channels(?:\('([^']+)'\)|\/([^/()?]+)))?/;

/** `/drives/{id}/…`: a document library's items (a channel's files folder and what is in it). */
const DRIVE_PATH = /^\/drives\/([^/]+)\//;

/**
 * Teams a reader of the whole tenant (the lifecycle evaluator, the inventory report) reads at
 * once, two calls each on the team. A team's second call waits a team's interval (278 ms at 4 a
 * second) after its first, so the class (27 calls a second within the headroom) is kept busy only
 * with several teams in flight: 4 teams at once would spend at most 29 calls a second, 16 leave
 * room to spare.
 */
export const TEAMS_READ_AT_ONCE = 16;

/**
 * The tenant-wide Graph budget as the adapter's request path sees it: which buckets a call draws
 * on (its request class and the team, channel and member additions it touches, after Microsoft's
 * Teams table), a turn reserved in all of them in the shared store before the call is sent, and a
 * 429 turned into a pause of those buckets for every worker. Calls outside Teams (directory,
 * groups, users) are not Teams-throttled and pass freely.
 */
export class GraphBudget {
  private nextSweep = 0;
  /** When this process last sent a call of each bucket (ms since the epoch). */
  private readonly lastSent = new Map<string, number>();

  constructor(
    private readonly store: GraphBudgetStore,
    private readonly settings: GraphBudgetSettings,
    private readonly sleep: Sleep,
    private readonly logger?: Pick<Logger, 'debug'>,
  ) {}

  /** The buckets of `method path` (a path under the version, such as `/teams/{id}/channels`). */
  buckets(method: string, path: string): BudgetBucket[] {
    const L = this.settings.limits;
    const { headroom } = this.settings;
    const perSecond = (rate: number) => 1000 / (rate * headroom);
    const classPerSecond = (rate: number) => 1000 / (rate * (this.settings.classHeadroom ?? headroom));
    const drive = DRIVE_PATH.exec(path);
    if (drive) {
      // A channel's files (SharePoint, not Teams): paced as a class of their own at the Teams
      // "other" rate, and per drive at a team's rate, so a template's folders never come in bursts.
      return [
        { key: 'class:files', intervalMs: classPerSecond(L.otherPerSecond) },
        { key: `drive:${drive[1]}`, intervalMs: perSecond(L.perTeamPerSecond) },
      ];
    }
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
    const buckets: BudgetBucket[] = [{ key: `class:${klass}`, intervalMs: classPerSecond(rate) }];
    if (teamId) buckets.push({ key: `team:${teamId}`, intervalMs: perSecond(L.perTeamPerSecond) });
    if (teamId && channelId) {
      buckets.push({ key: `channel:${teamId}/${channelId}`, intervalMs: perSecond(L.perChannelPerSecond) });
    }
    if (klass === 'channelOrTab' && !channelId) {
      // Creating a channel: one a second on its team, fewer than the team's own four.
      const interval = perSecond(L.channelCreationsPerTeamPerSecond);
      buckets.push({ key: `channelCreations:${teamId}`, intervalMs: interval });
    }
    if (teamId && !channelId && method === 'POST' && /^\/members(\/add)?$/.test(rest)) {
      const interval = 60_000 / (L.memberAdditionsPerMinute * this.settings.headroom);
      buckets.push({ key: `members:${teamId}`, intervalMs: interval });
    }
    return buckets;
  }

  /**
   * Waits for this call's turn in every bucket it draws on; throws GraphBudgetDeferred (sending
   * nothing) when that turn is further than the settings' `maxWaitMs`.
   */
  async acquire(method: string, path: string): Promise<void> {
    const buckets = this.buckets(method, path);
    if (buckets.length === 0) return;
    this.sweepNowAndThen();
    // A turn one interval away is the bucket's own pace, waited for here: deferred instead, the
    // job would park, and its step, re-run when it resumes, would spend that turn on the calls it
    // had already made before this one, and be deferred again, for ever.
    // Work done while a person waits says how long it may wait (`withBudgetDeadline`); it has no
    // step to re-run, so it may be refused sooner than one interval.
    const maxWaitMs =
      budgetDeadline() ?? Math.max(this.settings.maxWaitMs, ...buckets.map((b) => Math.ceil(b.intervalMs)));
    const reservation = await this.store.reserve(buckets, maxWaitMs);
    if ('deferredMs' in reservation) {
      throw new GraphBudgetDeferred(
        buckets.map((b) => b.key.split(':')[0]).join(', '),
        reservation.deferredMs,
        reservation.key,
      );
    }
    await this.waitForTurn(method, buckets, reservation.waitMs);
  }

  /**
   * Waits until the reserved turn, and no less than each bucket's interval after this process last
   * sent a call of it. The database paces turns from when they were reserved; a reservation
   * answered late (a busy database or event loop) sends its call late, and the next call of the
   * same bucket, on its turn, would follow it too closely. A team's or a channel's calls come from
   * the one job working on it, in this process: here no two calls of a bucket leave less than its
   * interval apart. The wait is a paced one: a job waiting here does not hold its worker's slot.
   */
  private async waitForTurn(method: string, buckets: readonly BudgetBucket[], waitMs: number): Promise<void> {
    const now = Date.now();
    const turn = Math.max(
      now + waitMs,
      ...buckets.map((b) => (this.lastSent.get(b.key) ?? 0) + b.intervalMs),
    );
    const ms = Math.ceil(turn - now);
    if (ms > 0) await pacedWait(ms, this.sleep);
    const sent = Date.now();
    for (const bucket of buckets) this.lastSent.set(bucket.key, sent);
    if (ms > 0) {
      // Long in-process waits are what the worker's slots were once held by: each is on record.
      this.logger?.debug(
        { graphBudget: { method, buckets: buckets.map((b) => b.key), waitedMs: sent - now } },
        'graph budget wait',
      );
    }
  }

  /** Buckets of teams long provisioned hold no state: one process deletes them now and then. */
  private sweepNowAndThen(): void {
    const now = Date.now();
    if (now < this.nextSweep) return;
    this.nextSweep = now + SWEEP_EVERY_MS;
    for (const [key, at] of this.lastSent) if (at < now - SWEEP_EVERY_MS) this.lastSent.delete(key);
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
    await this.store.penalise(keys, retryAfterMs);
  }
}
