import { type Reader, say } from '../i18n/catalog';
import type { AdaptiveCardAttachment } from './adaptiveCard';
import { CardVerb, type LifecycleRefreshData } from './cardVerbs';

/** Whom a card is drawn for: how they read, and their Teams user id (MRI, `29:…`) when the bot knows it. */
export interface CardViewer {
  reader: Reader;
  teamsUserId: string | null;
}

/**
 * The lifecycle card `card` with a Universal Actions `refresh` clause: when its person opens it,
 * Teams asks the bot (`adaptiveCard/action`, verb `refreshLifecycleCard`) for the card as it stands
 * now, so a card opened days later shows the renewal, the archive, the new owner or the review made
 * meanwhile, even if updating it in place failed. `userIds` lists the viewer alone (each lifecycle
 * card is posted in one person's 1:1 chat, far below the 60 ids Teams refreshes automatically;
 * anyone else gets "Refresh card" in the card's menu). While the bot does not know the person's
 * Teams id yet (a chat it started itself), `userIds` is left out: Teams then refreshes the card
 * for every member of a chat of up to 60 members, which a 1:1 chat is.
 */
export function withRefresh(
  card: AdaptiveCardAttachment,
  data: LifecycleRefreshData,
  viewer: CardViewer,
): AdaptiveCardAttachment {
  const action = {
    type: 'Action.Execute',
    title: say(viewer.reader, 'action.refresh'),
    verb: CardVerb.refreshLifecycleCard,
    data: { ...data },
  };
  const userIds = viewer.teamsUserId ? { userIds: [viewer.teamsUserId] } : {};
  return { ...card, content: { ...card.content, refresh: { action, ...userIds } } };
}
