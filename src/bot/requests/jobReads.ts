import { type Job, JOBS_A_READ, type StewardClient } from '../../client';
import type { BotIdentity } from '../shared/botIdentity';

/** What one read of a job gave: the job (undefined when it is gone) and the read's order. */
export interface JobRead {
  job: Job | undefined;
  /** Larger for a read sent later: a card is never drawn from an older read than the one it shows. */
  sequence: number;
}

/** What the reads need. */
export interface JobReadDependencies {
  client: StewardClient;
  identity: BotIdentity;
  /** Reads made for one person (or for the bot itself) at once after a quiet spell. */
  burst: number;
  /** Then one read per this many ms, at most. */
  spacingMs: number;
}

interface Waiting {
  resolve(read: JobRead): void;
  reject(error: unknown): void;
}

/** The reads asked for one person (or for the bot itself) and not sent yet. */
interface Lane {
  waiting: Map<string, Waiting[]>;
  timer?: NodeJS.Timeout;
  sending: boolean;
  /** Reads the lane may make now (a token bucket: `burst` at most, one more per `spacingMs`). */
  tokens: number;
  /** When `tokens` was counted. */
  countedAt: number;
}

/**
 * The bot's reads of jobs it follows for people, gathered: every job asked for one person within
 * `spacingMs` goes into one `GET /jobs?ids=` (up to `JOBS_A_READ` a call), made with the bot's app
 * token on behalf of that person (`X-Steward-On-Behalf-Of`), so it counts against the person's rate
 * limit, never the bot's one budget for the whole organisation. The first read after a quiet spell
 * goes after `GATHER_MS` (200 ms, so the events of one change share it); then at most one call per
 * `spacingMs` per person, whatever the number of their open requests, one at a time. A job asked for again before its read went out shares that read.
 */
export class JobReads {
  private readonly lanes = new Map<string, Lane>();
  private sequence = 0;
  private stopped = false;

  constructor(private readonly deps: JobReadDependencies) {}

  /**
   * Reads `jobId` for `personId` (the requester; empty for a read of the bot's own), in the next
   * call for that person. Rejects when that call fails.
   */
  read(jobId: string, personId: string): Promise<JobRead> {
    if (this.stopped) return Promise.reject(new Error('The bot is stopping.'));
    let lane = this.lanes.get(personId);
    if (!lane) {
      if (this.lanes.size >= 1000) this.forgetIdle();
      lane = { waiting: new Map(), sending: false, tokens: this.deps.burst, countedAt: Date.now() };
      this.lanes.set(personId, lane);
    }
    const promise = new Promise<JobRead>((resolve, reject) => {
      const waiting = lane.waiting.get(jobId) ?? [];
      waiting.push({ resolve, reject });
      lane.waiting.set(jobId, waiting);
    });
    this.plan(personId, lane);
    return promise;
  }

  /** Reads the bot's own (not for anyone): up to `JOBS_A_READ` jobs in one call with its app token. */
  async readNow(jobIds: readonly string[]): Promise<Map<string, JobRead>> {
    const sequence = ++this.sequence;
    const jobs = await this.deps.client.getJobs(jobIds, { token: () => this.deps.identity.appToken() });
    return answers(jobIds, jobs, sequence);
  }

  /** Refuses new reads and fails those not sent yet. */
  stop(): void {
    this.stopped = true;
    for (const lane of this.lanes.values()) {
      if (lane.timer) clearTimeout(lane.timer);
      const error = new Error('The bot is stopping.');
      for (const waiting of lane.waiting.values()) for (const w of waiting) w.reject(error);
      lane.waiting.clear();
    }
    this.lanes.clear();
  }

  /** Sends the lane's next call at its turn, unless one is on its way or already planned. */
  private plan(personId: string, lane: Lane): void {
    if (lane.sending || lane.timer || lane.waiting.size === 0 || this.stopped) return;
    const wait = Math.ceil(Math.max(0, 1 - this.count(lane)) * this.deps.spacingMs);
    lane.timer = setTimeout(() => {
      lane.timer = undefined;
      void this.send(personId, lane);
    }, wait);
    lane.timer.unref();
  }

  /** The lane's reads available now. */
  private count(lane: Lane): number {
    const now = Date.now();
    lane.tokens = Math.min(this.deps.burst, lane.tokens + (now - lane.countedAt) / this.deps.spacingMs);
    lane.countedAt = now;
    return lane.tokens;
  }

  private async send(personId: string, lane: Lane): Promise<void> {
    const batch = [...lane.waiting.entries()].slice(0, JOBS_A_READ);
    for (const [jobId] of batch) lane.waiting.delete(jobId);
    lane.sending = true;
    this.count(lane);
    lane.tokens -= 1;
    const sequence = ++this.sequence;
    try {
      const ids = batch.map(([jobId]) => jobId);
      const jobs = await this.deps.client.getJobs(ids, {
        token: () => this.deps.identity.appToken(),
        ...(personId ? { onBehalfOf: personId } : {}),
      });
      const read = answers(ids, jobs, sequence);
      for (const [jobId, waiting] of batch) for (const w of waiting) w.resolve(read.get(jobId)!);
    } catch (error) {
      for (const [, waiting] of batch) for (const w of waiting) w.reject(error);
    } finally {
      lane.sending = false;
      this.plan(personId, lane);
    }
  }

  /** Drops the idle lanes whose bucket is full again (a new lane starts full). */
  private forgetIdle(): void {
    for (const [personId, lane] of this.lanes) {
      const idle = !lane.sending && !lane.timer && lane.waiting.size === 0;
      if (idle && this.count(lane) >= this.deps.burst) this.lanes.delete(personId);
    }
  }
}

/** Each id asked, with its job, or undefined when the answer left it out (gone, or not visible). */
function answers(ids: readonly string[], jobs: readonly Job[], sequence: number): Map<string, JobRead> {
  const byId = new Map(jobs.map((job) => [job.id, job]));
  return new Map(ids.map((id) => [id, { job: byId.get(id), sequence }]));
}
