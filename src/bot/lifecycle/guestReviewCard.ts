import { DEFAULT_READER, namesIn, type Reader, say } from '../i18n/catalog';
import { type AdaptiveCardAttachment, renderCard } from '../cards/adaptiveCard';
import { clip, markdownText, teamsDateTime, webAddress } from '../cards/cardText';
import guestReviewCardTemplate from './guestReviewCard.json';

/** Guests one card lists: each is an input, and Teams refuses cards over 28 KB. */
export const GUESTS_ON_A_CARD = 40;

/** What the guest review card of a team shows. */
export interface GuestReviewCardData {
  teamId: string;
  teamName: string;
  /** The day the review was due: the review the card is about. */
  dueOn: string;
  /** The team's guests by name, in the order of the card's inputs (`guest0`, `guest1`…). */
  guests: readonly string[];
  teamUrl: string | null;
  /** Once an owner submitted: who, which day (YYYY-MM-DD), whether it is the reader, and what became of the guests. */
  review?: {
    by: string;
    self: boolean;
    on: string;
    removed: readonly string[];
    kept: readonly string[];
    /** When the next review is due (YYYY-MM-DD), if the policy asks for more. */
    nextOn: string | null;
  } | null;
}

/**
 * A calendar day as an instant for Teams' `{{DATE()}}`: noon UTC falls on the same day in every
 * time zone from UTC−11 to UTC+11, so each owner's client shows the day the API recorded.
 */
const middayOf = (day: string): string => `${day}T12:00:00Z`;

/** The input id of the `index`th guest on the card: ids, not names, so any name is safe. */
export const guestInputId = (index: number): string => `guest${index}`;

/**
 * The owners' guest review card: each guest with Keep / Remove and a Submit; once an owner
 * submitted, every owner's card says who reviewed, who was removed and who was kept.
 */
export function renderGuestReviewCard(
  data: GuestReviewCardData,
  reader: Reader = DEFAULT_READER,
): AdaptiveCardAttachment {
  const title = clip(data.teamName, 200);
  const team = markdownText(title);
  const names = (list: readonly string[]) =>
    list.length > 0
      ? namesIn(
          reader,
          list.map((n) => clip(n, 80)),
        )
      : say(reader, 'guestReview.nobody');
  const common = {
    teamId: data.teamId,
    dueOn: data.dueOn,
    teamUrl: webAddress(data.teamUrl),
    fallback: say(reader, 'guestReview.fallback', { team: title }),
    labels: {
      keep: say(reader, 'guestReview.keep'),
      remove: say(reader, 'guestReview.remove'),
      submit: say(reader, 'guestReview.submit'),
      removed: say(reader, 'guestReview.removed'),
      kept: say(reader, 'guestReview.kept'),
      openTeam: say(reader, 'action.openTeam'),
    },
  };
  const review = data.review;
  if (review) {
    const { date } = teamsDateTime(middayOf(review.on));
    const by = clip(review.by || say(reader, 'ownerless.anotherMember'), 120);
    return renderCard('guestReviewCard', guestReviewCardTemplate, {
      ...common,
      open: false,
      guests: [],
      title: say(reader, 'guestReview.reviewedTitle', { team: title }),
      headerStyle: 'good',
      message: review.self
        ? say(reader, 'guestReview.youReviewed', { team, date })
        : say(reader, 'guestReview.reviewed', { name: by, team, date }),
      removed: names(review.removed),
      kept: names(review.kept),
      note: review.nextOn
        ? say(reader, 'guestReview.nextOn', { day: teamsDateTime(middayOf(review.nextOn)).date })
        : '',
    });
  }
  const shown = data.guests.slice(0, GUESTS_ON_A_CARD);
  return renderCard('guestReviewCard', guestReviewCardTemplate, {
    ...common,
    open: true,
    guests: shown.map((name, index) => ({ inputId: guestInputId(index), name: clip(name, 120) })),
    title: say(reader, 'guestReview.title', { team: title }),
    headerStyle: 'warning',
    message:
      data.guests.length === 1
        ? say(reader, 'guestReview.askOne', { team })
        : say(reader, 'guestReview.askMany', { team, count: data.guests.length }),
    removed: '',
    kept: '',
    note:
      data.guests.length > shown.length ? say(reader, 'guestReview.firstOnly', { shown: shown.length }) : '',
  });
}
