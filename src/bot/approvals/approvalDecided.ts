import type { Job } from '../../client';
import { renderApprovalDecidedCard } from './approvalDecidedCard';
import { decidedCardData, decisionOf, teamNames } from './approvalRequest';
import type { BotLog } from '../botLog';
import type { Messenger } from '../messenger';
import type { ReachState } from '../reachState';
import type { RequestProgress } from '../shared/requestLinks';
import { type ApprovalState, cardsOfApprover } from './approvalState';
import { readerOfApprover } from '../shared/approverReader';

/** What showing a decision on the approvers' cards needs (the approval conversation has it all). */
export interface DecisionShownDependencies {
  approvalState: ApprovalState;
  reachState: ReachState;
  messenger: Messenger;
  progress: Pick<RequestProgress, 'refreshSoon'>;
  log: BotLog;
}

/**
 * Shows the decision on every card of every approver (all their copies; but the message `skip`,
 * answered in place) and moves the requester's progress card on. The decision comes from the
 * record, else from the job, with the names the job has then (an approver may have amended it).
 */
export async function showDecision(
  deps: DecisionShownDependencies,
  job: (jobId: string) => Promise<Job>,
  approvalId: string,
  skip?: string,
): Promise<void> {
  let record = await deps.approvalState.approval(approvalId);
  if (!record) return;
  let decision = record.decision;
  if (!decision) {
    const current = await job(record.jobId);
    decision = decisionOf(current, approvalId);
    if (!decision) return;
    // Re-read: a decision taken on a card meanwhile wrote its own (with an amended name).
    record = (await deps.approvalState.approval(approvalId)) ?? record;
    record = {
      ...record,
      request: { ...record.request, ...teamNames(current) },
      decision: record.decision ?? decision,
    };
    await deps.approvalState.saveApproval(approvalId, record);
  }
  for (const approverId of Object.keys(record.cards)) {
    const card = renderApprovalDecidedCard(
      decidedCardData(record.request, record.decision ?? decision),
      await readerOfApprover(deps.reachState, approverId),
    );
    for (const posted of cardsOfApprover(record, approverId)) {
      if (posted.activityId === skip) continue;
      await deps.messenger.update(posted, card).catch((error: unknown) => {
        deps.log.warn({ err: error, approvalId }, 'could not update an approval card');
      });
    }
  }
  // Not awaited: an approver's click does not wait for the requester's read.
  deps.progress.refreshSoon(record.jobId);
}
