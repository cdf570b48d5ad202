import type { DatabaseKind } from '../../support/databases';
import type { BotHarness } from './botHarness';
import { LIFECYCLE_TEMPLATES, type Readers, startLifecycleBot } from './cardTurns';

/** The bot a whole suite shares, read through as the harness it started, with Steward's clock to move. */
export interface SuiteBot extends BotHarness {
  /** Sets how far Steward's clock is ahead of now, in ms (back to 0 after each test). */
  moveBy(ms: number): void;
}

/**
 * "One bot for the suite": call it inside `describe`. Before the suite it runs `start`, which gets
 * how far the tests moved Steward's clock (pass `() => Date.now() + offset()` as the `clock`
 * override, or the offset to `startLifecycleBot`); after each test it puts the clock back; after
 * the suite it closes the harness. The object it returns is the harness once started, so tests
 * read `bot.steward`, `bot.connector` and call `bot.say(…)` as on the harness itself.
 */
export function suiteBot(
  start: (offset: () => number) => Promise<BotHarness>,
  timeoutMs = 120_000,
): SuiteBot {
  let bot: BotHarness | undefined;
  let offset = 0;
  beforeAll(async () => {
    bot = await start(() => offset);
  }, timeoutMs);
  afterEach(() => {
    offset = 0;
  });
  afterAll(() => bot?.close());
  const started = (): BotHarness => {
    if (!bot) throw new Error('the suite bot starts in beforeAll: use it in tests');
    return bot;
  };
  return {
    get steward() {
      return started().steward;
    },
    get connector() {
      return started().connector;
    },
    get database() {
      return started().database;
    },
    send: (from, activity) => started().send(from, activity),
    say: (from, text) => started().say(from, text),
    execute: (from, verb, data, replyToId) => started().execute(from, verb, data, replyToId),
    reply: (from, message) => started().reply(from, message),
    cardOfAnswer: (answer) => started().cardOfAnswer(answer),
    lastCard: (who, from) => started().lastCard(who, from),
    progressCard: (who, from) => started().progressCard(who, from),
    close: () => started().close(),
    moveBy: (ms) => {
      offset = ms;
    },
  };
}

/**
 * {@link suiteBot} of {@link startLifecycleBot}: the bot on a fresh database of `kind`, on the
 * suite's moved clock, with `people` greeted in their language and the `templates` saved.
 */
export function suiteLifecycleBot(
  kind: DatabaseKind,
  people: Readers,
  templates: Array<keyof typeof LIFECYCLE_TEMPLATES>,
): SuiteBot {
  return suiteBot((offset) => startLifecycleBot(kind, offset, people, templates));
}
