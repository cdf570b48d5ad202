import type { Job } from '../../client';
import { renderApprovalDecidedCard } from './approvalDecidedCard';
import { decidedCardData, decisionOf } from './approvalRequest';
import type { BotLog } from '../botLog';
import type { Messenger } from '../messenger';
import type { ReachState } from '../reachState';
import type { RequestProgress } from '../shared/requestLinks';
import type { ApprovalState } from './approvalState';
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
 * Shows the decision on every approver's card (except `skip`'s, answered in place) and moves the
 * requester's progress card on. The decision comes from the record, else from the job.
 */
export async function showDecision(
  deps: DecisionShownDependencies,
  job: (jobId: string) => Promise<Job>,
  approvalId: string,
  skip?: string,
): Promise<void> {
  const record = await deps.approvalState.approval(approvalId);
  if (!record) return;
  let decision = record.decision;
  if (!decision) {
    decision = decisionOf(await job(record.jobId), approvalId);
    if (!decision) return;
    await deps.approvalState.saveApproval(approvalId, { ...record, decision });
  }
  for (const [approverId, posted] of Object.entries(record.cards)) {
    if (approverId === skip) continue;
    const card = renderApprovalDecidedCard(
      decidedCardData(record.request, decision),
      await readerOfApprover(deps.reachState, approverId),
    );
    await deps.messenger.update(posted, card).catch((error: unknown) => {
      deps.log.warn({ err: error, approvalId }, 'could not update an approval card');
    });
  }
  // Not awaited: an approver's click does not wait for the requester's read.
  deps.progress.refreshSoon(record.jobId);
}
