import type { TurnContext } from 'botbuilder';
import type { StewardClient } from '../../client';
import { isStatus } from '../apiFailures';
import type { CardViewer } from '../cards/cardRefresh';
import { say } from '../i18n/catalog';
import { KeyedTurns } from '../keyedTurns';
import { viewerOf, viewerOfTurn } from '../conversations/cardViewer';
import { cardReply, type Reply } from '../conversations/reply';
import {
  type CardDeliveryDependencies,
  postToEach,
  retryUndelivered,
  updateEach,
} from '../shared/cardsForPeople';
import { renderJoinNewsCard, type JoinNews } from './joinNewsCard';
import { renderJoinRequestCard } from './joinRequestCard';
import type { JoinRecord, JoinState } from './joinState';

/** What the joining conversation needs: the card deliveries the lifecycle cards use, and its records. */
export interface JoiningDependencies extends CardDeliveryDependencies {
  joinState: JoinState;
}

/** The longest comment the API takes with a decision. */
const COMMENT_MAX = 1000;

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const person = (value: unknown): { id: string; displayName: string } | undefined => {
  const record = value as { id?: unknown; displayName?: unknown } | null;
  if (!record || typeof record.id !== 'string' || !record.id) return undefined;
  return { id: record.id, displayName: text(record.displayName) || record.id };
};
const recordKey = (joinRequestId: string) => `joinRequests/${joinRequestId}`;
const cardOf = (record: JoinRecord, _personId: string, viewer: CardViewer) =>
  renderJoinRequestCard(record, viewer.reader);
const answered = (record: JoinRecord) => record.decision !== null;

/**
 * Requests to join teams in chat (docs/guides/joining-teams.md). `team_join_requested` brings each owner a card with
 * the asker's words, Approve and Decline, in the owner's language, delivered as the lifecycle cards
 * are (a card not delivered is posted when the owner is next reached). The decision (made on a card
 * or through the API) redraws every owner's card and tells the asker; `team_member_joined` tells
 * them they are in.
 */
export class JoiningConversation {
  private readonly telling = new KeyedTurns();

  constructor(private readonly deps: JoiningDependencies) {}

  /** Someone asked to join: the record, and the owners' cards unless the team let them in directly. */
  async announce(payload: Record<string, unknown>): Promise<void> {
    const join = payload.joinRequest as { id?: unknown; message?: unknown; direct?: unknown } | undefined;
    const team = payload.team as { id?: unknown; displayName?: unknown; webUrl?: unknown } | undefined;
    const requester = person(payload.requester);
    const joinRequestId = text(join?.id);
    if (!joinRequestId || !requester || typeof team?.id !== 'string') return;
    const owners = (Array.isArray(payload.owners) ? payload.owners : [])
      .map(person)
      .filter((owner) => owner !== undefined);
    const fresh: JoinRecord = {
      joinRequestId,
      team: { id: team.id, name: text(team.displayName) || team.id, webUrl: text(team.webUrl) || null },
      requester: { id: requester.id, name: requester.displayName },
      message: text(join?.message) || null,
      direct: join?.direct === true,
      cards: {},
      decision: null,
      told: {},
    };
    await this.deps.joinState.update(joinRequestId, (latest) => (latest ? undefined : fresh));
    if (fresh.direct) return;
    if (owners.length === 0) {
      this.deps.log.warn(
        { teamId: team.id },
        'someone asked to join a team with no owner; nobody can decide',
      );
      return;
    }
    const unreached = await postToEach(
      this.deps,
      owners.map((o) => o.id),
      this.stored(joinRequestId),
      cardOf,
      answered,
    );
    if (unreached.length > 0)
      this.deps.log.warn(
        { unreached: unreached.length },
        'some owners were not reached about a request to join',
      );
  }

  /** An owner (or a governance manager) decided: every owner's card shows it, and the asker is told. */
  async showDecision(payload: Record<string, unknown>): Promise<void> {
    const join = payload.joinRequest as { id?: unknown; decision?: unknown; comment?: unknown } | undefined;
    const joinRequestId = text(join?.id);
    const by = person(payload.decidedBy);
    if (!joinRequestId || !by) return;
    const decision = {
      approved: join?.decision === 'approve',
      byId: by.id,
      by: by.displayName,
      comment: text(join?.comment) || null,
    };
    const decided = await this.deps.joinState.update(joinRequestId, (latest) =>
      latest && !latest.decision ? { ...latest, decision } : undefined,
    );
    if (!decided) return;
    await updateEach(this.deps, decided, cardOf);
    await this.tell(joinRequestId, 'decided');
  }

  /** The member was added: the asker is told, once. */
  async showJoined(payload: Record<string, unknown>): Promise<void> {
    const joinRequestId = text((payload.joinRequest as { id?: unknown } | undefined)?.id);
    if (joinRequestId) await this.tell(joinRequestId, 'joined');
  }

  /** `personId` was just reached: their join request cards that could not be delivered go out now. */
  retryFor(personId: string): Promise<void> {
    const id = (key: string) => key.slice('joinRequests/'.length);
    return retryUndelivered(
      this.deps,
      personId,
      'joinRequests/',
      {
        load: (key) => this.deps.joinState.join(id(key)),
        update: (key, change) => this.deps.joinState.update(id(key), change),
      },
      cardOf,
      answered,
    );
  }

  /**
   * Approve or Decline pressed on an owner's card: the API decides (and refuses anyone but the
   * team's owners and governance managers); the card is redrawn in place, and the others as the
   * decision's event arrives.
   */
  async decide(context: TurnContext, api: StewardClient, data: Record<string, unknown>): Promise<Reply> {
    const viewer = viewerOfTurn(context);
    const joinRequestId = text(data.joinRequestId);
    const approve = data.decision === 'approve';
    const comment = text(data.joinComment).trim().slice(0, COMMENT_MAX);
    const record = await this.deps.joinState.join(joinRequestId);
    if (!record) return { kind: 'text', text: say(viewer.reader, 'join.gone') };
    const decided = await api
      .decideTeamJoinRequest(joinRequestId, {
        decision: approve ? 'approve' : 'decline',
        ...(comment ? { comment } : {}),
      })
      .catch((error: unknown) => {
        // Decided already (another owner, a second click at the same moment): the decision as the
        // API holds it, since the press that made it may not have written the bot's record yet.
        if (!isStatus(error, 409)) throw error;
        return api.getJoinRequest(joinRequestId);
      });
    if (!decided.decision) return cardReply(cardOf(record, '', viewer), true);
    const decision = {
      approved: decided.decision.decision === 'approve',
      byId: decided.decision.by.id,
      by: decided.decision.by.displayName || context.activity.from.name || '',
      comment: decided.decision.comment ?? null,
    };
    const latest = await this.deps.joinState.update(joinRequestId, (stored) =>
      stored && !stored.decision ? { ...stored, decision } : undefined,
    );
    return cardReply(
      cardOf(latest ?? (await this.deps.joinState.join(joinRequestId)) ?? record, '', viewer),
      true,
    );
  }

  private stored(joinRequestId: string) {
    return {
      key: recordKey(joinRequestId),
      load: () => this.deps.joinState.join(joinRequestId),
      update: (change: (latest: JoinRecord | undefined) => JoinRecord | undefined) =>
        this.deps.joinState.update(joinRequestId, change),
    };
  }

  /** Tells the asker `news` once, one piece of news of a request at a time. */
  private tell(joinRequestId: string, news: JoinNews): Promise<void> {
    return this.telling.run(joinRequestId, () => this.tellNow(joinRequestId, news));
  }

  /**
   * Tells the asker `news` once: the record notes it before the card is posted. "You are now a
   * member" waits for the owners' "accepted, adding you now" when its delivery came first, so the
   * two are read in the order they happened.
   */
  private async tellNow(joinRequestId: string, news: JoinNews): Promise<void> {
    let first = false;
    const record = await this.deps.joinState.update(joinRequestId, (latest) => {
      first = false;
      if (!latest || latest.told[news]) return undefined;
      if (news === 'joined' && !latest.direct && !latest.told.decided)
        return latest.told.joinedHeld ? undefined : { ...latest, told: { ...latest.told, joinedHeld: true } };
      first = true;
      return { ...latest, told: { ...latest.told, [news]: true } };
    });
    if (!record || !first) return;
    await this.post(joinRequestId, record, news);
    if (news === 'decided' && record.told.joinedHeld) await this.tellNow(joinRequestId, 'joined');
  }

  private async post(joinRequestId: string, record: JoinRecord, news: JoinNews): Promise<void> {
    const viewer = await viewerOf(this.deps.reachState, record.requester.id);
    const posted = await this.deps.messenger
      .postToPerson(record.requester.id, renderJoinNewsCard(record, news, viewer.reader))
      .catch((error: unknown) => {
        this.deps.log.warn({ err: error }, 'could not tell someone about their request to join');
        return undefined;
      });
    if (!posted) this.deps.log.warn({ joinRequestId }, 'the asker of a request to join was not reached');
  }
}
