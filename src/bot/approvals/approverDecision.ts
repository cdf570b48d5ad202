import { TEAM_NAME_MAX_LENGTH, type StewardClient } from '../../client';
import { detailMessages, isStatus } from '../apiFailures';
import { cardReply, type Reply } from '../conversations/reply';
import { type Reader, say } from '../i18n/catalog';
import { teamNameProblem, tooLong } from '../shared/nameProblems';
import { amendedFinalName, renderApprovalCard } from './approvalCard';
import { renderApprovalDecidedCard } from './approvalDecidedCard';
import { renderApprovalReadOnlyCard } from './approvalReadOnlyCard';
import { approvalCardData, decidedCardData, decisionOf } from './approvalRequest';
import type { ApprovalRecord } from './approvalState';
import type { ApprovalDecisionData } from './approvalVerbData';
import { teamPeople } from '../shared/peopleNames';

/**
 * An approver's decision as the card takes it: the new name and comment checked in their words
 * before anything is sent, and the cards of the API's refusals.
 */

/** The new name an approver typed on the card, when it differs from the one requested. */
export function amendment(
  record: ApprovalRecord | undefined,
  data: ApprovalDecisionData,
): string | undefined {
  const typed = typeof data.teamName === 'string' ? data.teamName.trim() : '';
  if (!typed || !record) return undefined;
  return typed !== (record.request.requestedName ?? typed) ? typed : undefined;
}

/** The longest comment an approver may write (the API's limit on a decision's message). */
const COMMENT_MAX_LENGTH = 2000;

/**
 * What is wrong with an approver's new name (the final name it makes, after the template's
 * convention) and comment, in the approver's words, before anything is sent.
 */
export function decisionProblems(
  record: ApprovalRecord,
  rename: string | undefined,
  comment: string | undefined,
  reader: Reader,
): string[] {
  const problems: string[] = [];
  if (rename) {
    const { teamName, requestedName } = record.request;
    const final = amendedFinalName(teamName, requestedName ?? '', rename) ?? rename;
    // The convention's additions count against Graph's limit: the typed name gets the rest.
    const added = Array.from(final).length - Array.from(rename).length;
    const problem =
      teamNameProblem(rename, reader, TEAM_NAME_MAX_LENGTH - added) ?? teamNameProblem(final, reader);
    if (problem) problems.push(problem);
  }
  if (comment && comment.length > COMMENT_MAX_LENGTH)
    problems.push(tooLong(reader, 'problem.commentLong', comment.length, COMMENT_MAX_LENGTH));
  return problems;
}

/**
 * The card of a decision the API refused: the approval card with the API's words on a refused
 * new name (400), the read-only card to someone who is not an approver (403); undefined otherwise.
 */
export function refusedDecision(
  error: unknown,
  record: ApprovalRecord | undefined,
  rename: string | undefined,
  reader: Reader,
): Reply | undefined {
  if (isStatus(error, 400) && record && rename) {
    const problems = detailMessages(error.details, reader);
    return cardReply(
      renderApprovalCard(
        {
          ...record.request,
          amendedName: rename,
          problems: problems.length > 0 ? problems : [say(reader, 'problem.badNewName')],
        },
        reader,
      ),
      true,
    );
  }
  if (isStatus(error, 403) && record) {
    const decision = record.decision;
    return cardReply(
      renderApprovalReadOnlyCard(
        {
          ...record.request,
          decision: decision ? { status: decision.outcome, decidedBy: decision.by } : { status: 'pending' },
          reason: 'notApprover',
        },
        reader,
      ),
      true,
    );
  }
  return undefined;
}

/** A second click, or a click after someone else decided: the decided card, never an error. */
export async function alreadyDecided(
  api: StewardClient,
  approvalId: string,
  record: ApprovalRecord | undefined,
  reader: Reader,
): Promise<Reply> {
  let request = record?.request;
  let decision = record?.decision ?? null;
  if (record && !decision) {
    const job = await api.getJob(record.jobId);
    decision = decisionOf(job, approvalId);
    request ??= approvalCardData(job, new Map(), teamPeople(job), approvalId);
  }
  if (!request || !decision) return { kind: 'text', text: say(reader, 'approval.alreadyDecided') };
  return cardReply(renderApprovalDecidedCard(decidedCardData(request, decision), reader), true);
}
