import type { StoredJob } from '../../domain/jobs';

interface DebugLog {
  debug?(o: object, m: string): void;
}

/**
 * The worker's debug lines about claims and parks: how late after its due time each job was taken
 * up, and when a parked job is due again. The graph-pace benchmark's timeline reads them
 * (`bench/graphPaceTimeline.js`); at the default level they cost nothing.
 */
export function logClaimed(
  log: DebugLog,
  claimed: StoredJob[],
  now: number,
  held: number,
  pacing: number,
): void {
  if (claimed.length === 0 || !log.debug) return;
  log.debug(
    {
      claim: claimed.map((job) => ({
        jobId: job.id,
        lateMs: now - job.runAt,
        waiting: job.checkpoint.waiting?.for,
        status: job.status,
      })),
      held,
      pacing,
    },
    'jobs claimed',
  );
}

export function logParked(log: DebugLog, job: StoredJob, runAt: number): void {
  log.debug?.(
    { park: { jobId: job.id, for: job.checkpoint.waiting?.for, afterMs: runAt - Date.now() } },
    'job parked',
  );
}
