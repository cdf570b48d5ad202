import type { StewardClient } from '../../client';
import { progressCardData, renderMyRequestsCard, renderProgressCard } from '../cards';
import { type Reader, say } from '../i18n/catalog';
import { cardReply, type Reply } from './reply';

/** Requests "my requests" lists. */
const MY_REQUESTS_TOP = 20;

/** The caller's recent requests with their state (`GET /me/jobs`). */
export async function myRequests(api: StewardClient, reader: Reader): Promise<Reply> {
  const jobs = await api.getMyJobs({ top: MY_REQUESTS_TOP });
  return cardReply(renderMyRequestsCard({ jobs: jobs.value }, reader));
}

/**
 * One request's progress card (`GET /jobs/{id}`), for "status <job id>" and the Status and Refresh
 * buttons: in place of the card pressed (`inPlace`), else as a new message; either way the card
 * then follows the request like its first progress card.
 */
export async function requestStatus(api: StewardClient, jobId: string, inPlace = false): Promise<Reply> {
  const job = await api.getJob(jobId);
  return { kind: 'card', card: renderProgressCard(progressCardData(job)), inPlace, shows: job };
}

/** Whether `text` looks like a job id, so "status <garbage>" gets a hint instead of an API call. */
export function isJobId(text: string): boolean {
  return /^[A-Za-z0-9-]{1,64}$/.test(text);
}

/** The answer to `status <id>` when no request of the caller has that id. */
export function noSuchRequest(jobId: string, reader: Reader): Reply {
  const shown = jobId.length > 64 ? `${jobId.slice(0, 63)}…` : jobId;
  return { kind: 'text', text: say(reader, 'talk.noSuchRequest', { id: shown }) };
}
