import type { Job } from '../../client';
import { renderApprovalCard } from './approvalCard';
import { say } from '../i18n/catalog';
import { decisionOf } from './approvalRequest';
import { stageNotes } from './approvalStages';
import type { BotLog } from '../botLog';
import type { Messenger } from '../messenger';
import type { ReachState } from '../reachState';
import { type ApprovalState, cardsOfApprover } from './approvalState';
import { readerOfApprover } from '../shared/approverReader';

/** What a stage's reminder needs (the approval conversation has it all). */
export interface ReminderDependencies {
  approvalState: ApprovalState;
  reachState: ReachState;
  messenger: Messenger;
  log: BotLog;
}

/**
 * A stage's reminder: each undecided approver's card shows it, and a short nudge follows in their
 * chat (an updated card notifies nobody). Nothing happens once the stage is decided; a decision
 * that lands while the cards are redrawn is shown on them afterwards (`showDecision`), since
 * Steward's deliveries come in any order and a late reminder must not bring back Approve / Reject.
 */
export async function remindApprovers(
  deps: ReminderDependencies,
  job: () => Promise<Job>,
  approvalId: string,
  reminded: readonly string[],
  showDecision: () => Promise<void>,
): Promise<void> {
  const current = await job();
  const record = await deps.approvalState.approval(approvalId);
  if (!record || record.decision || decisionOf(current, approvalId)) return;
  const request = { ...record.request, stageNotes: stageNotes(current, approvalId) };
  await deps.approvalState.saveApproval(approvalId, { ...record, request });
  for (const approverId of reminded) {
    const [posted, ...earlier] = cardsOfApprover(record, approverId);
    if (!posted) continue;
    // In the approver's language, as their approval card was.
    const reader = await readerOfApprover(deps.reachState, approverId);
    const nudge = say(reader, 'approval.nudge', {
      requester: request.requester.name || say(reader, 'approval.someone'),
      team: request.teamName,
    });
    const card = renderApprovalCard(request, reader);
    for (const copy of earlier) await deps.messenger.update(copy, card).catch(() => undefined);
    await deps.messenger
      .update(posted, card)
      .then(() => deps.messenger.say(posted.reference, nudge))
      .catch((error: unknown) => {
        deps.log.warn({ err: error, approvalId }, 'could not remind an approver');
      });
  }
  if (decisionOf(await job(), approvalId)) await showDecision();
}
