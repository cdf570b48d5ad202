import { fail, type Reply } from './protocol';

/**
 * Microsoft Graph's published Teams throttling limits (`includes/throttling-teams.md` of
 * microsoftgraph/microsoft-graph-docs-contrib, "Microsoft Graph service-specific throttling
 * limits"), enforced with token buckets:
 *
 * - per app per tenant, by request class: `POST /teams` 10 rps; `PUT /groups/{id}/team` and
 *   `POST /teams/{id}/clone` 6 rps; `POST` channel and tab 30 rps; every other Teams call 30 rps;
 * - per resource: four requests per second on any one team, one per second on any one channel;
 * - per operation on one resource (the table's "Limit per app per tenant per resource" column):
 *   `POST` channel one a second on a team (the channels collection it creates in), member
 *   additions (`POST /teams/{id}/members`, and the bulk `members/add` action) four per minute on
 *   one team ("4rpm"). `POST installedApps` for a team has no figure of its own in that column:
 *   an app installation is paced per team by the four requests a second any call on it gets.
 *
 * A refused request gets what Graph sends when it throttles (`concepts/throttling.md`): 429 with
 * `Retry-After` in seconds and the error body `{"error":{"code":"TooManyRequests",…}}`. Each
 * bucket holds one second's worth of tokens (one minute's for member additions), so a burst at the
 * limit passes and anything faster is refused. `scale` multiplies every rate (0.2 = a fifth), so
 * benchmarks can reach the ceiling in minutes; directory calls (`/users`, `/groups`) are not Teams
 * calls and are not limited here.
 */
export interface GraphLimits {
  createTeamPerSecond: number;
  cloneTeamPerSecond: number;
  channelOrTabPerSecond: number;
  otherPerSecond: number;
  perTeamPerSecond: number;
  perChannelPerSecond: number;
  channelCreationsPerTeamPerSecond: number;
  memberAdditionsPerMinute: number;
}

export const PUBLISHED_LIMITS: GraphLimits = {
  createTeamPerSecond: 10,
  cloneTeamPerSecond: 6,
  channelOrTabPerSecond: 30,
  otherPerSecond: 30,
  perTeamPerSecond: 4,
  perChannelPerSecond: 1,
  channelCreationsPerTeamPerSecond: 1,
  memberAdditionsPerMinute: 4,
};

/** A token bucket: `rate` tokens per millisecond, holding at most `capacity`. */
class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly rate: number,
    private readonly capacity: number,
    now: number,
  ) {
    this.tokens = capacity;
    this.last = now;
  }

  /** Milliseconds until a token is there (0: there is one now). */
  wait(now: number): number {
    this.tokens = Math.min(this.capacity, this.tokens + (now - this.last) * this.rate);
    this.last = now;
    return this.tokens >= 1 ? 0 : Math.ceil((1 - this.tokens) / this.rate);
  }

  take(): void {
    this.tokens -= 1;
  }
}

type RequestClass = 'createTeam' | 'cloneTeam' | 'channelOrTab' | 'other';

/** The buckets of one simulated tenant (the simulator serves one app). */
export class Throttle {
  /**
   * Requests refused with 429, by bucket name (`class:createTeam`, `team`, `channel`,
   * `channelCreations`, `members`).
   */
  readonly refused = new Map<string, number>();
  /** Requests let through, by request class (`createTeam`, `cloneTeam`, `channelOrTab`, `other`). */
  readonly admitted = new Map<string, number>();
  /** Every Teams request decided, in order: when, its class, and the bucket that refused it (if one did). */
  readonly decisions: Array<[at: number, klass: string, refusedBy?: string]> = [];
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(
    private readonly limits: GraphLimits,
    private readonly scale: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes a token from every bucket `method path` draws on, or answers the 429 Graph would. */
  admit(method: string, path: string): Reply | undefined {
    const teams = /^\/teams\/([^/]+)(?:\/channels\/([^/]+))?/.exec(path);
    const groupTeam = method === 'PUT' && /^\/groups\/[^/]+\/team$/.test(path);
    if (!teams && !groupTeam && !(method === 'POST' && path === '/teams')) return undefined;
    const L = this.limits;
    const klass = classify(method, path, groupTeam);
    const perSecond = {
      createTeam: L.createTeamPerSecond,
      cloneTeam: L.cloneTeamPerSecond,
      channelOrTab: L.channelOrTabPerSecond,
      other: L.otherPerSecond,
    }[klass];
    const wanted: Array<[string, number, number]> = [[`class:${klass}`, perSecond, 1000]];
    const teamId = teams?.[1];
    const channelId = teams?.[2];
    if (teamId) wanted.push([`team:${teamId}`, L.perTeamPerSecond, 1000]);
    if (teamId && channelId) wanted.push([`channel:${teamId}/${channelId}`, L.perChannelPerSecond, 1000]);
    if (teamId && method === 'POST' && /^\/teams\/[^/]+\/channels$/.test(path)) {
      wanted.push([`channelCreations:${teamId}`, L.channelCreationsPerTeamPerSecond, 1000]);
    }
    if (teamId && method === 'POST' && /^\/teams\/[^/]+\/members(\/add)?$/.test(path)) {
      wanted.push([`members:${teamId}`, L.memberAdditionsPerMinute, 60_000]);
    }
    const now = this.now();
    const buckets = wanted.map(([key, limit, per]) => [key, this.bucket(key, limit, per, now)] as const);
    const longest = Math.max(...buckets.map(([, bucket]) => bucket.wait(now)));
    if (longest > 0) {
      const [key] = buckets.find(([, bucket]) => bucket.wait(now) === longest)!;
      const name = key.split(':')[0] === 'class' ? key : key.split(':')[0]!;
      this.refused.set(name, (this.refused.get(name) ?? 0) + 1);
      this.decisions.push([now, klass, name]);
      const reply = fail(
        429,
        'TooManyRequests',
        'Too many requests. Please retry after the time in Retry-After.',
      );
      return { ...reply, headers: { 'retry-after': String(Math.max(1, Math.ceil(longest / 1000))) } };
    }
    for (const [, bucket] of buckets) bucket.take();
    this.admitted.set(klass, (this.admitted.get(klass) ?? 0) + 1);
    this.decisions.push([now, klass]);
    return undefined;
  }

  /** Requests refused so far, all buckets together. */
  get refusedTotal(): number {
    return [...this.refused.values()].reduce((sum, n) => sum + n, 0);
  }

  private bucket(key: string, limit: number, perMs: number, now: number): TokenBucket {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      const rate = (limit * this.scale) / perMs;
      // One period's worth of tokens, and never less than one so that a scaled limit still lets a request through.
      bucket = new TokenBucket(rate, Math.max(1, limit * this.scale), now);
      this.buckets.set(key, bucket);
    }
    return bucket;
  }
}

function classify(method: string, path: string, groupTeam: boolean): RequestClass {
  if (method === 'POST' && path === '/teams') return 'createTeam';
  if (groupTeam || (method === 'POST' && /^\/teams\/[^/]+\/clone$/.test(path))) return 'cloneTeam';
  if (method === 'POST' && /^\/teams\/[^/]+\/channels(\/[^/]+\/tabs)?$/.test(path)) return 'channelOrTab';
  return 'other';
}
