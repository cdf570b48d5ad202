import type { Job } from '../../client';
import { DEFAULT_READER } from '../i18n/catalog';
import type { StewardClient } from '../../client';
import type { BotIdentity } from '../shared/botIdentity';
import type { BotLog } from '../botLog';
import type { Messenger } from '../messenger';
import type { JobReads } from './jobReads';
import { renderProgressCard } from './progressCard';
import { type ProgressCardData, progressCardData } from './progressCardData';
import { renderRequestEndedCard } from './requestEndedCard';
import type { ProgressLocation, RequestState } from './requestState';

/** How a request's progress cards are drawn from its job (`progress.ts` decides when). */

/** What following requests needs. */
export interface ProgressDependencies {
  client: StewardClient;
  identity: BotIdentity;
  requestState: RequestState;
  messenger: Messenger;
  /** The gathered reads of jobs, on behalf of their requesters. */
  reads: JobReads;
  /**
   * Polling of jobs with no news: a job's first wait and longest wait, ms. The first wait is also
   * the least time between two polls, each one read of up to `JOBS_A_READ` jobs.
   */
  pollMs: { initial: number; max: number };
  log: BotLog;
}

/** What changes on the card when a job moves. */
export function jobSignature(job: Job): string {
  const approval = (job.data as { approval?: { status?: unknown } }).approval?.status ?? '';
  return `${job.status}|${job.progress}|${job.log.length}|${String(approval)}`;
}

/** What the request's cards show of `job`, with what the bot knows of the request (`location`). */
export function cardData(job: Job, location: ProgressLocation | undefined): ProgressCardData {
  return {
    ...progressCardData(job, location?.pictureUrl ?? null, location?.unreachableApprovers ?? []),
    ...(location?.retried ? { retried: true } : {}),
    ...(location?.labelApplied ? { labelApplied: true } : {}),
  };
}

/** Whether a job will not move any more. */
export function isFinished(job: Job): boolean {
  return job.status === 'completed' || job.status === 'failed';
}

/**
 * Shows the job on every card of the request; when it has ended, also posts the one short message
 * that tells the requester (an update in place makes no notification).
 */
export async function showProgress(
  deps: Pick<ProgressDependencies, 'requestState' | 'messenger' | 'log'>,
  job: Job,
): Promise<void> {
  const location = await deps.requestState.progress(job.id);
  if (!location?.activityId) return;
  const data = await drawProgress(deps, job, location);
  if (isFinished(job) && (await deps.requestState.claimEndNotice(job.id))) {
    const reader = location.reader ?? DEFAULT_READER;
    await deps.messenger.post(location.reference, renderRequestEndedCard(data, reader));
  }
}

/** Draws the job on the request's card and its copies. */
export async function drawProgress(
  deps: Pick<ProgressDependencies, 'messenger' | 'log'>,
  job: Job,
  location: ProgressLocation,
): Promise<ProgressCardData> {
  const data = cardData(job, location);
  const card = renderProgressCard(data, location.reader ?? DEFAULT_READER);
  await deps.messenger.update(location, card);
  for (const copy of location.copies ?? []) {
    await deps.messenger.update(copy, card).catch((error: unknown) => {
      deps.log.warn({ err: error, jobId: job.id }, 'could not update a copy of a progress card');
    });
  }
  return data;
}

/** Notes what the bot learnt of a request beside its job (`learnt`), and redraws every card of it. */
export async function noteAndRedraw(
  deps: Pick<ProgressDependencies, 'requestState' | 'messenger' | 'log'>,
  job: Job,
  learnt: 'retried' | 'labelApplied',
): Promise<void> {
  const location = await deps.requestState.progress(job.id);
  if (!location || location[learnt]) return;
  const noted = { ...location, [learnt]: true };
  await deps.requestState.saveProgress(job.id, noted);
  await drawProgress(deps, job, noted);
}
