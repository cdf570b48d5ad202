import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import type { StewardOverrides } from '../../../src/main';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from '../../support/databases';
import { PEOPLE, startTestSteward, TENANT, type TestSteward } from '../../support/steward';
import { cardOf, FakeConnector, type SentCard, verbsOf } from './fakeConnector';

/** A person of the seeded directory, as Teams would present them to the bot. */
export interface TeamsPerson {
  aadObjectId: string;
  name: string;
  /** Their Teams user id. */
  teamsId: string;
  /** Their 1:1 conversation with the bot. */
  conversationId: string;
}

const person = (key: string, aadObjectId: string, name: string): TeamsPerson => ({
  aadObjectId,
  name,
  teamsId: `29:${key}-teams-id`,
  conversationId: `a:personal-${key}`,
});

export const ALEX = person('alex', PEOPLE.alex, 'Alex Wilber');
export const ADELE = person('adele', PEOPLE.adele, 'Adele Vance');
export const SIOBHAN = person('siobhan', '00000000-0000-0000-0000-000000000034', "Siobhán O'Connor");
export const MEGAN = person('megan', PEOPLE.megan, 'Megan Bowen');
export const LYNNE = person('lynne', PEOPLE.lynne, 'Lynne Robbins');
export const ISAIAH = person('isaiah', PEOPLE.isaiah, 'Isaiah Langer');
/** Someone the directory does not know. */
export const STRANGER = person('stranger', '99999999-0000-0000-0000-000000000099', 'Stranger Danger');

export const BOT = { id: '28:steward-bot', name: 'Steward' };

/** The answer of `POST /api/messages`. */
export interface BotAnswer {
  status: number;
  body: { statusCode?: number; type?: string; value?: unknown } | undefined;
}

/** Steward all-in-one on loopback with its bot, a fake Bot Connector, and helpers to talk to the bot. */
export interface BotHarness {
  steward: TestSteward;
  connector: FakeConnector;
  database: TestDatabase;
  /** Sends an activity to `POST /api/messages` as `from`. */
  send(from: TeamsPerson, activity: Record<string, unknown>): Promise<BotAnswer>;
  /** A text message. */
  say(from: TeamsPerson, text: string): Promise<BotAnswer>;
  /** An `Action.Execute` on a card (`adaptiveCard/action` invoke). */
  execute(
    from: TeamsPerson,
    verb: string,
    data: Record<string, unknown>,
    replyToId?: string,
  ): Promise<BotAnswer>;
  /**
   * Sends `message` as `from` (a text message when a string, else the activity); resolves to the
   * last card the bot then posted to them.
   */
  reply(from: TeamsPerson, message: string | Record<string, unknown>): Promise<SentCard>;
  /** The card of an invoke answer that replaces the card in place. */
  cardOfAnswer(answer: BotAnswer): SentCard;
  /** The last card the bot posted in `who`'s conversation since `from`. */
  lastCard(who: TeamsPerson, from?: number): { card: SentCard; activityId: string };
  /**
   * The progress card the bot posted to `who` since `from` (the first one): not the last card, as an
   * earlier request ending meanwhile posts its own message in the same chat.
   */
  progressCard(who: TeamsPerson, from?: number): { card: SentCard; activityId: string };
  close(): Promise<void>;
}

/** Starts the harness on a fresh database of `kind`. */
export async function startBotHarness(
  kind: DatabaseKind = 'sqlite',
  env: Record<string, string> = {},
  overrides: StewardOverrides = {},
  reuse?: { database: TestDatabase; connector: FakeConnector },
  logLines?: Array<Record<string, unknown>>,
): Promise<BotHarness> {
  const database = reuse?.database ?? (await createTestDatabase(kind));
  const connector = reuse?.connector ?? new FakeConnector();
  if (!reuse) await connector.start();
  const steward = await startTestSteward(
    database,
    {
      STEWARD_BOT_ENABLED: 'true',
      STEWARD_BOT_POLL_MS: '100',
      STEWARD_BOT_POLL_MAX_MS: '400',
      STEWARD_WEBHOOK_RETRY_DELAY_MS: '100',
      STEWARD_WORKER_CONCURRENCY: '2',
      STEWARD_JOB_POLL_MS: '50',
      STEWARD_LOG_LEVEL: process.env.STEWARD_TEST_LOG_LEVEL ?? 'silent',
      ...env,
    },
    overrides,
    logLines,
  );
  const send = async (from: TeamsPerson, activity: Record<string, unknown>): Promise<BotAnswer> => {
    const body = {
      id: randomUUID(),
      channelId: 'msteams',
      serviceUrl: connector.url,
      timestamp: new Date().toISOString(),
      from: { id: from.teamsId, name: from.name, aadObjectId: from.aadObjectId },
      recipient: BOT,
      conversation: { id: from.conversationId, conversationType: 'personal', tenantId: TENANT },
      channelData: { tenant: { id: TENANT } },
      locale: 'en-US',
      ...activity,
    };
    const res = await request(`${steward.url}/api/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.body.text();
    return { status: res.statusCode, body: text ? JSON.parse(text) : undefined };
  };
  const lastCard = (who: TeamsPerson, from = 0) => {
    const messages = connector.messages(who.conversationId, from).filter((m) => cardOf(m.body));
    const last = messages[messages.length - 1];
    if (!last) throw new Error(`no card was posted to ${who.name}`);
    return { card: cardOf(last.body)!, activityId: last.activityId };
  };
  return {
    steward,
    connector,
    database,
    send,
    say: (from, text) => send(from, { type: 'message', text }),
    execute: (from, verb, data, replyToId) =>
      send(from, {
        type: 'invoke',
        name: 'adaptiveCard/action',
        replyToId,
        value: { action: { type: 'Action.Execute', verb, data } },
      }),
    async reply(from, message) {
      const mark = connector.sent.length;
      await send(from, typeof message === 'string' ? { type: 'message', text: message } : message);
      return lastCard(from, mark).card;
    },
    cardOfAnswer(answer) {
      expect(answer.status).toBe(200);
      expect(answer.body?.type).toBe('application/vnd.microsoft.card.adaptive');
      return answer.body!.value as SentCard;
    },
    lastCard,
    progressCard(who, from = 0) {
      const posted = connector
        .messages(who.conversationId, from)
        .find((m) => verbsOf(cardOf(m.body)).includes('showStatus'));
      if (!posted) throw new Error(`no progress card was posted to ${who.name}`);
      return { card: cardOf(posted.body)!, activityId: posted.activityId };
    },
    async close() {
      await steward.close();
      if (!reuse) {
        await connector.close();
        await database.drop();
      }
    },
  };
}

/** A database and a fake connector that outlive the bots a suite starts on them, across restarts. */
export interface BotRestarts {
  /** The suite's database (once `beforeAll` ran). */
  readonly database: TestDatabase;
  /** The suite's connector (listening once `beforeAll` ran). */
  readonly connector: FakeConnector;
}

/**
 * "Bots restarted on one database": call it inside `describe`. Before the suite it creates the
 * database and starts the connector; after it, it closes the bot `current()` names (the last one a
 * test started), the connector and the database. Pass it as `reuse` to {@link startBotHarness}.
 */
export function botRestarts(kind: DatabaseKind, current: () => BotHarness | undefined): BotRestarts {
  const connector = new FakeConnector();
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    [database] = await Promise.all([createTestDatabase(kind), connector.start()]);
  });
  afterAll(async () => {
    await current()?.close();
    await Promise.all([connector.close(), database?.drop()]);
  });
  return {
    get database() {
      if (!database) throw new Error('the database is created in beforeAll: use it in tests');
      return database;
    },
    connector,
  };
}

/**
 * Starts the harness with both approvers of the approval templates already in touch with the
 * bot, so their approval cards go to their own chats.
 */
export async function startWithApprovers(kind: DatabaseKind): Promise<BotHarness> {
  const bot = await startBotHarness(kind);
  await bot.say(ADELE, 'help');
  await bot.say(SIOBHAN, 'help');
  return bot;
}
