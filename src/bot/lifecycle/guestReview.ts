import type { TurnContext } from 'botbuilder';
import type { StewardClient } from '../../client';
import type { GuestReviewRecord, LifecycleCardState } from './lifecycleCardState';
import { type CardViewer, withRefresh } from '../cards/cardRefresh';
import { GUESTS_ON_A_CARD, guestInputId, renderGuestReviewCard } from './guestReviewCard';
import type { BotIdentity } from '../shared/botIdentity';
import { say } from '../i18n/catalog';
import {
  type CardDeliveryDependencies,
  postToEach,
  retryUndelivered,
  updateEach,
} from '../shared/cardsForPeople';
import { viewerOfTurn } from '../conversations/cardViewer';
import { cardReply, type Reply } from '../conversations/reply';
import { teamLifecycleEvent } from '../conversations/teamEventPayload';

/** What the guest review conversation needs. */
export interface GuestReviewDependencies extends CardDeliveryDependencies {
  /** The postings, and the records of these cards. */
  lifecycleCardState: LifecycleCardState;
  client: StewardClient;
  identity: BotIdentity;
}

/** A record's card as `personId` reads it. */
export function guestReviewCardOf(record: GuestReviewRecord, personId: string, viewer: CardViewer) {
  const review = record.review && { ...record.review, self: record.review.byId === personId };
  const card = renderGuestReviewCard(
    { ...record, guests: record.guests.map((g) => g.name), review },
    viewer.reader,
  );
  return withRefresh(card, { card: 'guestReview', teamId: record.teamId, dueOn: record.dueOn }, viewer);
}
const cardOf = guestReviewCardOf;

const answered = (record: GuestReviewRecord) => record.review !== null;

/** Where a record is, as undelivered cards name it: `guestReviews/<dueOn>/<teamId>`. */
const recordKey = (dueOn: string, teamId: string) => `guestReviews/${dueOn}/${teamId}`;

/**
 * Guest reviews in chat (`team_guest_review_due`): each owner gets the team's guests by name with
 * Keep / Remove and a Submit. The first owner to submit reviews for all: the API records the review
 * (the next is due `everyDays` later) and removes the guests by a job, and every owner's card then
 * says who reviewed, who was removed and who was kept.
 */
export class GuestReviewConversation {
  constructor(private readonly deps: GuestReviewDependencies) {}

  /** Sends the review card to each owner who has none yet. */
  async announce(payload: Record<string, unknown>): Promise<void> {
    const event = teamLifecycleEvent(payload);
    if (!event || event.guestIds.length === 0) return;
    const { client, lifecycleCardState, log } = this.deps;
    const app = { token: () => this.deps.identity.appToken() };
    const teamId = event.team.id;
    if (event.ownerIds.length === 0) {
      log.warn({ teamId }, 'a guest review is due for a team with no owner; nobody can review it');
      return;
    }
    const stored = await lifecycleCardState.guestReview(event.dueOn, teamId);
    if (!stored) {
      // Names, not ids: the platform's members carry each guest's display name.
      const names = new Map((await client.getTeamMembers(teamId, app)).map((m) => [m.userId, m.displayName]));
      const team = await client.getTeam(teamId, app).catch(() => undefined);
      const fresh: GuestReviewRecord = {
        teamId,
        teamName: team?.displayName || event.team.displayName,
        dueOn: event.dueOn,
        guests: event.guestIds.map((id) => ({ id, name: names.get(id) || id })),
        teamUrl: team?.webUrl ?? null,
        cards: {},
        review: null,
      };
      await lifecycleCardState.updateGuestReview(event.dueOn, teamId, (latest) =>
        latest ? undefined : fresh,
      );
    }
    const unreached = await postToEach(
      this.deps,
      event.ownerIds,
      {
        key: recordKey(event.dueOn, teamId),
        load: () => lifecycleCardState.guestReview(event.dueOn, teamId),
        update: (change) => lifecycleCardState.updateGuestReview(event.dueOn, teamId, change),
      },
      cardOf,
      answered,
    );
    if (unreached.length > 0)
      log.warn({ teamId, unreached: unreached.length }, 'some owners were not reached about a guest review');
  }

  /** `personId` was just reached: their guest review cards that could not be delivered go out now. */
  retryFor(personId: string): Promise<void> {
    const { lifecycleCardState } = this.deps;
    const named = (key: string) => {
      const [, dueOn, ...team] = key.split('/');
      return [dueOn ?? '', team.join('/')] as const;
    };
    return retryUndelivered(
      this.deps,
      personId,
      'guestReviews/',
      {
        load: (key) => lifecycleCardState.guestReview(...named(key)),
        update: (key, change) => lifecycleCardState.updateGuestReview(...named(key), change),
      },
      cardOf,
      answered,
    );
  }

  /** Submit pressed: the review goes to the API once; every owner's card then shows it. */
  async submit(context: TurnContext, api: StewardClient, data: Record<string, unknown>): Promise<Reply> {
    const viewer = viewerOfTurn(context);
    const { reader } = viewer;
    const me = context.activity.from.aadObjectId ?? '';
    const teamId = typeof data.teamId === 'string' ? data.teamId : '';
    const dueOn = typeof data.dueOn === 'string' ? data.dueOn : '';
    const load = () => this.deps.lifecycleCardState.guestReview(dueOn, teamId);
    const record = await load();
    if (!record) return { kind: 'text', text: say(reader, 'guestReview.gone') };
    // Reviewed already (by another owner, or a second click): the review as it was made, to the
    // owners the card went to; anyone else asks the API, which checks who they are.
    if (record.review && record.cards[me]) return cardReply(cardOf(record, me, viewer), true);
    const remove = record.guests
      .slice(0, GUESTS_ON_A_CARD)
      .filter((_guest, index) => data[guestInputId(index)] === 'remove')
      .map((guest) => guest.id);
    const result = await api.reviewTeamGuests(teamId, { remove });
    const review: GuestReviewRecord['review'] = {
      byId: me,
      by: context.activity.from.name || result.reviewedBy.displayName,
      on: result.reviewedOn,
      removed: result.removed.map((guest) => guest.displayName),
      kept: result.kept.map((guest) => guest.displayName),
      nextOn: result.nextReviewOn,
    };
    const reviewed = (await this.deps.lifecycleCardState.updateGuestReview(dueOn, teamId, (latest) => ({
      ...(latest ?? record),
      review,
    })))!;
    await updateEach(this.deps, reviewed, cardOf, me);
    return cardReply(cardOf(reviewed, me, viewer), true);
  }
}
