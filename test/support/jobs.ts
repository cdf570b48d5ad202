import type { Job } from '../../src/contract';
import type { TestSteward } from './steward';

/** Polls a job over the API until it reaches one of `statuses` (default: completed or failed). */
export async function waitForJob(
  app: TestSteward,
  token: string,
  jobId: string,
  statuses: readonly string[] = ['completed', 'failed'],
  timeoutMs = 15_000,
): Promise<Job> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await app.call<Job>('GET', `/api/v1.0/jobs/${jobId}`, { token });
    if (res.status !== 200) throw new Error(`GET job ${jobId}: ${res.status} ${res.text}`);
    if (statuses.includes(res.body.status)) return res.body;
    if (Date.now() > deadline)
      throw new Error(`job ${jobId} still ${res.body.status}: ${res.body.log.join(' | ')}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The types of the events in the outbox, oldest first, optionally for one provisioning job. */
export async function outboxTypes(app: TestSteward, jobId?: string): Promise<string[]> {
  const rows = await app.steward.store.db.selectFrom('outbox_events').selectAll().orderBy('seq').execute();
  return rows
    .filter(
      (r) =>
        !jobId || (JSON.parse(r.payload) as { provisioning?: { id: string } }).provisioning?.id === jobId,
    )
    .map((r) => r.type);
}
