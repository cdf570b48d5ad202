import { DEFAULT_READER, type Reader, say } from '../i18n/catalog';
import { type AdaptiveCardAttachment, renderCard } from '../cards/adaptiveCard';
import { clip, markdownText, webAddress } from '../cards/cardText';
import ownerlessCardTemplate from './ownerlessCard.json';

/** What a card about a team short of owners shows. */
export interface OwnerlessCardData {
  teamId: string;
  teamName: string;
  /** The day the team was found short of owners: the episode the card is about. */
  since: string;
  /** `ask`: a member's card with "Become an owner"; `governance`: a governance manager's card. */
  kind: 'ask' | 'governance';
  /** The team has owners, fewer than its policy asks for (rather than none). */
  someOwners: boolean;
  /** The team in Teams, for "Open team"; null when unknown. */
  teamUrl: string | null;
  /** Who stepped up, once someone did: their name ('' when unknown), and whether it is the reader. */
  steppedUp?: { name: string; self: boolean } | null;
  /** The team has the owners it needs, though nobody stepped up from these cards. */
  notNeeded?: boolean;
}

/**
 * The card a team's members get when it is short of owners ("Become an owner"), turned into who
 * stepped up once someone did; and the governance managers' card when nobody did.
 */
export function renderOwnerlessCard(
  data: OwnerlessCardData,
  reader: Reader = DEFAULT_READER,
): AdaptiveCardAttachment {
  const title = clip(data.teamName, 200);
  const team = markdownText(title);
  const common = {
    teamId: data.teamId,
    since: data.since,
    teamUrl: webAddress(data.teamUrl),
    note: '',
    fallback: say(reader, 'ownerless.fallback', { team: title }),
    labels: {
      becomeOwner: say(reader, 'ownerless.becomeOwner'),
      openTeam: say(reader, 'action.openTeam'),
    },
  };
  if (data.steppedUp || data.notNeeded) {
    const name = clip(data.steppedUp?.name || say(reader, 'ownerless.anotherMember'), 120);
    const message = !data.steppedUp
      ? say(reader, 'ownerless.notNeeded', { team })
      : data.steppedUp.self
        ? say(reader, 'ownerless.youSteppedUp', { team })
        : say(reader, 'ownerless.steppedUp', { name, team });
    return renderCard('ownerlessCard', ownerlessCardTemplate, {
      ...common,
      title: say(reader, 'ownerless.steppedUpTitle', { team: title }),
      headerStyle: 'good',
      message,
      canStepUp: false,
    });
  }
  const governance = data.kind === 'governance';
  const messageKey = governance
    ? data.someOwners
      ? 'ownerless.governanceFew'
      : 'ownerless.governance'
    : data.someOwners
      ? 'ownerless.askFew'
      : 'ownerless.ask';
  return renderCard('ownerlessCard', ownerlessCardTemplate, {
    ...common,
    title: say(reader, data.someOwners ? 'ownerless.titleFew' : 'ownerless.title', { team: title }),
    headerStyle: governance ? 'attention' : 'warning',
    message: say(reader, messageKey, { team }),
    canStepUp: !governance,
  });
}
