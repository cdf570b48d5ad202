import type { StepDefinition, StoredJob } from '../../../src/domain/jobs';
import { ActiveRun } from '../../../src/services/jobs/jobRun';
import type { LeaseKeeper } from '../../../src/services/jobs/leaseKeeper';
import type { JobRepository } from '../../../src/store/jobs/jobs';

function storedJob(): StoredJob {
  return {
    id: 'job-1',
    type: 'ProvisioningRequest',
    status: 'active',
    queued: true,
    progress: 0,
    log: [],
    data: {},
    checkpoint: { done: [] },
    failedReason: null,
    attempts: 0,
    runAt: 0,
    leaseOwner: 'worker',
    requesterId: 'alex',
    teamId: null,
    createdAt: new Date(0).toISOString(),
    updatedAt: new Date(0).toISOString(),
    completedAt: null,
  };
}

/**
 * A job's progress is written at most every few seconds, and otherwise with its next write (a
 * park, its end): each write is a statement on the shared database. The team a step made is no
 * exception: every step is safe to run again, the team being found by the job's provisioning key.
 */
describe('a running job saves its progress', () => {
  beforeEach(() => {
    jest.useFakeTimers({ now: 1_000_000 });
  });

  afterEach(() => {
    jest.useRealTimers();
  });

  test('the step that made the team is saved with the next write, not at once', async () => {
    const saved: Array<{ done: string[]; teamId: string | null | undefined }> = [];
    const jobs = {
      save: async (job: StoredJob) => {
        saved.push({ done: [...job.checkpoint.done], teamId: job.teamId });
        return true;
      },
    } as unknown as JobRepository;
    const leases = { keep: () => () => undefined } as unknown as LeaseKeeper;
    const job = storedJob();
    const steps: StepDefinition[] = ['team', 'channels', 'welcome'].map((name) => ({
      name,
      title: name,
      weight: 1,
    }));
    const active = new ActiveRun(job, steps, {}, { jobs, owner: 'worker', leases });
    await active.run.step('team', async () => ({ teamId: 'team-1' }));
    expect(saved).toEqual([]);
    expect(job.checkpoint.teamId).toBe('team-1');
    await jest.advanceTimersByTimeAsync(5000);
    await active.run.step('channels', async () => ({}));
    expect(saved).toEqual([{ done: ['team', 'channels'], teamId: 'team-1' }]);
    active.close();
  });
});
