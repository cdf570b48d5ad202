import { englishOn, readTexts } from './englishLeaks';
import { actionData, cardText, type FakeConnector, type SentCard } from './fakeConnector';
import type { BotAnswer, BotHarness, TeamsPerson } from './botHarness';

/** How a French and an English Teams client describe their reader on each activity. */
export const FRENCH = { locale: 'fr-FR', localTimezone: 'Europe/Paris' };
export const ENGLISH = { locale: 'en-US', localTimezone: 'UTC' };

/** A posted card as it reads now, once `pattern` is on it (it may be updated in place meanwhile). */
export function cardSaying(connector: FakeConnector, activityId: string, pattern: RegExp): Promise<SentCard> {
  return connector.waitFor(() => {
    const card = connector.currentCard(activityId);
    return card && pattern.test(cardText(card)) ? card : undefined;
  }, 20_000);
}

/** What a French reader reads on a card, with no sentence of the English catalog on it. */
export function frenchText(card: SentCard): string {
  expect(englishOn(card)).toEqual([]);
  return readTexts(card).join('\n');
}

/** Presses `verb` on the card `activityId` as it reads now, as `who`, in their language. */
export function pressOnCard(
  bot: BotHarness,
  who: TeamsPerson,
  activityId: string,
  verb: string,
  locale = ENGLISH,
): Promise<BotAnswer> {
  return bot.send(who, {
    type: 'invoke',
    name: 'adaptiveCard/action',
    replyToId: activityId,
    value: {
      action: { type: 'Action.Execute', verb, data: actionData(bot.connector.currentCard(activityId), verb) },
    },
    ...locale,
  });
}
