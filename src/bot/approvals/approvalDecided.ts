import type { Job } from '../../client';
import { renderApprovalDecidedCard } from '../cards';
import type { ApprovalDependencies } from './approvals';
import { decidedCardData, decisionOf } from './approvalRequest';
import { readerOfApprover } from './approverReader';

/**
 * Shows the decision on every approver's card (except `skip`'s, answered in place) and moves the
 * requester's progress card on. The decision comes from the record, else from the job.
 */
export async function showDecision(
  deps: Pick<ApprovalDependencies, 'state' | 'messenger' | 'progress' | 'log'>,
  job: (jobId: string) => Promise<Job>,
  approvalId: string,
  skip?: string,
): Promise<void> {
  const record = await deps.state.approval(approvalId);
  if (!record) return;
  let decision = record.decision;
  if (!decision) {
    decision = decisionOf(await job(record.jobId), approvalId);
    if (!decision) return;
    await deps.state.saveApproval(approvalId, { ...record, decision });
  }
  for (const [approverId, posted] of Object.entries(record.cards)) {
    if (approverId === skip) continue;
    const card = renderApprovalDecidedCard(
      decidedCardData(record.request, decision),
      await readerOfApprover(deps.state, approverId),
    );
    await deps.messenger.update(posted, card).catch((error: unknown) => {
      deps.log.warn({ err: error, approvalId }, 'could not update an approval card');
    });
  }
  // Not awaited: an approver's click does not wait for the requester's read.
  deps.progress.refreshSoon(record.jobId);
}
