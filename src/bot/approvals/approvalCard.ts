import { approvalWords } from '../shared/approvalWords';
import { TEAM_NAME_MAX_LENGTH } from '../../client';
import { renderCard, type AdaptiveCardAttachment } from '../cards/adaptiveCard';
import { cardPictureUrl } from '../cards/cardPicture';
import { clip, markdownText, shortQuotes, teamsDateTime } from '../cards/cardText';
import { DEFAULT_READER, namesIn, type Reader, say } from '../i18n/catalog';
import { type StageNote, stageNoteText } from './stageNotes';
import { type TemplateName, templateNameIn } from '../shared/templateTexts';
import approvalCardTemplate from './approvalCard.json';

/** Teams refreshes a card automatically for at most this many users. */
export const MAX_REFRESH_USERS = 60;

/** One member of a request's approval team. */
export interface Approver {
  /** Display name, shown on the card. */
  name: string;
  /**
   * The approver's Teams user id (MRI, `29:…`) as the bot knows it from their 1:1 conversation;
   * Teams refreshes the card automatically for the ids listed. Null when not known yet.
   */
  teamsUserId: string | null;
}

/** The facts of an approval request, shared by the three approval cards. */
export interface ApprovalRequestFacts {
  approvalId: string;
  /** The final team name, after the naming convention. */
  teamName: string;
  /** The name as typed, before the convention (what an approver may amend). */
  requestedName?: string;
  /** The template's own name and, as the request recorded them, its names in other languages. */
  template: TemplateName & { pictureUrl: string | null };
  requester: { name: string; mail: string | null };
  approvers: readonly Approver[];
  /** Whether any one of the approvers settles the stage or each must approve (`any` when absent). */
  mode?: 'any' | 'all';
}

/** What the approver's card shows. */
export interface ApprovalCardData extends ApprovalRequestFacts {
  description: string;
  /** ISO 8601 time of the request. */
  requestedAt: string;
  privacy: 'public' | 'private';
  /** Display names of the owners and members asked for. */
  owners: readonly string[];
  members: readonly string[];
  /** The name the approver typed on the card ("Check name" pressed); absent for the requested one. */
  amendedName?: string;
  /** Why the approver's amendment was refused. */
  problems?: readonly string[];
  /** The comment the approver typed, kept when the card comes back with a problem to fix. */
  comment?: string;
  /**
   * With a staged policy: which stage this is, the earlier stages' decisions and comments, and why
   * the card arrived (an escalation) or came back (a reminder), one line each, drawn in the reader's
   * language (a string: a line stored as written by an earlier version of the bot).
   */
  stageNotes?: ReadonlyArray<StageNote | string>;
}

/** The refresh clause every approver's copy carries, so each sees the request's live state. */
export function approvalRefreshUserIds(approvers: readonly Approver[]): string[] {
  return approvers
    .map((approver) => approver.teamsUserId)
    .filter((id): id is string => id !== null && id !== '')
    .slice(0, MAX_REFRESH_USERS);
}

/** Names of people as one clipped line, joined as the reader writes lists. */
export function namesLine(names: readonly string[], reader: Reader, max = 400): string {
  return clip(namesIn(reader, names), max);
}

/** The request's names as the approval cards show them, with the reader's words where one is missing. */
export function requestNames(data: ApprovalRequestFacts, reader: Reader) {
  return {
    teamName: clip(data.teamName, TEAM_NAME_MAX_LENGTH),
    templateName: clip(templateNameIn(data.template, reader) || say(reader, 'approval.teamRequest'), 120),
    requesterName: clip(data.requester.name || say(reader, 'approval.someone'), 120),
    approvers: namesLine(
      data.approvers.map((approver) => approver.name),
      reader,
    ),
  };
}

/** Who decides: one approver by name; of several, whether any one of them settles it or each must approve. */
export function approversLine(data: ApprovalRequestFacts, reader: Reader): string {
  const names = namesLine(
    data.approvers.map((approver) => approver.name),
    reader,
  );
  const words = approvalWords(data.approvers.length, data.mode ?? 'any');
  return words === 'One' ? names : say(reader, `approval.approvers${words}`, { names });
}

/** The labels the three approval cards share. */
export function approvalLabels(reader: Reader) {
  return {
    refresh: say(reader, 'action.refresh'),
    template: say(reader, 'fact.template'),
    requestedBy: say(reader, 'fact.requestedBy'),
    approvers: say(reader, 'fact.approvers'),
  };
}

/** The card an approver gets: the request, an optional comment and Approve / Reject. */
export function renderApprovalCard(
  data: ApprovalCardData,
  reader: Reader = DEFAULT_READER,
): AdaptiveCardAttachment {
  const mail = data.requester.mail?.trim();
  const names = requestNames(data, reader);
  const requester = names.requesterName;
  const team = names.teamName;
  return renderCard('approvalCard', approvalCardTemplate, {
    approvalId: data.approvalId,
    approverUserIds: approvalRefreshUserIds(data.approvers),
    teamName: team,
    description: clip(data.description, 1024),
    template: { name: names.templateName, pictureUrl: cardPictureUrl(data.template.pictureUrl) },
    requestedBy: clip(mail ? `${requester} (${mail})` : requester, 400),
    privacy: say(reader, data.privacy === 'public' ? 'privacy.public' : 'privacy.private'),
    owners: namesLine(data.owners, reader),
    members: namesLine(data.members, reader),
    approvers: approversLine(data, reader),
    // What the approver typed, whole (up to a sane bound), so a name said to be too long can be fixed.
    requestedName: clip(data.amendedName ?? data.requestedName ?? '', 1000),
    comment: clip(data.comment ?? '', 4000),
    finalName: finalNameLine(data, reader),
    stageNotes: (data.stageNotes ?? []).slice(0, 12).map((note) => clip(stageNoteText(note, reader), 600)),
    problems: (data.problems ?? [])
      .slice(0, 5)
      .map((problem) => markdownText(clip(shortQuotes(problem), 300))),
    labels: {
      ...approvalLabels(reader),
      fallback: say(reader, 'approval.fallback', { requester, team }),
      title: say(reader, 'approval.title'),
      asks: say(reader, 'approval.asks', { requester, team }),
      teamName: say(reader, 'fact.teamName'),
      privacy: say(reader, 'fact.privacy'),
      owners: say(reader, 'fact.owners'),
      members: say(reader, 'fact.members'),
      requestedAt: say(reader, 'approval.requestedAt', teamsDateTime(data.requestedAt)),
      amend: say(reader, 'approval.amend'),
      comment: say(reader, 'approval.comment', { requester }),
      commentPlaceholder: say(reader, 'approval.commentPlaceholder'),
      approve: say(reader, 'action.approve'),
      reject: say(reader, 'action.reject'),
      checkName: say(reader, 'action.checkName'),
    },
  });
}

/**
 * The name a request ends up with if the approver renames it: the conventions wrap the typed name
 * (a prefix, a suffix), so the same wrapping is put around the new name; the server decides.
 */
export function amendedFinalName(finalName: string, requestedName: string, newName: string): string | null {
  const at = requestedName ? finalName.indexOf(requestedName) : -1;
  if (at < 0) return null;
  return `${finalName.slice(0, at)}${newName}${finalName.slice(at + requestedName.length)}`;
}

function finalNameLine(data: ApprovalCardData, reader: Reader): string {
  const typed = data.amendedName?.trim();
  const final =
    !typed || typed === data.requestedName
      ? data.teamName
      : amendedFinalName(data.teamName, data.requestedName ?? '', typed);
  return final
    ? say(reader, 'approval.finalName', { name: clip(final, TEAM_NAME_MAX_LENGTH) })
    : say(reader, 'approval.finalNameConvention');
}
