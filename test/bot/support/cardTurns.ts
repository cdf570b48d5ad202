import { englishOn, readTexts } from './englishLeaks';
import {
  actionData,
  cardOf,
  cardText,
  type FakeConnector,
  type Sent,
  type SentCard,
  verbsOf,
} from './fakeConnector';
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

/** The first message posted to `who` since `mark` whose body `match` accepts, once there is one. */
export function postedTo(
  connector: FakeConnector,
  who: TeamsPerson,
  mark: number,
  match: (body: Record<string, unknown>) => unknown,
  timeoutMs = 20_000,
): Promise<Sent> {
  return connector.waitFor(
    () => connector.messages(who.conversationId, mark).find((m) => match(m.body)),
    timeoutMs,
  );
}

/** The card posted to `who` since `mark` whose text matches `pattern`. */
export function cardPostedTo(connector: FakeConnector, who: TeamsPerson, mark: number, pattern: RegExp) {
  return postedTo(connector, who, mark, (body) => cardOf(body) && pattern.test(cardText(cardOf(body))));
}

/** The card with the button `verb` about `team` (its text names it) posted to `who` since `mark`. */
export function cardWithVerb(
  connector: FakeConnector,
  who: TeamsPerson,
  verb: string,
  team: string,
  mark = 0,
  timeoutMs = 20_000,
): Promise<Sent> {
  return postedTo(
    connector,
    who,
    mark,
    (body) => verbsOf(body).includes(verb) && cardText(body).includes(team),
    timeoutMs,
  );
}

/** The text of a plain message posted to `who` since `mark` that matches `pattern`. */
export function textPostedTo(
  connector: FakeConnector,
  who: TeamsPerson,
  mark: number,
  pattern: RegExp,
  timeoutMs = 20_000,
): Promise<string> {
  return connector.waitFor(
    () =>
      connector
        .messages(who.conversationId, mark)
        .map((m) => String(m.body.text ?? ''))
        .find((text) => pattern.test(text)),
    timeoutMs,
  );
}

/** Presses `verb` with `data` (as a card would send it) on the message `replyToId`, as `who`, in their language. */
export function pressWith(
  bot: BotHarness,
  who: TeamsPerson,
  verb: string,
  data: Record<string, unknown>,
  replyToId: string | undefined,
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

/**
 * `who` requests a team in chat: picks `templateId`, then submits its form with `answers` (a name
 * at least), on the message `replyToId` when given, in `locale` when given. Resolves to what was
 * sent before (`mark`), the form, the card the submit was answered with, and the request's progress
 * card and job id.
 */
export async function requestInChat(
  bot: BotHarness,
  who: TeamsPerson,
  templateId: string,
  answers: Record<string, unknown>,
  replyToId?: string,
  locale: object = {},
) {
  const mark = bot.connector.sent.length;
  const form = bot.cardOfAnswer(await pressWith(bot, who, 'pickTemplate', { templateId }, undefined, locale));
  const submit = { ...actionData(form, 'submitRequest'), ...answers };
  const confirmation = bot.cardOfAnswer(
    await pressWith(bot, who, 'submitRequest', submit, replyToId, locale),
  );
  const progress = bot.progressCard(who, mark);
  return {
    mark,
    form,
    confirmation,
    progress,
    jobId: String(actionData(progress.card, 'showStatus')!.jobId),
  };
}

/** The first approval card (one with Approve) posted to `who` since `mark`. */
export function approvalCardTo(connector: FakeConnector, who: TeamsPerson, mark = 0): Promise<Sent> {
  return postedTo(connector, who, mark, (body) => verbsOf(body).includes('approve'));
}

/** What a French reader reads on a card, with no sentence of the English catalog on it. */
export function frenchText(card: SentCard): string {
  expect(englishOn(card)).toEqual([]);
  return readTexts(card).join('\n');
}

/**
 * The turns of a card suite on `bot`: `cardTo` (a card posted to someone, by its text), `cardSaying`
 * (a posted card once it reads so), `press` (a button pressed with its data, in the presser's
 * language) and `french` ({@link frenchText}).
 */
export function cardTurnsOf(bot: BotHarness) {
  return {
    cardTo: (who: TeamsPerson, mark: number, pattern: RegExp) =>
      cardPostedTo(bot.connector, who, mark, pattern),
    cardSaying: (activityId: string, pattern: RegExp) => cardSaying(bot.connector, activityId, pattern),
    press: (
      who: TeamsPerson,
      verb: string,
      data: Record<string, unknown>,
      replyToId: string,
      locale: object = ENGLISH,
    ) => pressWith(bot, who, verb, data, replyToId, locale),
    french: frenchText,
  };
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
  'tell-governance': { ownership: { minimumOwners: 2, onOwnerless: 'notifyGovernance' } },
} satisfies Record<string, LifecyclePolicyInput>;

/** People by the language their Teams client is set to. */
export interface Readers {
  english?: TeamsPerson[];
  french?: TeamsPerson[];
}

/**
 * `people` say hello to the bot, each in their language ("help", then "bonjour" in French), so that
 * it may write to them.
 */
export async function greet(bot: BotHarness, people: Readers): Promise<void> {
  for (const person of people.english ?? [])
    await bot.send(person, { type: 'message', text: 'help', ...ENGLISH });
  for (const person of people.french ?? [])
    await bot.send(person, { type: 'message', text: 'bonjour', ...FRENCH });
}

/**
 * The bot on a fresh database of `kind`, Steward's clock `offset()` ms ahead and evaluations run
 * only on request, with `people` already in touch (each in their language) and the templates
 * `templates` (of {@link LIFECYCLE_TEMPLATES}).
 */
export async function startLifecycleBot(
  kind: DatabaseKind,
  offset: () => number,
  people: Readers,
  templates: Array<keyof typeof LIFECYCLE_TEMPLATES>,
): Promise<BotHarness> {
  const bot = await startBotHarness(
    kind,
    { STEWARD_JOB_POLL_MS: '25', STEWARD_LIFECYCLE_EVALUATION_AT: 'off' },
    { clock: () => Date.now() + offset() },
  );
  await greet(bot, people);
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
  const first = await startLifecycleBot(kind, () => 0, { english: [ALEX] }, templates);
  const second = await startBotHarness(
    kind,
    { STEWARD_LIFECYCLE_EVALUATION_AT: 'off' },
    { botWebhook: false },
    { database: first.database, connector: first.connector },
  );
  return [first, second];
}
