import type { JobWaitReason } from '../../client';
import { TEAM_NAME_MAX_LENGTH } from '../../client';
import { renderCard, type AdaptiveCardAttachment } from '../cards/adaptiveCard';
import { cardPictureUrl } from '../cards/cardPicture';
import { clip, markdownText, plainSentence, teamLink, withoutIds } from '../cards/cardText';
import { type MessageKey } from '../i18n/en';
import {
  dateTimeFor,
  DEFAULT_READER,
  isFeminine,
  namesIn,
  percentFor,
  type Reader,
  say,
} from '../i18n/catalog';
import { approvalWords } from '../shared/approvalWords';
import { progressBarImage, STEP_ICONS } from '../cards/cardIcons';
import type { JobKind } from '../shared/jobSummary';
import { type TemplateName, templateNameIn } from '../shared/templateTexts';
import { isRetryable, isWithdrawable, type ProgressCardData } from './progressCardData';
import type { ProgressStep, StepState } from './progressSteps';
import progressCardTemplate from './progressCard.json';

/** Log lines the progress card shows, newest last. */
export const PROGRESS_LOG_LINES = 5;

/** Each step state's words, and their feminine form where French makes them agree with the step. */
const STEP_WORDS: Record<StepState, { text: MessageKey; feminine: MessageKey }> = {
  done: { text: 'step.done', feminine: 'step.doneFeminine' },
  running: { text: 'step.active', feminine: 'step.active' },
  pending: { text: 'step.pending', feminine: 'step.pending' },
  failed: { text: 'step.failed', feminine: 'step.failed' },
  skipped: { text: 'step.skipped', feminine: 'step.skippedFeminine' },
  rejected: { text: 'step.rejected', feminine: 'step.rejectedFeminine' },
};

/** A step as the checklist shows it: its title, its state in words agreeing with it, and its picture. */
function stepLine(step: ProgressStep, reader: Reader): { title: string; icon: string; stateText: string } {
  const key = STEP_TITLES[step.title];
  const words = STEP_WORDS[step.state];
  return {
    title: clip(key ? say(reader, key) : step.title, 80),
    icon: STEP_ICONS[step.state],
    stateText: say(reader, key && isFeminine(reader, key) ? words.feminine : words.text),
  };
}

/** A step a withdrawal stopped, drawn as not done rather than as failed or rejected (in red). */
function notRed(step: ProgressStep): ProgressStep {
  return step.state === 'failed' || step.state === 'rejected' ? { ...step, state: 'skipped' } : step;
}

/** The steps' English titles (as the checklist names them) and their catalog keys. */
const STEP_TITLES: Record<string, MessageKey> = {
  Approval: 'step.approval',
  'Create the team': 'step.create',
  'Apply the team settings': 'step.settings',
  'Create channels and tabs': 'step.channels',
  'Add owners and members': 'step.people',
  'Post the welcome message': 'step.welcome',
  Finish: 'step.finish',
  'Create channels': 'step.channelsOnly',
  'Create tabs': 'step.tabs',
  'Create folders and starter files': 'step.files',
  "Store the request's metadata": 'step.metadata',
  'Make the Planner plan': 'step.planner',
  'Make the team tags': 'step.tags',
  'Install apps': 'step.apps',
  'Archive the team': 'step.archive',
  'Unarchive the team': 'step.unarchive',
};

/** The headline of a job waiting for Microsoft Teams, by what it waits for. */
const WAIT_HEADLINES: Record<JobWaitReason, MessageKey> = {
  teamCreation: 'progress.wait.teamCreation',
  teamClone: 'progress.wait.teamClone',
  teamArchive: 'progress.wait.teamArchive',
  teamUnarchive: 'progress.wait.teamUnarchive',
  replication: 'progress.wait.replication',
  graphBudget: 'progress.wait.graphBudget',
  channelCreation: 'progress.wait.channelCreation',
  channelFiles: 'progress.wait.channelFiles',
};

/** The headline words that differ with what the request does (an archive is not a new team). */
const KIND_HEADLINES: Record<JobKind, { done: MessageKey; failed: MessageKey; working: MessageKey }> = {
  provisioning: { done: 'progress.ready', failed: 'progress.failed', working: 'progress.creating' },
  archive: { done: 'progress.archived', failed: 'progress.archiveFailed', working: 'progress.archiving' },
  unarchive: {
    done: 'progress.unarchived',
    failed: 'progress.unarchiveFailed',
    working: 'progress.unarchiving',
  },
};

/**
 * The words of what a request does, where a card names its template (in the reader's language): an
 * archive has none.
 */
export function kindLabel(kind: JobKind | undefined, template: TemplateName, reader: Reader): string {
  if (kind === 'archive') return say(reader, 'kind.archive');
  if (kind === 'unarchive') return say(reader, 'kind.unarchive');
  return templateNameIn(template, reader) || say(reader, 'approval.teamRequest');
}

function headline(data: ProgressCardData, reader: Reader): { text: string; color: string } {
  const approval = data.approval;
  const words = KIND_HEADLINES[data.kind ?? 'provisioning'];
  switch (data.status) {
    case 'completed':
      return { text: say(reader, words.done), color: 'good' };
    case 'failed':
      if (data.kind && data.kind !== 'provisioning')
        return { text: say(reader, words.failed), color: 'attention' };
      if (approval?.expired) return { text: say(reader, 'progress.expired'), color: 'attention' };
      if (approval?.status === 'withdrawn')
        return { text: say(reader, 'progress.withdrawn'), color: 'default' };
      return approval?.status === 'rejected'
        ? { text: say(reader, 'progress.rejected'), color: 'attention' }
        : { text: say(reader, 'progress.failed'), color: 'attention' };
    case 'active': {
      // A reason this bot does not know (a newer server's) reads as the plain "in progress".
      const waiting = data.waitingFor ? WAIT_HEADLINES[data.waitingFor] : undefined;
      return { text: say(reader, waiting ?? words.working), color: 'accent' };
    }
    case 'delayed':
      return { text: say(reader, 'progress.delayed'), color: 'warning' };
    case 'paused':
      return { text: say(reader, 'progress.paused'), color: 'warning' };
    case 'waiting':
      if (approval?.status === 'pending') {
        const who = namesIn(reader, approval.approverNames);
        if (!who) return { text: say(reader, 'progress.waiting'), color: 'warning' };
        const words = approvalWords(approval.approverNames.length, approval.mode ?? 'any');
        const names = clip(who, 200);
        if (approval.stage) {
          const { number, count, name } = approval.stage;
          const stage = clip(name, 80);
          const text = say(reader, `progress.stageWaitingFor${words}`, { number, count, stage, names });
          return { text, color: 'warning' };
        }
        return { text: say(reader, `progress.waitingFor${words}`, { names }), color: 'warning' };
      }
      return { text: say(reader, 'progress.queued'), color: 'default' };
  }
}

/**
 * Why a request failed, for the requester: an expiry in their own words (the job's reason is the
 * API's English), else the job's reason.
 */
export function failure(data: ProgressCardData, reader: Reader): string {
  if (data.approval?.status === 'withdrawn') return say(reader, 'progress.withdrawnReason');
  const expired = data.approval?.expired;
  if (expired) {
    return say(reader, 'progress.expiredReason', {
      stage: clip(expired.stage, 80),
      days: expired.days ?? '?',
    });
  }
  return plainSentence(data.failedReason ?? say(reader, 'progress.failedReason'));
}

/** "Approved by Adele Vance" / "Rejected by …": who decided, for the requester. */
function decisionLine(decision: ProgressCardData['decision'], reader: Reader): string {
  if (!decision) return '';
  const key = decision.outcome === 'approved' ? 'progress.approvedBy' : 'progress.rejectedBy';
  return say(reader, key, { name: clip(decision.by, 120) });
}

/** What the card says of a label the team was made without: missing, or applied since by an owner. */
function labelLine(data: ProgressCardData, reader: Reader): string {
  if (!data.labelMissing) return '';
  if (!data.labelApplied) return say(reader, 'progress.labelMissing');
  return say(reader, 'label.applied', { team: clip(data.teamName, TEAM_NAME_MAX_LENGTH) });
}

/**
 * The card that follows a request from submission to "Open team" (or its failure and "Try
 * again"), in the reader's language, with times in their time zone.
 */
export function renderProgressCard(
  data: ProgressCardData,
  reader: Reader = DEFAULT_READER,
): AdaptiveCardAttachment {
  const progress = Math.min(100, Math.max(0, Math.round(data.progress)));
  const title = headline(data, reader);
  // A withdrawal is the requester's own choice, not a failure: nothing of it is drawn in red.
  const withdrawn = data.approval?.status === 'withdrawn';
  return renderCard('progressCard', progressCardTemplate, {
    jobId: data.jobId,
    teamName: clip(data.teamName, TEAM_NAME_MAX_LENGTH),
    templateName: clip(
      kindLabel(data.kind, { name: data.templateName, translations: data.templateTranslations }, reader),
      120,
    ),
    pictureUrl: cardPictureUrl(data.pictureUrl),
    status: data.status,
    // Only a team request has a form to fill in again.
    retryable: isRetryable(data),
    withdrawable: isWithdrawable(data) && !data.confirmWithdraw,
    confirming: isWithdrawable(data) && data.confirmWithdraw === true,
    problem: data.problem ?? '',
    retried: data.status === 'failed' && data.retried ? say(reader, 'progress.retried') : '',
    headline: title.text,
    // A semantic container style: Teams gives each a background and text colour readable in the
    // light, dark and high-contrast themes, where pale coloured text was not.
    headlineStyle: title.color === 'default' ? 'emphasis' : title.color,
    progress,
    // A picture with its text equivalent: characters (■□) were spelled out one by one by screen
    // readers, and container backgrounds vanish in the dark and high-contrast themes.
    bar: {
      url: progressBarImage(progress, data.status === 'failed' && !withdrawn),
      text: say(reader, 'progress.bar', { progress: percentFor(reader, progress) }),
    },
    updated: say(reader, 'progress.updated', {
      progress: percentFor(reader, progress),
      when: dateTimeFor(reader, data.updatedAt),
    }),
    // The one line of a client that draws no card: "<team name>: <headline> (<percent>)", its
    // headline with no colon of its own, so that the line reads as one name and one state.
    fallbackHeadline: title.text.replace(/\s*:\s+/g, ', '),
    percent: percentFor(reader, progress),
    // A step that did not apply (nothing to do, or never run after a failure) is not shown.
    steps: data.steps
      .filter((step) => step.state !== 'skipped')
      .slice(0, 12)
      .map((step) => stepLine(withdrawn ? notRed(step) : step, reader)),
    labels: {
      latest: say(reader, 'progress.latest'),
      openTeam: say(reader, 'action.openTeam'),
      tryAgain: say(reader, 'action.tryAgain'),
      refresh: say(reader, 'action.refresh'),
      withdraw: say(reader, 'action.withdraw'),
      confirmWithdraw: say(reader, 'progress.confirmWithdraw', {
        team: markdownText(clip(data.teamName, 264)),
      }),
      yesWithdraw: say(reader, 'action.confirmWithdraw'),
      cancel: say(reader, 'action.cancel'),
      applyLabel: say(reader, 'action.applyLabel'),
    },
    labelMissing: labelLine(data, reader),
    labelTeamId: data.labelMissing?.byOwner && !data.labelApplied ? data.labelMissing.teamId : '',
    // The job's log is the API's record, written in English: shown to English readers only, since the
    // steps, the decision and the failure above already say the same in the reader's language.
    logLines:
      reader.language === 'en'
        ? data.log.slice(-PROGRESS_LOG_LINES).map((line) => clip(withoutIds(line), 300))
        : [],
    decision: decisionLine(data.decision, reader),
    decisionMessage: data.decision?.message
      ? say(reader, 'quoted', { text: clip(data.decision.message, 1000) })
      : '',
    unreachable: data.unreachableApprovers.length
      ? say(reader, 'progress.unreachable', { names: clip(namesIn(reader, data.unreachableApprovers), 300) })
      : '',
    webUrl: teamLink(data.status, data.webUrl),
    failedColor: withdrawn ? 'default' : 'attention',
    // A rejection's reason is the approver's words, shown with their name above.
    failedReason:
      data.status === 'failed' && data.decision?.outcome !== 'rejected' ? failure(data, reader) : '',
  });
}
