import type { StewardClient } from '../../client';
import { progressCardData, renderMyRequestsCard, renderProgressCard } from '../cards';
import { cardReply, type Reply } from './reply';

/** Requests "my requests" lists. */
const MY_REQUESTS_TOP = 20;

/** The caller's recent requests with their state (`GET /me/jobs`). */
export async function myRequests(api: StewardClient): Promise<Reply> {
  const jobs = await api.getMyJobs({ top: MY_REQUESTS_TOP });
  return cardReply(renderMyRequestsCard({ jobs: jobs.value }));
}

/** One request's progress card (`GET /jobs/{id}`), for "status <job id>" and the Status buttons. */
export async function requestStatus(api: StewardClient, jobId: string): Promise<Reply> {
  const job = await api.getJob(jobId);
  return cardReply(renderProgressCard(progressCardData(job)));
}

/** Whether `text` looks like a job id, so "status <garbage>" gets a hint instead of an API call. */
export function isJobId(text: string): boolean {
  return /^[A-Za-z0-9-]{1,64}$/.test(text);
}
