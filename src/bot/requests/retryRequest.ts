import { MessageFactory, type TurnContext } from 'botbuilder';
import type { Job, StewardClient } from '../../client';
import type { BotLog } from '../botLog';
import type { RequestState } from './requestState';
import { progressCardData } from './progressCardData';
import { renderRequestEndedCard } from './requestEndedCard';
import type { RequestFormValues } from './requestFormCard';
import { summarizeJob } from '../shared/jobSummary';
import type { ProgressTracker } from './progress';
import { type Requester, requesterOf, requestForm } from './requestTeam';
import { cardReply, readerOfTurn, type Reply } from '../conversations/reply';
import type { Reader } from '../i18n/catalog';

type Json = Record<string, unknown>;
const object = (value: unknown): Json =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const ids = (value: unknown): string[] =>
  (Array.isArray(value) ? value : []).map((item) => text(object(item).id) ?? '').filter((id) => id !== '');

/** The form of a failed request's template, filled with the same answers. */
export async function retryForm(
  api: StewardClient,
  job: Job,
  requester: Requester,
  reader: Reader,
  log: BotLog,
): Promise<Reply> {
  const data = object(job.data);
  const request = object(data.request);
  const team = object(request.team);
  const membership = object(team.membership);
  const templateId = text(object(request.template).id) ?? text(object(data.template).id) ?? '';
  const values: RequestFormValues = {
    name: text(team.name),
    description: text(team.description),
    welcomeMessage: text(team.welcomeMessage),
    owners: ids(membership.owners),
    members: ids(membership.members),
  };
  // The plan names the people it resolved: the form names them again.
  const people = (Array.isArray(object(data.plan).members) ? (object(data.plan).members as unknown[]) : [])
    .map((member) => ({
      title: text(object(member).displayName) ?? '',
      value: text(object(member).id) ?? '',
    }))
    .filter((person) => person.title !== '' && person.value !== '');
  return requestForm(api, templateId, { values, requester, reader, people }, false, log);
}

/** What Try again needs. */
export interface RetryDependencies {
  requestState: RequestState;
  progress: ProgressTracker;
  log: BotLog;
}

/**
 * "Try again" on a failed request (its progress card, a copy, or the message that said it ended):
 * the form of its template, filled with the same answers, posted once per request, whoever presses
 * and however often (a claim in the bot state, given back if the form could not be posted). Every
 * card of the request then says so and offers it no more; the card pressed answers in place.
 */
export async function tryAgain(
  context: TurnContext,
  api: StewardClient,
  deps: RetryDependencies,
  jobId: string,
): Promise<Reply> {
  const reader = readerOfTurn(context);
  const job = await api.getJob(jobId);
  const summary = summarizeJob(job);
  const retryable = job.status === 'failed' && summary.kind === 'provisioning';
  if (retryable && (await deps.requestState.claimRetry(job.id))) {
    try {
      const form = await retryForm(api, job, requesterOf(context), reader, deps.log);
      if (form.kind === 'card') await context.sendActivity(MessageFactory.attachment(form.card));
      else await context.sendActivity(form.text);
    } catch (error) {
      await deps.requestState.releaseRetry(job.id);
      throw error;
    }
    await deps.progress.noteRetried(job);
  }
  const pressed = context.activity.replyToId ?? '';
  if ((await deps.progress.isLivingCard(job.id, pressed)) !== false)
    return cardReply(await deps.progress.cardOf(job, reader), true);
  // The message that said the request ended.
  const data = { ...progressCardData(job), retried: retryable };
  return cardReply(renderRequestEndedCard(data, reader), true);
}
