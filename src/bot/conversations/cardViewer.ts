import type { TurnContext } from 'botbuilder';
import type { CardViewer } from '../cards/cardRefresh';
import { DEFAULT_READER } from '../i18n/catalog';
import type { ReachState } from '../reachState';
import { readerOfTurn } from './reply';

/**
 * Whom a card sent unprompted is drawn for, as the bot last saw them: their language (English in
 * UTC before they ever wrote) and their Teams id, for the card's refresh.
 */
export async function viewerOf(reachState: ReachState, personId: string): Promise<CardViewer> {
  const known = await reachState.user(personId).catch(() => undefined);
  return { reader: known?.reader ?? DEFAULT_READER, teamsUserId: known?.teamsUserId || null };
}

/** Whom a card answered in a turn is drawn for: the person of the turn. */
export function viewerOfTurn(context: TurnContext): CardViewer {
  return { reader: readerOfTurn(context), teamsUserId: context.activity.from?.id || null };
}
