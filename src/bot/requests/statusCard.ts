import type { TurnContext } from 'botbuilder';
import type { StewardClient } from '../../client';
import { isStatus } from '../apiFailures';
import { cardReply, readerOfTurn, type Reply } from '../conversations/reply';
import { confirmationCardData, renderConfirmationCard } from './confirmationCard';
import { findRequest, noSuchRequest, requestStatus } from './myRequests';
import type { ProgressTracker } from './progress';
import type { RequestState } from './requestState';

/** What a Status asks for: the card's request, or the one a typed `status <team name>` names. */
export interface StatusAsked {
  /** The request id of the card pressed. */
  cardJobId: string;
  /** The typed team name or request id. */
  request: string;
  /** Typed as a command rather than pressed on a card. */
  typed: boolean;
  /** A new message rather than the card pressed redrawn (as "my requests" asks). */
  newCard: boolean;
}

/**
 * A request's progress card, drawn as the request's own card is. A card's Status refreshes that card
 * unless it asks for a new one (`newCard`, as "my requests" does: once per list, a second press
 * updates the card the first posted); a typed `status <team name>`
 * (`request`: the person's own request for a team of that name, or with that id) always gets a new
 * message. The Status of a confirmation card drawn before it lost that button (a card pressed in
 * place that is not one of the request's living cards) leaves it a confirmation, so one request
 * keeps one living card.
 */
export async function statusCard(
  api: StewardClient,
  context: TurnContext,
  deps: { progress: ProgressTracker; requestState: RequestState },
  asked: StatusAsked,
): Promise<Reply> {
  const { cardJobId, request, typed } = asked;
  const reader = readerOfTurn(context);
  const jobId = typed && request ? await findRequest(api, request) : cardJobId;
  if (jobId === null) return noSuchRequest(request, reader);
  const reply = await requestStatus(api, jobId, !typed && !asked.newCard).catch((error: unknown) => {
    // A typed id that matches nothing (or someone else's request) is not "no longer exists".
    if (typed && isStatus(error, 404)) return noSuchRequest(request || jobId, reader);
    throw error;
  });
  if (reply.kind !== 'card' || !reply.shows) return reply;
  const pressed = context.activity.replyToId;
  if (reply.inPlace && pressed && (await deps.progress.isLivingCard(jobId, pressed)) === false) {
    const location = await deps.requestState.progress(jobId);
    const data = confirmationCardData(reply.shows, location?.pictureUrl ?? null);
    return cardReply(renderConfirmationCard(data, reader), true);
  }
  const card = await deps.progress.cardOf(reply.shows, reader);
  // Status pressed again on the same list: the card it posted before is the one brought up to date.
  const shown = asked.newCard && pressed ? await deps.requestState.shownFrom(jobId, pressed) : undefined;
  return { ...reply, card, ...(shown ? { onMessage: shown.activityId } : {}) };
}
