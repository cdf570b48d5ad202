import type { TurnContext } from 'botbuilder';
import type { StewardClient } from '../../client';
import { isStatus } from '../apiFailures';
import type { ApplyLabelData } from './requestVerbData';
import { say } from '../i18n/catalog';
import { readerOfTurn, type Reply } from '../conversations/reply';
import type { ProgressTracker } from './progress';

/**
 * "Apply the label" on a progress card: the owner who pressed it asks the API to put the template's
 * sensitivity label on the team with their own authority. The API exchanges the token the bot
 * called it with (the person's Teams single sign-on token) for a delegated Graph token; without
 * single sign-on (the embedded identity) or without the tenant's consent it answers 409, and the
 * owner is told how to set the label themselves. Other refusals (not an owner) are the verb's
 * failure card. Once the label is on, every card of the request that made the team says so and
 * offers the button no more (the pressed one in place): the job's record still says it was missing.
 */
export async function applyLabel(
  context: TurnContext,
  api: StewardClient,
  progress: ProgressTracker,
  data: ApplyLabelData,
): Promise<Reply> {
  const reader = readerOfTurn(context);
  const teamId = typeof data.teamId === 'string' ? data.teamId : '';
  const team = typeof data.teamName === 'string' && data.teamName !== '' ? data.teamName : teamId;
  try {
    await api.applyTeamSensitivityLabel(teamId);
  } catch (error) {
    if (isStatus(error, 409)) return { kind: 'text', text: say(reader, 'label.cannotDelegate') };
    if (isStatus(error, 404) && teamId !== '') return { kind: 'text', text: say(reader, 'label.none') };
    throw error;
  }
  const jobId = typeof data.jobId === 'string' ? data.jobId : '';
  const job = jobId ? await api.getJob(jobId).catch(() => undefined) : undefined;
  if (!job) return { kind: 'text', text: say(reader, 'label.applied', { team }) };
  await progress.noteLabelApplied(job);
  return { kind: 'card', card: await progress.cardOf(job, reader), inPlace: true, shows: job };
}
