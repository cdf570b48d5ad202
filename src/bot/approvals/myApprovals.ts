import { MessageFactory, type TurnContext, TurnContext as Turn } from 'botbuilder';
import type { StewardClient } from '../../client';
import { cardReply, readerOfTurn, type Reply } from '../conversations/reply';
import type { ReachState } from '../reachState';
import { teamPeople } from '../shared/peopleNames';
import { renderApprovalCard } from './approvalCard';
import { approvalCardData, approversOf } from './approvalRequest';
import { type ApprovalState, withNewestCard } from './approvalState';
import { renderMyApprovalsCard } from './myApprovalsCard';

/** Approval cards "my approvals" posts at most (the oldest first); the list says when there are more. */
const MY_APPROVALS_SHOWN = 10;

/**
 * "My approvals": the approval requests waiting for the person (`GET /me/approvals`, as them),
 * each posted again as its approval card in this chat (a reloaded page or a lost chat loses
 * none), which becomes their newest card in the approval's record, the earlier one kept as a copy,
 * so the decision is drawn on both; then the list, saying how many wait.
 */
export async function listMyApprovals(
  context: TurnContext,
  api: StewardClient,
  deps: { approvalState: ApprovalState; reachState: ReachState },
): Promise<Reply> {
  const reader = readerOfTurn(context);
  const me = context.activity.from.aadObjectId ?? '';
  const pending = await api.getMyApprovals({ top: MY_APPROVALS_SHOWN });
  const reference = Turn.getConversationReference(context.activity);
  for (const item of pending.value) {
    const approvers = approversOf(item.job, item.id);
    const request = approvalCardData(
      item.job,
      await teamsIds(
        deps.reachState,
        approvers.map((a) => a.id),
      ),
      teamPeople(item.job),
      item.id,
    );
    const sent = await context.sendActivity(MessageFactory.attachment(renderApprovalCard(request, reader)));
    if (!sent?.id || !me) continue;
    const current = await deps.approvalState.approval(item.id);
    const record = {
      jobId: item.job.id,
      cards: {},
      ...current,
      request,
      decision: current?.decision ?? null,
    };
    await deps.approvalState.saveApproval(
      item.id,
      withNewestCard(record, me, { reference, activityId: sent.id }),
    );
  }
  const total = pending['@odata.count'] ?? pending.value.length;
  return cardReply(renderMyApprovalsCard({ approvals: pending.value, total }, reader));
}

/** The Teams ids of the approvers `ids` the bot has reached (those it has not are left out). */
export async function teamsIds(
  reachState: Pick<ReachState, 'user'>,
  ids: readonly string[],
): Promise<Map<string, string>> {
  const known = new Map<string, string>();
  for (const id of ids) {
    const user = await reachState.user(id);
    if (user?.teamsUserId) known.set(id, user.teamsUserId);
  }
  return known;
}
