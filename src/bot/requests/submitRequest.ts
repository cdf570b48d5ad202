import { createHash } from 'node:crypto';
import type { TurnContext } from 'botbuilder';
import {
  type Job,
  type SimilarTeam,
  type StewardClient,
  TEAM_NAME_MAX_LENGTH,
  type TeamProvisioningRequest,
} from '../../client';
import { detailMessages, isStatus } from '../apiFailures';
import type { BotLog } from '../botLog';
import type { RequestState } from './requestState';
import { confirmationCardData, renderConfirmationCard } from './confirmationCard';
import type { PersonChoice, RequestFormValues } from './requestFormCard';
import { clip } from '../cards/cardText';
import type { SubmitRequestData } from '../shared/requestFormData';
import { formCard, previewOf, requesterOf } from './requestTeam';
import { teamNameProblem, tooLong } from '../shared/nameProblems';
import type { ProgressTracker } from './progress';
import { renderSimilarTeamsCard } from '../shared/similarTeamsCard';
import { cardReply, readerOfTurn, type Reply } from '../conversations/reply';
import type { MessageKey } from '../i18n/en';
import { DEFAULT_READER, numberFor, type Reader, say } from '../i18n/catalog';

/** Limits of the request, as the API enforces them; checked first so the form can say so at once. */
const LIMITS = {
  name: TEAM_NAME_MAX_LENGTH,
  description: 1024,
  welcomeMessage: 4000,
  owners: 100,
  members: 500,
  person: 256,
};

/** The form's answers as the API's request, and what is wrong with them. */
export function readForm(
  data: SubmitRequestData,
  reader: Reader = DEFAULT_READER,
): { values: RequestFormValues; problems: string[]; people: PersonChoice[] } {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const people = (...fields: unknown[]) => [
    ...new Set(
      fields.flatMap((value) =>
        text(value)
          .split(',')
          .map((id) => id.trim())
          .filter((id) => id !== ''),
      ),
    ),
  ];
  // Left empty (a placeholder shows the template's default): not sent, so the server applies the default.
  const optional = (value: unknown) => (text(value).trim() === '' ? undefined : text(value));
  const values = {
    name: text(data.name).trim(),
    description: optional(data.description),
    welcomeMessage: optional(data.welcomeMessage),
    owners: people(data.owners, data.moreOwners),
    members: people(data.members, data.moreMembers),
  };
  const problems: string[] = [];
  const nameProblem = teamNameProblem(values.name, reader);
  if (nameProblem) problems.push(nameProblem);
  const over = (key: MessageKey, max: number) =>
    problems.push(say(reader, key, { max: numberFor(reader, max) }));
  if (values.description && values.description.length > LIMITS.description)
    problems.push(tooLong(reader, 'problem.descriptionLong', values.description.length, LIMITS.description));
  if (values.welcomeMessage && values.welcomeMessage.length > LIMITS.welcomeMessage)
    problems.push(
      tooLong(reader, 'problem.welcomeMessageLong', values.welcomeMessage.length, LIMITS.welcomeMessage),
    );
  if (values.owners.length > LIMITS.owners) over('problem.tooManyOwners', LIMITS.owners);
  if (values.members.length > LIMITS.members) over('problem.tooManyMembers', LIMITS.members);
  if ([...values.owners, ...values.members].some((id) => id.length > LIMITS.person))
    problems.push(say(reader, 'problem.badPerson'));
  const named = (data.named ?? []).map((person) => ({ title: clip(person.title, 80), value: person.value }));
  return { values, problems, people: named };
}

/**
 * "Check name": the form again, with the person's answers, the final name the convention makes of
 * them and anything wrong with it, before anything is sent.
 */
export async function checkName(
  context: TurnContext,
  api: StewardClient,
  data: SubmitRequestData,
  log: BotLog,
): Promise<Reply> {
  const template = await api.getPlatformTeamTemplate(data.templateId ?? '');
  const reader = readerOfTurn(context);
  const { values, problems, people } = readForm(data, reader);
  const requester = requesterOf(context);
  // The server would say the same of a name the bot already refuses (in English: the API's words).
  const checkName = !teamNameProblem(values.name ?? '');
  return cardReply(
    await formCard(api, template, { values, problems, requester, reader, checkName, people }, log),
    true,
  );
}

/**
 * The idempotency key of a submission: the same for every click on the same form (a double click, a
 * retry, the same card replayed later), different for each form shown.
 */
export function submissionKey(userId: string, formId: string, templateId: string): string {
  const digest = createHash('sha256').update(`${userId}\n${formId}\n${templateId}`).digest('hex');
  return `bot-${digest.slice(0, 60)}`;
}

/** What submitting needs. */
export interface SubmitDependencies {
  requestState: RequestState;
  progress: ProgressTracker;
  log: BotLog;
}

/**
 * The last step of "Request a team": checks the form, sends `POST /teams/provisioning` with an
 * idempotency key derived from the form, answers with the confirmation card in place of the form
 * and posts the progress card. A replayed or double-clicked submit returns the first request's
 * job: it never creates a second request.
 */
export class RequestSubmitter {
  /** Submissions in flight in this process, so a double click waits for the first click's answer. */
  private readonly inFlight = new Map<string, Promise<Reply>>();

  constructor(private readonly deps: SubmitDependencies) {}

  /** Submits the form of `data` as the person behind `context`. */
  submit(context: TurnContext, api: StewardClient, data: SubmitRequestData): Promise<Reply> {
    const userId = context.activity.from.aadObjectId ?? context.activity.from.id;
    // Forms rendered without an id are told apart by the message that carries them.
    const formId = data.formId?.trim() || `message:${context.activity.replyToId ?? 'none'}`;
    const key = submissionKey(userId, formId, data.templateId ?? '');
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.send(context, api, data, userId, key).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  private async send(
    context: TurnContext,
    api: StewardClient,
    data: SubmitRequestData,
    userId: string,
    key: string,
  ): Promise<Reply> {
    const earlier = await this.deps.requestState.form(userId, key);
    if (earlier) return this.confirm(context, await api.getJob(earlier.jobId), null);
    const template = await api.getPlatformTeamTemplate(data.templateId ?? '');
    const reader = readerOfTurn(context);
    const { values, problems, people } = readForm(data, reader);
    const requester = requesterOf(context);
    if (problems.length > 0)
      return cardReply(
        await formCard(api, template, { values, problems, requester, reader, people }, this.deps.log),
        true,
      );
    const request: TeamProvisioningRequest = {
      template: { id: data.templateId ?? '' },
      team: {
        name: values.name!,
        description: values.description,
        welcomeMessage: values.welcomeMessage,
        membership: {
          owners: (values.owners ?? []).map((id) => ({ id })),
          members: (values.members ?? []).map((id) => ({ id })),
        },
      },
    };
    // Teams like this one already? Shown first, with "Create anyway" (the same form, this check skipped).
    if (data.skipSimilar !== true && String(data.skipSimilar) !== 'true') {
      const similar = await this.similarTeams(api, request);
      if (similar.length > 0)
        return cardReply(
          renderSimilarTeamsCard({ name: values.name!, teams: similar, request: data }, reader),
          true,
        );
    }
    let job: Job;
    try {
      job = await api.createTeamProvisioningJob(request, { idempotencyKey: key });
    } catch (error) {
      if (!isStatus(error, 400)) throw error;
      // The final name (after the template's convention) may be what was refused: say so in the
      // reader's words, with the room the convention leaves, rather than in the API's English.
      const preview = await previewOf(api, template, { ...values, name: values.name! });
      const nameProblem = teamNameProblem(values.name!, reader, preview?.nameMaxLength ?? LIMITS.name);
      const reasons = nameProblem ? [nameProblem] : detailMessages(error.details, reader);
      return cardReply(
        await formCard(
          api,
          template,
          {
            values,
            requester,
            reader,
            people,
            problems: reasons.length > 0 ? reasons : [say(reader, 'problem.invalid')],
          },
          this.deps.log,
        ),
        true,
      );
    }
    await this.deps.requestState.saveForm(userId, key, { jobId: job.id });
    return this.confirm(context, job, template.templateConfiguration.pictureUrl ?? null);
  }

  /**
   * Existing teams alike the request that the person may see (the preview's warning); none when
   * they cannot be read: the request is then made without the check rather than not at all.
   */
  private async similarTeams(api: StewardClient, request: TeamProvisioningRequest): Promise<SimilarTeam[]> {
    try {
      return (await api.previewTeamProvisioning(request)).similarTeams ?? [];
    } catch (error) {
      this.deps.log.warn({ err: error }, 'could not look for similar teams before a request');
      return [];
    }
  }

  /** The confirmation card in place of the form, and the progress card (once per request). */
  private async confirm(context: TurnContext, job: Job, pictureUrl: string | null): Promise<Reply> {
    await this.deps.progress.start(context, job, pictureUrl);
    return cardReply(
      renderConfirmationCard(confirmationCardData(job, pictureUrl), readerOfTurn(context)),
      true,
    );
  }
}
