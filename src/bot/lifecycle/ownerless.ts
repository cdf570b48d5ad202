import type { TurnContext } from 'botbuilder';
import type { StewardClient } from '../../client';
import { isStatus } from '../apiFailures';
import type { OwnerlessRecord, LifecycleCardState } from './lifecycleCardState';
import type { LifecycleRefreshData } from '../cards/cardVerbs';
import type { BecomeOwnerData } from './lifecycleVerbData';
import { type CardViewer, withRefresh } from '../cards/cardRefresh';
import { renderOwnerlessCard } from './ownerlessCard';
import type { BotIdentity } from '../shared/botIdentity';
import {
  type CardDeliveryDependencies,
  postToEach,
  retryUndelivered,
  updateEach,
} from '../shared/cardsForPeople';
import { viewerOfTurn } from '../conversations/cardViewer';
import { cardReply, type Reply } from '../conversations/reply';
import { teamLifecycleEvent } from '../conversations/teamEventPayload';

/** What the ownerless conversation needs. */
export interface OwnerlessDependencies extends CardDeliveryDependencies {
  /** The postings, and the records of these cards. */
  lifecycleCardState: LifecycleCardState;
  client: StewardClient;
  identity: BotIdentity;
}

/** A record's card as `personId` reads it. */
export function ownerlessCardOf(record: OwnerlessRecord, personId: string, viewer: CardViewer) {
  const steppedUp = record.steppedUp
    ? { name: record.steppedUp.name, self: record.steppedUp.id === personId }
    : null;
  return withRefresh(renderOwnerlessCard({ ...record, steppedUp }, viewer.reader), refreshOf(record), viewer);
}

const refreshOf = (record: Pick<OwnerlessRecord, 'teamId' | 'since' | 'kind'>): LifecycleRefreshData => ({
  card: 'ownerless',
  teamId: record.teamId,
  since: record.since,
  audience: record.kind,
});
const cardOf = ownerlessCardOf;

const answered = (record: OwnerlessRecord) => record.steppedUp !== null;

/** Where a record is, as undelivered cards name it: `ownerless/<kind>/<since>/<teamId>`. */
const recordKey = (kind: OwnerlessRecord['kind'], since: string, teamId: string) =>
  `ownerless/${kind}/${since}/${teamId}`;

/**
 * Teams short of owners, in chat (`team_ownerless`). Outcome `askMembers`: each member who is
 * neither an owner nor a guest gets "Become an owner"; the first to accept becomes an owner (the
 * API takes one step-up per episode), and every other member's card then says who stepped up.
 * Outcome `notifyGovernance` (the policy's choice, or nobody stepped up in time): the governance
 * managers get a card with the team's link.
 */
export class OwnerlessConversation {
  constructor(private readonly deps: OwnerlessDependencies) {}

  /** Sends the event's cards to whoever has none yet. */
  async announce(payload: Record<string, unknown>): Promise<void> {
    const event = teamLifecycleEvent(payload);
    if (!event) return;
    const kind: OwnerlessRecord['kind'] = event.outcome === 'notifyGovernance' ? 'governance' : 'ask';
    const app = { token: () => this.deps.identity.appToken() };
    const { client, lifecycleCardState, log } = this.deps;
    const teamId = event.team.id;
    let people: string[];
    if (kind === 'ask') {
      const skip = new Set([...event.ownerIds, ...event.guestIds]);
      const members = await client.getTeamMembers(teamId, app);
      people = members.filter((m) => !m.roles.includes('owner') && !skip.has(m.userId)).map((m) => m.userId);
    } else {
      const managers = await client.getGovernanceManagers(app);
      if (!managers.listed)
        log.warn(
          { teamId, source: managers.source, reason: managers.reason },
          'the governance managers cannot be listed; nobody was told of an ownerless team',
        );
      // Governance managers first; where the tenant has none, the admins with governance powers.
      const named = managers.value.filter((person) => person.roles.includes('GOVERNANCE_MANAGER'));
      people = (named.length > 0 ? named : managers.value).map((person) => person.id);
    }
    const team = await client.getTeam(teamId, app).catch(() => undefined);
    const stored = await lifecycleCardState.ownerless(kind, event.dueOn, teamId);
    const record: OwnerlessRecord = stored ?? {
      teamId,
      teamName: team?.displayName || event.team.displayName,
      since: event.dueOn,
      kind,
      someOwners: event.ownerIds.length > 0,
      teamUrl: team?.webUrl ?? null,
      cards: {},
      steppedUp: null,
    };
    if (!stored)
      await lifecycleCardState.updateOwnerless(kind, event.dueOn, teamId, (latest) =>
        latest ? undefined : record,
      );
    const unreached = await postToEach(
      this.deps,
      people,
      {
        key: recordKey(kind, event.dueOn, teamId),
        load: () => lifecycleCardState.ownerless(kind, event.dueOn, teamId),
        update: (change) => lifecycleCardState.updateOwnerless(kind, event.dueOn, teamId, change),
      },
      cardOf,
      answered,
    );
    if (unreached.length > 0)
      log.warn(
        { teamId, unreached: unreached.length },
        'some people were not reached about an ownerless team',
      );
  }

  /** `personId` was just reached: their ownerless cards that could not be delivered go out now. */
  retryFor(personId: string): Promise<void> {
    const { lifecycleCardState } = this.deps;
    const named = (key: string) => {
      const [, kind, since, ...team] = key.split('/');
      return [kind === 'governance' ? 'governance' : 'ask', since ?? '', team.join('/')] as const;
    };
    return retryUndelivered(
      this.deps,
      personId,
      'ownerless/',
      {
        load: (key) => lifecycleCardState.ownerless(...named(key)),
        update: (key, change) => lifecycleCardState.updateOwnerless(...named(key), change),
      },
      cardOf,
      answered,
    );
  }

  /** "Become an owner" pressed: the caller steps up, or learns who already did. */
  async stepUp(context: TurnContext, api: StewardClient, data: BecomeOwnerData): Promise<Reply> {
    const viewer = viewerOfTurn(context);
    const me = context.activity.from.aadObjectId ?? '';
    const load = () => this.deps.lifecycleCardState.ownerless('ask', data.since, data.teamId);
    let result;
    try {
      result = await api.stepUpAsTeamOwner(data.teamId);
    } catch (error) {
      if (!isStatus(error, 409)) throw error;
      // Someone else stepped up first (or the team has its owners): the card says so, never twice.
      const record = await load();
      const base = record ?? this.unrecorded(data, data.teamId);
      const card = record?.steppedUp
        ? cardOf(record, me, viewer)
        : withRefresh(
            renderOwnerlessCard({ ...base, steppedUp: null, notNeeded: true }, viewer.reader),
            refreshOf(base),
            viewer,
          );
      return cardReply(card, true);
    }
    const name = context.activity.from.name || result.owner.displayName;
    const unrecorded = this.unrecorded(data, result.displayName);
    const record = (await this.deps.lifecycleCardState.updateOwnerless(
      'ask',
      data.since,
      data.teamId,
      (latest) => ({ ...(latest ?? unrecorded), steppedUp: { id: me, name } }),
    ))!;
    await updateEach(this.deps, record, cardOf, me);
    return cardReply(cardOf(record, me, viewer), true);
  }

  /** A card pressed whose record the bot no longer has: what the card itself says. */
  private unrecorded(data: BecomeOwnerData, teamName: string): OwnerlessRecord {
    return {
      teamId: data.teamId,
      teamName,
      since: data.since,
      kind: 'ask',
      someOwners: false,
      teamUrl: null,
      cards: {},
      steppedUp: null,
    };
  }
}
