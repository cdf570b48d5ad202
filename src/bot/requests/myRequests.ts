import type { StewardClient } from '../../client';
import { renderProgressCard } from './progressCard';
import { progressCardData } from './progressCardData';
import { renderMyRequestsCard } from './myRequestsCard';
import { summarizeJob } from '../shared/jobSummary';
import { requestNamedIn } from '../understanding/requestNamed';
import { type Reader, say } from '../i18n/catalog';
import { cardReply, type Reply } from '../conversations/reply';

/** Requests "my requests" lists. */
const MY_REQUESTS_TOP = 20;

/** The caller's recent requests with their state (`GET /me/jobs`); `waiting`: only those still waiting. */
export async function myRequests(api: StewardClient, reader: Reader, waiting = false): Promise<Reply> {
  const jobs = await api.getMyJobs({ top: MY_REQUESTS_TOP });
  return cardReply(renderMyRequestsCard({ jobs: jobs.value, waiting }, reader));
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

/** Requests `status <team name>` looks through: the caller's most recent (the API's most per page). */
const FIND_TOP = 50;

/** Names compared as people mean them: case and accents aside ("cli-us-acme" is "CLI-US-Acme"). */
const sameName = new Intl.Collator('en', { sensitivity: 'base', usage: 'search' });

/**
 * The id of the caller's request `text` names: the newest of their requests whose team is called
 * that (the final name, or the name they typed before the template's convention), else the one with
 * that id; null when none is.
 */
export async function findRequest(api: StewardClient, text: string): Promise<string | null> {
  const wanted = text.trim();
  if (!wanted) return null;
  const jobs = (await api.getMyJobs({ top: FIND_TOP })).value;
  const named = (name: string | null) => name !== null && sameName.compare(name.trim(), wanted) === 0;
  const summaries = jobs.map(summarizeJob);
  const found =
    summaries.find((job) => named(job.teamName)) ??
    summaries.find((job) => named(job.requestedName)) ??
    summaries.find((job) => job.jobId === wanted);
  if (found) return found.jobId;
  // "my Northwind request" for "Northwind Traders": each word typed is a word of its team's name.
  const typed = nameWords(wanted);
  const partly = (name: string | null) => {
    const words = nameWords(name ?? '');
    return typed.length > 0 && typed.every((word) => words.includes(word));
  };
  const byWords = summaries.find((job) => partly(job.teamName) || partly(job.requestedName));
  if (byWords) return byWords.jobId;
  // "my data platform thing" for "Data Platform Revamp": the one request its telling words name.
  const told = requestNamedIn(wanted, summaries, wanted, true);
  if (told) return told.jobId;
  // An older request, by its id (as "status <id>" always worked).
  return isJobId(wanted) ? wanted : null;
}

/** A name's words as people mean them: no case, no accents. */
function nameWords(name: string): string[] {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/** Whether `text` looks like a job id, so "status <garbage>" gets a hint instead of an API call. */
export function isJobId(text: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text);
}

/** The answer to `status <team name>` when no request of the caller is for a team of that name. */
export function noSuchRequest(name: string, reader: Reader): Reply {
  const shown = name.length > 64 ? `${name.slice(0, 63)}…` : name;
  return { kind: 'text', text: say(reader, 'talk.noSuchRequest', { name: shown }) };
}
