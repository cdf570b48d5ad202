import { renderCard, type AdaptiveCardAttachment } from './adaptiveCard';
import { cardPictureUrl } from './cardPicture';
import { cardDateTime, clip, listOfNames, markdownText, shortQuotes } from './cardText';

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
  template: { name: string; pictureUrl: string | null };
  requester: { name: string; mail: string | null };
  approvers: readonly Approver[];
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
  /**
   * With a staged policy: which stage this is, the earlier stages' decisions and comments, and why
   * the card arrived (an escalation) or came back (a reminder), one line each.
   */
  stageNotes?: readonly string[];
}

/** The refresh clause every approver's copy carries, so each sees the request's live state. */
export function approvalRefreshUserIds(approvers: readonly Approver[]): string[] {
  return approvers
    .map((approver) => approver.teamsUserId)
    .filter((id): id is string => id !== null && id !== '')
    .slice(0, MAX_REFRESH_USERS);
}

/** Names of people as one clipped line. */
export function namesLine(names: readonly string[], max = 400): string {
  return clip(listOfNames(names), max);
}

/** The card an approver gets: the request, an optional comment and Approve / Reject. */
export function renderApprovalCard(data: ApprovalCardData): AdaptiveCardAttachment {
  const mail = data.requester.mail?.trim();
  return renderCard('approvalCard.json', {
    approvalId: data.approvalId,
    approverUserIds: approvalRefreshUserIds(data.approvers),
    teamName: clip(data.teamName, 264),
    description: clip(data.description, 1024),
    template: { name: clip(data.template.name, 120), pictureUrl: cardPictureUrl(data.template.pictureUrl) },
    requester: { name: clip(data.requester.name, 120) },
    requestedBy: clip(mail ? `${data.requester.name} (${mail})` : data.requester.name, 400),
    requestedAt: cardDateTime(data.requestedAt),
    privacy: data.privacy === 'public' ? 'Public' : 'Private',
    owners: namesLine(data.owners),
    members: namesLine(data.members),
    approvers: namesLine(data.approvers.map((approver) => approver.name)),
    requestedName: clip(data.amendedName ?? data.requestedName ?? '', 264),
    finalName: finalNameLine(data),
    stageNotes: (data.stageNotes ?? []).slice(0, 12).map((note) => clip(note, 600)),
    problems: (data.problems ?? [])
      .slice(0, 5)
      .map((problem) => markdownText(clip(shortQuotes(problem), 300))),
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

function finalNameLine(data: ApprovalCardData): string {
  const typed = data.amendedName?.trim();
  if (!typed || typed === data.requestedName) return `Final name: ${clip(data.teamName, 264)}`;
  const final = amendedFinalName(data.teamName, data.requestedName ?? '', typed);
  return final
    ? `Final name: ${clip(final, 264)}`
    : "Final name: the template's naming convention applies to the name you type.";
}
