import { loadConfig, loadDotEnv } from '../config';
import { migrate, openStore } from '../store/database';
import { JobRepository } from '../store/jobs';

const USAGE = `Pauses, resumes or shows the job queue shared by every worker of this deployment.

  npm run -s queue -- pause     workers stop claiming jobs (running ones finish); waiting jobs show "paused"
  npm run -s queue -- resume    workers claim jobs again
  npm run -s queue -- status    paused or running, and the number of jobs in each state`;

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
    const summary = Object.entries(counts)
      .map(([status, n]) => `${status} ${n}`)
      .join(', ');
    process.stdout.write(
      `queue ${(await jobs.isPaused()) ? 'paused' : 'running'}; jobs: ${summary || 'none'}\n`,
    );
  } finally {
    await store.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`queue: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
