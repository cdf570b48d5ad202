import type { TurnContext } from 'botbuilder';
import type { Job, StewardClient } from '../../client';
import { isStatus } from '../apiFailures';
import type { ApproverDeliveries } from './approverDeliveries';
import type { BotLog } from '../botLog';
import type { ApprovalRecord, ApprovalState } from './approvalState';
import { renderApprovalCard } from './approvalCard';
import type { ApprovalDecisionData } from './approvalVerbData';
import { summarizeJob } from '../shared/jobSummary';
import { renderApprovalDecidedCard } from './approvalDecidedCard';
import { renderApprovalReadOnlyCard } from './approvalReadOnlyCard';
import { listMyApprovals, teamsIds } from './myApprovals';
import type { BotIdentity } from '../shared/botIdentity';
import type { Messenger } from '../messenger';
import type { ReachState } from '../reachState';
import { approvalCardData, approversOf, decidedCardData, decisionOf } from './approvalRequest';
import { remindApprovers } from './approvalReminder';
import { stagesOf } from './approvalStages';
import { teamPeople } from '../shared/peopleNames';
import type { RequestProgress } from '../shared/requestLinks';
import { cardReply, readerOfTurn, type Reply } from '../conversations/reply';
import { say } from '../i18n/catalog';
import { showDecision } from './approvalDecided';
import { readerOfApprover } from '../shared/approverReader';
import { alreadyDecided, amendment, decisionProblems, refusedDecision } from './approverDecision';

/** What the approval conversation needs. */
export interface ApprovalDependencies {
  client: StewardClient;
  identity: BotIdentity;
  approvalState: ApprovalState;
  reachState: ReachState;
  messenger: Messenger;
  progress: RequestProgress;
  /** Approval cards that could not be delivered, retried with backoff. */
  deliveries: ApproverDeliveries;
  log: BotLog;
}

/**
 * Approvals in Teams: a card with Approve / Reject to every approver in their 1:1 chat when a
 * request needs a decision, the decision taken from a card (`approve` / `reject`), every
 * approver's card turned into the decided card afterwards, and the requester's progress card moved on.
 */
export class ApprovalConversation {
  constructor(private readonly deps: ApprovalDependencies) {}

  /**
   * Sends the approval card to each approver who has none yet (a repeated delivery sends nothing
   * twice). Resolves to the approvers the bot could not reach.
   */
  async announce(approvalId: string, jobId: string): Promise<string[]> {
    const job = await this.appJob(jobId);
    const approvers = approversOf(job, approvalId);
    const request = approvalCardData(
      job,
      await teamsIds(
        this.deps.reachState,
        approvers.map((a) => a.id),
      ),
      teamPeople(job),
      approvalId,
    );
    const record: ApprovalRecord = (await this.deps.approvalState.approval(approvalId)) ?? {
      jobId,
      request,
      cards: {},
      decision: null,
    };
    const decision = decisionOf(job, approvalId);
    // The record exists before the first card is posted, and each posted card is added to the
    // current record at once: an approver may decide while the others are still being reached.
    await this.deps.approvalState.saveApproval(approvalId, {
      ...record,
      request,
      decision: record.decision ?? decision,
    });
    const unreachable: Array<{ id: string; name: string }> = [];
    const deliveries = this.deps.deliveries;
    for (const approver of approvers) {
      const reader = await readerOfApprover(this.deps.reachState, approver.id);
      const decided = record.decision ?? decision;
      const noted = await this.deps.approvalState.pendingDelivery(approver.id, approvalId);
      // Delivered already, or decided while this card waited: nothing more to send.
      if (record.cards[approver.id] || (decided && noted)) {
        if (noted) await deliveries.delivered(approver.id, approvalId);
        continue;
      }
      const card = decision
        ? renderApprovalDecidedCard(decidedCardData(request, decision), reader)
        : renderApprovalCard(request, reader);
      let failure: unknown = null;
      const posted = await this.deps.messenger.postToPerson(approver.id, card).catch((error: unknown) => {
        failure = error;
        return undefined;
      });
      if (!posted) {
        await deliveries.failed(approver, approvalId, jobId, failure);
        unreachable.push(approver);
        continue;
      }
      if (noted) await deliveries.delivered(approver.id, approvalId);
      const current = (await this.deps.approvalState.approval(approvalId)) ?? record;
      await this.deps.approvalState.saveApproval(approvalId, {
        ...current,
        cards: { ...current.cards, [approver.id]: posted },
        decision: current.decision ?? decision,
      });
      // Decided while this card was on its way: show the decision on it too.
      if (current.decision && !decision) {
        const decided = renderApprovalDecidedCard(decidedCardData(current.request, current.decision), reader);
        await this.deps.messenger.update(posted, decided).catch((error: unknown) => {
          this.deps.log.warn({ err: error, approvalId }, 'could not update an approval card');
        });
      }
    }
    // A later stage opened: the earlier stages' cards show their decisions.
    for (const earlier of stagesOf(job).filter(
      (stage) => stage.id !== approvalId && stage.status === 'approved',
    )) {
      if ((await this.deps.approvalState.approval(earlier.id))?.decision === null)
        await this.showDecision(earlier.id);
    }
    // The requester learns who has not got the request yet (and, on a retry, that everyone has).
    await this.deps.progress.noteUnreachable(
      jobId,
      unreachable.map((approver) => approver.name),
    );
    return unreachable.map((approver) => approver.id);
  }

  /** Approve or Reject pressed on a card: the decision, or a clear card when it cannot be taken. */
  async decide(
    context: TurnContext,
    api: StewardClient,
    outcome: 'approved' | 'rejected',
    data: ApprovalDecisionData,
  ): Promise<Reply> {
    const approvalId = String(data.approvalId ?? '');
    const reader = readerOfTurn(context);
    const message = typeof data.comment === 'string' && data.comment.trim() ? data.comment.trim() : undefined;
    const record = await this.deps.approvalState.approval(approvalId);
    const rename = amendment(record, data);
    // Checked here, in the approver's words, as "Check name" does: the API would refuse them in English.
    const problems = record && !record.decision ? decisionProblems(record, rename, message, reader) : [];
    if (record && problems.length > 0)
      return cardReply(
        renderApprovalCard({ ...record.request, amendedName: rename, comment: message, problems }, reader),
        true,
      );
    try {
      if (outcome === 'approved')
        await api.approveTeamCreation(approvalId, {
          message,
          ...(rename ? { updates: { name: rename } } : {}),
        });
      else await api.rejectTeamCreation(approvalId, { message });
    } catch (error) {
      if (isStatus(error, 409)) return alreadyDecided(api, approvalId, record, reader);
      const refused = refusedDecision(error, record, rename, reader);
      if (refused) return refused;
      throw error;
    }
    const decision = {
      outcome,
      by: context.activity.from.name || '',
      at: new Date().toISOString(),
      message: message ?? null,
    };
    if (!record)
      return {
        kind: 'text',
        text: say(reader, outcome === 'approved' ? 'approval.doneApproved' : 'approval.doneRejected'),
      };
    // Re-read: cards posted to other approvers since `record` was read must stay in it.
    const latest = (await this.deps.approvalState.approval(approvalId)) ?? record;
    // Renamed: every card shows the name the team will have.
    const request = rename
      ? {
          ...latest.request,
          teamName: summarizeJob(await this.appJob(record.jobId)).teamName,
          requestedName: rename,
        }
      : latest.request;
    await this.deps.approvalState.saveApproval(approvalId, { ...latest, request, decision });
    // Every card of every approver but the one pressed (answered in place): her earlier copies too.
    await this.showDecision(approvalId, context.activity.replyToId);
    return cardReply(renderApprovalDecidedCard(decidedCardData(request, decision), reader), true);
  }

  /** The request (its job's id) the bot recorded for an approval, when it recorded one. */
  async jobOf(approvalId: string): Promise<string | undefined> {
    return (await this.deps.approvalState.approval(approvalId))?.jobId;
  }

  /**
   * "Check name" on an approval card: the card again, with the final name the typed name makes; to
   * someone the card was not posted to (not an approver), the read-only card. Who may see the
   * request at all is checked before, through the API (`verbAccess.ts`).
   */
  async checkName(context: TurnContext, data: ApprovalDecisionData): Promise<Reply> {
    const approvalId = String(data.approvalId ?? '');
    const record = await this.deps.approvalState.approval(approvalId);
    const reader = readerOfTurn(context);
    if (!record) return { kind: 'text', text: say(reader, 'approval.gone') };
    const caller = context.activity.from.aadObjectId ?? '';
    if (record.decision || !Object.hasOwn(record.cards, caller)) return this.refresh(context, approvalId);
    const typed = typeof data.teamName === 'string' ? data.teamName.trim() : '';
    const comment = typeof data.comment === 'string' ? data.comment : undefined;
    const problems = typed ? decisionProblems(record, typed, comment, reader) : [];
    return cardReply(
      renderApprovalCard({ ...record.request, amendedName: typed || undefined, comment, problems }, reader),
      true,
    );
  }

  /**
   * Teams asks for the current state of an approval card (`refreshApproval`): Approve / Reject only
   * for an approver it was posted to. Who may see the request is checked before (`verbAccess.ts`).
   */
  async refresh(context: TurnContext, approvalId: string): Promise<Reply> {
    const record = await this.deps.approvalState.approval(approvalId);
    const reader = readerOfTurn(context);
    if (!record) return { kind: 'text', text: say(reader, 'approval.gone') };
    if (record.decision)
      return cardReply(
        renderApprovalDecidedCard(decidedCardData(record.request, record.decision), reader),
        true,
      );
    const caller = context.activity.from.aadObjectId ?? '';
    if (Object.hasOwn(record.cards, caller))
      return cardReply(renderApprovalCard(record.request, reader), true);
    return cardReply(
      renderApprovalReadOnlyCard(
        { ...record.request, decision: { status: 'pending' }, reason: 'notApprover' },
        reader,
      ),
      true,
    );
  }

  /** "My approvals": see `myApprovals.ts`. */
  listFor(context: TurnContext, api: StewardClient): Promise<Reply> {
    return listMyApprovals(context, api, this.deps);
  }

  /** Shows the decision on every approver's card but the message `skip`: see `approvalDecided.ts`. */
  showDecision(approvalId: string, skip?: string): Promise<void> {
    return showDecision(this.deps, (jobId) => this.appJob(jobId), approvalId, skip);
  }

  /** A stage's reminder: see `approvalReminder.ts`. */
  remind(approvalId: string, jobId: string, reminded: readonly string[]): Promise<void> {
    const redraw = () => this.showDecision(approvalId);
    return remindApprovers(this.deps, () => this.appJob(jobId), approvalId, reminded, redraw);
  }

  /** The request's job, read at once (see `ProgressTracker.job`). */
  private async appJob(jobId: string): Promise<Job> {
    const job = await this.deps.progress.job(jobId);
    if (!job) throw new Error(`The job ${jobId} is gone.`);
    return job;
  }
}
