import type { Job } from '../../client';
import { renderApprovalCard } from '../cards';
import { say } from '../i18n/catalog';
import type { ApprovalDependencies } from './approvals';
import { approvalCardData } from './approvalRequest';
import { readerOfApprover } from './approverReader';
import { teamPeople } from './peopleNames';

/**
 * A stage's reminder: each undecided approver's card shows it, and a short nudge follows in their
 * chat (an updated card notifies nobody). Nothing happens once the stage is decided.
 */
export async function remindApprovers(
  deps: Pick<ApprovalDependencies, 'state' | 'messenger' | 'log'>,
  job: () => Promise<Job>,
  approvalId: string,
  reminded: readonly string[],
): Promise<void> {
  const record = await deps.state.approval(approvalId);
  if (!record || record.decision) return;
  const current = await job();
  const notes = approvalCardData(current, new Map(), teamPeople(current), approvalId).stageNotes;
  const request = { ...record.request, stageNotes: notes };
  await deps.state.saveApproval(approvalId, { ...record, request });
  for (const approverId of reminded) {
    const posted = record.cards[approverId];
    if (!posted) continue;
    // In the approver's language, as their approval card was.
    const reader = await readerOfApprover(deps.state, approverId);
    const nudge = say(reader, 'approval.nudge', {
      requester: request.requester.name,
      team: request.teamName,
    });
    await deps.messenger
      .update(posted, renderApprovalCard(request, reader))
      .then(() => deps.messenger.say(posted.reference, nudge))
      .catch((error: unknown) => {
        deps.log.warn({ err: error, approvalId }, 'could not remind an approver');
      });
  }
}
