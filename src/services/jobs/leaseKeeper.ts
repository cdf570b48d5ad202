import type { Kysely } from 'kysely';
import { renewLeases } from '../../store/jobs/jobLeaseRenewal';
import type { Database } from '../../store/schema';

/**
 * Keeps alive the leases of every job a worker holds, with one statement per renewal period for
 * all of them: a worker holds many jobs while they wait for their Graph budget turns, and a
 * statement per job and period was a large share of a job's statements.
 */
export class LeaseKeeper {
  private readonly held = new Map<string, () => void>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly owner: string,
    private readonly leaseMs: number,
    private readonly log: { warn(o: object, m: string): void },
    /** Steward's clock (the worker's), which claims and lease checks read too. */
    private readonly clock: () => number = Date.now,
  ) {}

  /** Renews `jobId`'s lease until the function returned is called; `lost` runs if it is taken over. */
  keep(jobId: string, lost: () => void): () => void {
    this.held.set(jobId, lost);
    this.timer ??= setInterval(() => void this.renew(), Math.max(50, Math.floor(this.leaseMs / 3)));
    return () => {
      this.held.delete(jobId);
      if (this.held.size === 0) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    };
  }

  private async renew(): Promise<void> {
    const ids = [...this.held.keys()];
    try {
      const kept = await renewLeases(this.db, ids, this.owner, this.leaseMs, this.clock());
      for (const id of ids) if (!kept.has(id)) this.held.get(id)?.();
    } catch (error) {
      this.log.warn({ err: error, jobs: ids.length }, 'renewing job leases failed');
    }
  }
}
