import type { TurnContext } from 'botbuilder';
import type { AdaptiveCardAttachment } from '../cards/adaptiveCard';
import type { CardViewer } from '../cards/cardRefresh';
import type { LifecycleRefreshData } from '../cards/cardVerbs';
import { say } from '../i18n/catalog';
import { viewerOfTurn } from '../conversations/cardViewer';
import { guestReviewCardOf } from './guestReview';
import { noticeCard } from './lifecycleNotice';
import type { LifecycleCardState } from './lifecycleCardState';
import type { NoticeRecords } from './lifecycleRecords';
import { ownerlessCardOf } from './ownerless';
import { cardReply, type Reply } from '../conversations/reply';

/** What redrawing a lifecycle card as it stands needs: the bot's records of them. */
export interface LifecycleRefreshDependencies {
  lifecycleCardState: LifecycleCardState;
  records: NoticeRecords;
}

const textOf = (data: Record<string, unknown>, key: keyof LifecycleRefreshData): string => {
  const value = data[key];
  return typeof value === 'string' ? value : '';
};

/**
 * Teams asks for a lifecycle card as it stands now (its `refresh` clause, as the card is opened):
 * the card of the record it names, drawn for the person who opens it. Only a person the card was
 * posted to gets it (the refresh's data is the card's, which anyone could send); anyone else, or a
 * card whose record the bot no longer has, is told the card is no longer available.
 */
export async function refreshLifecycleCard(
  context: TurnContext,
  deps: LifecycleRefreshDependencies,
  data: Record<string, unknown>,
): Promise<Reply> {
  const viewer = viewerOfTurn(context);
  const card = await cardNow(deps, data, context.activity.from.aadObjectId ?? '', viewer);
  return card ? cardReply(card, true) : { kind: 'text', text: say(viewer.reader, 'lifecycle.cardGone') };
}

async function cardNow(
  deps: LifecycleRefreshDependencies,
  data: Record<string, unknown>,
  me: string,
  viewer: CardViewer,
): Promise<AdaptiveCardAttachment | undefined> {
  const teamId = textOf(data, 'teamId');
  const kind = textOf(data, 'card');
  if (!teamId || !me) return undefined;
  if (kind === 'renewal' || kind === 'inactivity') {
    const record = await deps.records.get(kind, teamId);
    if (!record?.cards.some((card) => card.ownerId === me)) return undefined;
    return noticeCard(kind, record, me, viewer);
  }
  if (kind === 'ownerless') {
    const audience = textOf(data, 'audience') === 'governance' ? 'governance' : 'ask';
    const record = await deps.lifecycleCardState.ownerless(audience, textOf(data, 'since'), teamId);
    if (!record || !Object.hasOwn(record.cards, me)) return undefined;
    return ownerlessCardOf(record, me, viewer);
  }
  if (kind === 'guestReview') {
    const record = await deps.lifecycleCardState.guestReview(textOf(data, 'dueOn'), teamId);
    if (!record || !Object.hasOwn(record.cards, me)) return undefined;
    return guestReviewCardOf(record, me, viewer);
  }
  return undefined;
}
