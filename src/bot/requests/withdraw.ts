import type { TurnContext } from 'botbuilder';
import type { Job, StewardClient } from '../../client';
import { isStatus } from '../apiFailures';
import type { BotLog } from '../botLog';
import { isWithdrawable, progressCardData } from './progressCardData';
import { renderMyRequestsCard } from './myRequestsCard';
import { summarizeJob } from '../shared/jobSummary';
import type { WithdrawData } from './requestVerbData';
import { markdownText } from '../cards/cardText';
import { say } from '../i18n/catalog';
import type { ApproverCards } from '../shared/requestLinks';
import type { ProgressTracker } from './progress';
import { cardReply, readerOfTurn, type Reply } from '../conversations/reply';

/** What withdrawing a request needs. */
export interface WithdrawDependencies {
  progress: ProgressTracker;
  approvals: ApproverCards;
  log: BotLog;
}

/** Requests "withdraw" lists, before it keeps those waiting for approval. */
const LISTED = 20;

/**
 * Withdraw, by the requester, while the request waits for approval. Typed ("withdraw") it lists
 * the requests that can be, each with Withdraw; pressed, the request's card asks to confirm in
 * place; confirmed, `POST /jobs/{id}/withdraw` as the person, the card in place shows the request
 * withdrawn and every approver's card says so at once (the webhook's `team_provisioning_failed`
 * says it again, for a withdrawal made elsewhere). A request no longer waiting says so on its card.
 */
export async function withdrawRequest(
  context: TurnContext,
  api: StewardClient,
  deps: WithdrawDependencies,
  data: WithdrawData,
): Promise<Reply> {
  const reader = readerOfTurn(context);
  const jobId = typeof data.jobId === 'string' ? data.jobId : '';
  if (!jobId) {
    const jobs = await api.getMyJobs({ top: LISTED });
    return cardReply(renderMyRequestsCard({ jobs: jobs.value, withdrawable: true }, reader));
  }
  const job = await api.getJob(jobId);
  const shown = async (
    now: Job,
    extra: { confirmWithdraw?: boolean; problem?: string } = {},
  ): Promise<Reply> => ({
    kind: 'card',
    card: await deps.progress.cardOf(now, reader, extra),
    inPlace: true,
    shows: now,
  });
  if (data.confirmed !== true) return shown(job, { confirmWithdraw: isWithdrawable(progressCardData(job)) });
  let withdrawn: Job;
  try {
    withdrawn = await api.withdrawTeamProvisioningJob(jobId);
  } catch (error) {
    if (isStatus(error, 404)) return { kind: 'text', text: say(reader, 'withdraw.notYours') };
    if (!isStatus(error, 409)) throw error;
    const now = await api.getJob(jobId);
    const team = markdownText(summarizeJob(now).teamName);
    return shown(now, { problem: say(reader, 'withdraw.notWaiting', { team }) });
  }
  const approvalId = summarizeJob(withdrawn).approval?.id;
  if (approvalId)
    await deps.approvals.showDecision(approvalId).catch((error: unknown) => {
      deps.log.warn({ err: error, jobId }, 'could not show a withdrawal on the approval cards');
    });
  return shown(withdrawn);
}
