import './compileCache';
import { loadConfig, loadDotEnv } from '../config';
import { migrate, openStore } from '../store/database';
import { JobRepository } from '../store/jobs/jobs';
import { scheduledJobs } from '../store/jobs/scheduledJobs';

const USAGE = `Pauses, resumes or shows the job queue shared by every worker of this deployment.

  npm run -s queue -- pause     workers stop claiming jobs (running ones finish); waiting jobs show "paused"
  npm run -s queue -- resume    workers claim jobs again
  npm run -s queue -- status    paused or running, and the number of jobs in each state
                                (waiting jobs due later, such as the nightly lifecycle evaluation,
                                show as "scheduled", with the next one's time)`;

/** `npm run queue`: an operator's switch for the job queue. */
async function main(): Promise<void> {
  const command = process.argv[2];
  if (!command || !['pause', 'resume', 'status'].includes(command)) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(command === '--help' ? 0 : 2);
  }
  loadDotEnv();
  const store = openStore(loadConfig().database);
  try {
    await migrate(store.db);
    const jobs = new JobRepository(store.db);
    if (command !== 'status') await jobs.setPaused(command === 'pause');
    const counts = await jobs.countByStatus();
    const scheduled = await scheduledJobs(store.db, Date.now());
    const waiting = (counts.waiting ?? 0) - scheduled.count;
    if (waiting > 0) counts.waiting = waiting;
    else delete counts.waiting;
    const summary = [
      ...Object.entries(counts).map(([status, n]) => `${status} ${n}`),
      ...(scheduled.next ? [`scheduled ${scheduled.count} (next: ${describe(scheduled.next)})`] : []),
    ].join(', ');
    process.stdout.write(
      `queue ${(await jobs.isPaused()) ? 'paused' : 'running'}; jobs: ${summary || 'none'}\n`,
    );
  } finally {
    await store.close();
  }
}

/** "LifecycleEvaluation at 2026-11-25 02:00 UTC". */
function describe(job: { type: string; runAt: number }): string {
  return `${job.type} at ${new Date(job.runAt).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

main().catch((error: unknown) => {
  process.stderr.write(`queue: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
