import { englishOn, readTexts } from './englishLeaks';
import { actionData, cardOf, cardText, type FakeConnector, type SentCard } from './fakeConnector';
import type { LifecyclePolicyInput } from '../../../src/contract';
import type { DatabaseKind } from '../../support/databases';
import { lifecycleTemplate } from '../../support/lifecycle';
import { ALEX, type BotAnswer, type BotHarness, startBotHarness, type TeamsPerson } from './botHarness';

/** How a French and an English Teams client describe their reader on each activity. */
export const FRENCH = { locale: 'fr-FR', localTimezone: 'Europe/Paris' };
export const ENGLISH = { locale: 'en-US', localTimezone: 'UTC' };

/** A posted card as it reads now, once `pattern` is on it (it may be updated in place meanwhile). */
export function cardSaying(
  connector: FakeConnector,
  activityId: string,
  pattern: RegExp,
  timeoutMs = 20_000,
): Promise<SentCard> {
  return connector.waitFor(() => {
    const card = connector.currentCard(activityId);
    return card && pattern.test(cardText(card)) ? card : undefined;
  }, timeoutMs);
}

/** The card posted to `who` since `mark` whose text matches `pattern`. */
export function cardPostedTo(connector: FakeConnector, who: TeamsPerson, mark: number, pattern: RegExp) {
  return connector.waitFor(
    () =>
      connector
        .messages(who.conversationId, mark)
        .find((m) => cardOf(m.body) && pattern.test(cardText(cardOf(m.body)))),
    20_000,
  );
}

/** Presses `verb` with `data` (as a card would send it) on the message `replyToId`, as `who`, in their language. */
export function pressWith(
  bot: BotHarness,
  who: TeamsPerson,
  verb: string,
  data: Record<string, unknown>,
  replyToId: string,
  locale: object = ENGLISH,
): Promise<BotAnswer> {
  return bot.send(who, {
    type: 'invoke',
    name: 'adaptiveCard/action',
    replyToId,
    value: { action: { type: 'Action.Execute', verb, data } },
    ...locale,
  });
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

/** The lifecycle policies the card tests' templates use, by template id. */
export const LIFECYCLE_TEMPLATES = {
  renewable: { expiration: { enabled: true, days: 365, renewalNoticeDays: [30, 7], onExpiry: 'archive' } },
  dormant: { inactivity: { enabled: true, days: 30, onInactive: 'notify' } },
  'dormant-archived': { inactivity: { enabled: true, days: 30, onInactive: 'archive' } },
  'ask-members': {
    ownership: { minimumOwners: 2, onOwnerless: 'askMembers' },
    guestReview: { enabled: true, everyDays: 90 },
  },
} satisfies Record<string, LifecyclePolicyInput>;

/**
 * The bot on a fresh database of `kind`, Steward's clock `offset()` ms ahead and evaluations run
 * only on request, with `people` already in touch (each in their language) and the templates
 * `templates` (of {@link LIFECYCLE_TEMPLATES}).
 */
export async function startLifecycleBot(
  kind: DatabaseKind,
  offset: () => number,
  people: Array<[TeamsPerson, typeof ENGLISH]>,
  templates: Array<keyof typeof LIFECYCLE_TEMPLATES>,
): Promise<BotHarness> {
  const bot = await startBotHarness(
    kind,
    { STEWARD_JOB_POLL_MS: '25', STEWARD_LIFECYCLE_EVALUATION_AT: 'off' },
    { clock: () => Date.now() + offset() },
  );
  for (const [person, locale] of people)
    await bot.send(person, { type: 'message', text: locale === FRENCH ? 'bonjour' : 'help', ...locale });
  for (const id of templates) await lifecycleTemplate(bot.steward, id, LIFECYCLE_TEMPLATES[id]);
  return bot;
}

/**
 * Two bot processes on one database and one Bot Connector, as behind a load balancer: the first as
 * `startLifecycleBot` makes it (Alex reached, `templates` made), the second beside it.
 */
export async function startTwoLifecycleBots(
  kind: DatabaseKind,
  templates: Array<keyof typeof LIFECYCLE_TEMPLATES>,
): Promise<[BotHarness, BotHarness]> {
  const first = await startLifecycleBot(kind, () => 0, [[ALEX, ENGLISH]], templates);
  const second = await startBotHarness(
    kind,
    { STEWARD_LIFECYCLE_EVALUATION_AT: 'off' },
    { botWebhook: false },
    { database: first.database, connector: first.connector },
  );
  return [first, second];
}
