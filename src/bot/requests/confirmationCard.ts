import { renderCard, type AdaptiveCardAttachment } from '../cards/adaptiveCard';
import { cardPictureUrl } from '../cards/cardPicture';
import { TEAM_NAME_MAX_LENGTH } from '../../client';
import { approvalWords } from '../shared/approvalWords';
import { clip } from '../cards/cardText';
import { dateTimeFor, DEFAULT_READER, namesIn, type Reader, say } from '../i18n/catalog';
import type { Job } from '../../client';
import { type StageSummary, summarizeJob } from '../shared/jobSummary';
import { type NameTranslations, templateNameIn } from '../shared/templateTexts';
import confirmationCardTemplate from './confirmationCard.json';

/** What the confirmation card shows right after a request is accepted (`201 Job`). */
export interface ConfirmationCardData {
  jobId: string;
  /** The final team name, after the naming convention. */
  teamName: string;
  templateName: string;
  /** The template's name in other languages, as the request recorded it. */
  templateTranslations?: NameTranslations;
  pictureUrl: string | null;
  /** ISO 8601 time of the request. */
  requestedAt: string;
  /** Names of the approval team when the template needs approval; empty when it does not. */
  approverNames: readonly string[];
  /** Whether any one of the approvers decides, or each of them must approve (`any` when absent). */
  approvalMode?: 'any' | 'all';
  /**
   * With a staged policy: every stage and who decides it, as the request resolved them (the
   * approvers above are only the open stage's); absent or empty otherwise.
   */
  stages?: readonly StageSummary[];
}

/** The confirmation card's data for a job just accepted (`201 Job`, or `GET /jobs/{id}` later). */
export function confirmationCardData(job: Job, pictureUrl: string | null): ConfirmationCardData {
  const summary = summarizeJob(job);
  return {
    jobId: job.id,
    teamName: summary.teamName,
    templateName: summary.templateName,
    templateTranslations: summary.templateTranslations,
    pictureUrl,
    requestedAt: summary.createdDateTime,
    approverNames: summary.approval?.approverNames ?? [],
    approvalMode: summary.approval?.mode ?? 'any',
    stages: summary.approval?.stages ?? [],
  };
}

/** The stages a card lists at most (a policy has a few). */
const STAGES_SHOWN = 10;

/** "Stage 1: Legal" and "Adele Vance", a fact per stage: who decides each, in the reader's words. */
function stageFacts(
  stages: readonly StageSummary[],
  reader: Reader,
): Array<{ title: string; value: string }> {
  return stages.slice(0, STAGES_SHOWN).map((stage, index) => {
    const names = clip(namesIn(reader, stage.approverNames), 400);
    const words = approvalWords(stage.approverNames.length, stage.mode);
    const name = clip(stage.name.trim(), 80);
    return {
      title: name
        ? say(reader, 'confirmation.stage', { number: index + 1, stage: name })
        : say(reader, 'confirmation.stageNumber', { number: index + 1 }),
      value: words === 'One' ? names : say(reader, `approval.approvers${words}`, { names }),
    };
  });
}

/** What the card says of the approval: who decides (each stage's people, with a staged policy). */
function approvalSaid(data: ConfirmationCardData, reader: Reader, approvers: string): string {
  const stages = data.stages ?? [];
  if (stages.length > 1) return say(reader, 'confirmation.approvalStaged', { count: stages.length });
  const words = approvalWords(data.approverNames.length, data.approvalMode ?? 'any');
  return say(reader, `confirmation.approval${words}`, { names: approvers });
}

/**
 * "Request received": the final name and who approves (if anyone), stage by stage. It has no
 * button: the request's one living card is its progress card, posted below it.
 */
export function renderConfirmationCard(
  data: ConfirmationCardData,
  reader: Reader = DEFAULT_READER,
): AdaptiveCardAttachment {
  const team = clip(data.teamName, TEAM_NAME_MAX_LENGTH);
  const approvers = clip(namesIn(reader, data.approverNames), 400);
  const stages = (data.stages ?? []).length > 1 ? stageFacts(data.stages ?? [], reader) : [];
  return renderCard('confirmationCard', confirmationCardTemplate, {
    jobId: data.jobId,
    teamName: team,
    templateName: clip(
      templateNameIn({ name: data.templateName, translations: data.templateTranslations }, reader),
      120,
    ),
    pictureUrl: cardPictureUrl(data.pictureUrl),
    needsApproval: approvers !== '' || stages.length > 0,
    stages,
    labels: {
      fallback: say(reader, 'confirmation.fallback', { team }),
      title: say(reader, 'confirmation.title'),
      name: say(reader, 'confirmation.name', { team }),
      template: say(reader, 'confirmation.template'),
      requestedAt: say(reader, 'confirmation.requestedAt', { when: dateTimeFor(reader, data.requestedAt) }),
      approval: approvalSaid(data, reader, approvers),
      noApproval: say(reader, 'confirmation.noApproval'),
      follow: say(reader, 'confirmation.follow'),
    },
  });
}
