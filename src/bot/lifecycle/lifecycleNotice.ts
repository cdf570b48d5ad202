import { type InactivityCardData, renderInactivityCard } from './inactivityCard';
import { type RenewalCardData, renderRenewalCard } from './renewalCard';
import type { AdaptiveCardAttachment } from '../cards/adaptiveCard';
import { type CardViewer, withRefresh } from '../cards/cardRefresh';
import type { NoticeKind, NoticeRecord } from './lifecycleRecords';

type Json = Record<string, unknown>;

const object = (value: unknown): Json =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** What a lifecycle webhook delivery says, read field by field (the payload is Steward's, but untyped here). */
export interface LifecycleNotice {
  teamId: string;
  teamName: string;
  /** `notify` or `archive` (inactivity), `archive`/`delete`/`none` (expiry). */
  outcome: string;
  expiresOn: string;
  lastActivityDate: string;
  noticeDays: number | null;
  ownerIds: string[];
}

/** The notice of a `team_expiring` or `team_inactive` delivery; undefined when it names no team. */
export function noticeOf(payload: Json): LifecycleNotice | undefined {
  const team = object(payload.team);
  const lifecycle = object(payload.lifecycle);
  const teamId = text(team.id);
  if (!teamId) return undefined;
  const day = (value: unknown) => (DAY.test(text(value)) ? text(value) : '');
  return {
    teamId,
    teamName: text(team.displayName) || teamId,
    outcome: text(lifecycle.outcome),
    expiresOn: day(lifecycle.expiresOn),
    lastActivityDate: day(lifecycle.lastActivityDate),
    noticeDays: typeof lifecycle.noticeDays === 'number' ? lifecycle.noticeDays : null,
    ownerIds: (Array.isArray(lifecycle.ownerIds) ? lifecycle.ownerIds : []).filter(
      (id): id is string => typeof id === 'string' && id !== '',
    ),
  };
}

/** The team and who acted, of a `team_renewed`, `team_kept_active` or `team_archived` delivery. */
export function teamEventOf(payload: Json): {
  teamId: string;
  by: string;
  expiresOn: string;
  lastActivityDate: string;
} {
  const lifecycle = object(payload.lifecycle);
  const day = (value: unknown) => (DAY.test(text(value)) ? text(value) : '');
  return {
    teamId: text(object(payload.team).id),
    by: text(object(payload.requester).displayName),
    expiresOn: day(lifecycle.expiresOn),
    lastActivityDate: day(lifecycle.lastActivityDate),
  };
}

/** A new record for a notice about `about` (an expiry date, a last-activity day). */
export function newRecord(
  notice: LifecycleNotice,
  about: string,
  policy: Partial<NoticeRecord> = {},
): NoticeRecord {
  return {
    teamId: notice.teamId,
    teamName: notice.teamName,
    about,
    renewDays: policy.renewDays ?? null,
    onExpiry: policy.onExpiry ?? null,
    cards: [],
    posted: [],
    declined: {},
    answer: null,
  };
}

/**
 * The card of a notice as `ownerId` sees it now (with `problem` when their answer was refused, and
 * asking them to confirm when they pressed Archive: `confirmArchive`).
 */
export function noticeCard(
  kind: NoticeKind,
  record: NoticeRecord,
  ownerId: string,
  viewer: CardViewer,
  problem?: string,
  confirmArchive = false,
): AdaptiveCardAttachment {
  const { reader } = viewer;
  const answer = record.answer;
  const refresh = { card: kind, teamId: record.teamId };
  if (kind === 'inactivity') {
    const data: InactivityCardData = {
      teamId: record.teamId,
      teamName: record.teamName,
      lastActivityDate: record.about,
      answer,
      problem,
      confirmArchive,
    };
    return withRefresh(renderInactivityCard(data, reader), refresh, viewer);
  }
  const declined = record.declined[ownerId];
  const data: RenewalCardData = {
    teamId: record.teamId,
    teamName: record.teamName,
    expiresOn: answer?.kind === 'renewed' ? answer.expiresOn : record.about,
    renewDays: record.renewDays,
    onExpiry: record.onExpiry,
    answer,
    ...(declined === undefined ? {} : { declined: { otherOwners: declined } }),
    problem,
    confirmArchive,
  };
  return withRefresh(renderRenewalCard(data, reader), refresh, viewer);
}
