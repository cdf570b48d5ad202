import type { Storage } from 'botbuilder';
import type { PostedCard } from '../../../src/bot/messenger';
import { type NoticeRecord, NoticeRecords } from '../../../src/bot/lifecycle/lifecycleRecords';
import {
  type GuestReviewRecord,
  LifecycleCardState,
  type OwnerlessRecord,
} from '../../../src/bot/lifecycle/lifecycleCardState';
import { BotStateRepository } from '../../../src/store/bot/botState';
import { databaseKinds } from '../../support/databases';
import { DAY, provisionTeam } from '../../support/lifecycle';
import { cardSaying, startLifecycleBot } from '../support/cardTurns';
import { redeliver } from '../support/redeliver';
import { cardOf, cardText } from '../support/fakeConnector';
import { ALEX, type BotHarness, startBotHarness } from '../support/botHarness';

/** How many owners the notice names: enough that two processes' writes to its record interleave. */
const OWNERS = 16;
const ownerIds = Array.from(
  { length: OWNERS },
  (_, i) => `10000000-0000-0000-0000-${String(i).padStart(12, '0')}`,
);

/**
 * Two bot processes on one database, writing the same card record at once: each is handed a notice
 * of the same team (the 30-day one to the first, the 7-day one to the second, as when Steward's
 * deliveries land on two processes behind a load balancer), and each posts a card to every owner
 * and adds it to the team's record. No card may be lost from the record: a renewal must reach every
 * card. The record's writes carry its eTag and are made again when the other process wrote first.
 */
describe.each(databaseKinds)('lifecycle card records written by two bot processes, on %s', (kind) => {
  let first: BotHarness;
  let second: BotHarness;

  beforeAll(async () => {
    first = await startLifecycleBot(kind, () => 0, { english: [ALEX] }, ['renewable']);
    second = await startBotHarness(
      kind,
      { STEWARD_LIFECYCLE_EVALUATION_AT: 'off' },
      { botWebhook: false },
      { database: first.database, connector: first.connector },
    );
  }, 60_000);
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('keeps every card two processes add to one record at once, and a renewal updates them all', async () => {
    const teamId = await provisionTeam(first.steward, 'renewable', 'Two Docks');
    const expiresOn = new Date(Date.now() + 30 * DAY).toISOString().slice(0, 10);
    const notice = (noticeDays: number) => ({
      event: 'team_expiring',
      team: { id: teamId, displayName: 'Two Docks' },
      lifecycle: { outcome: 'archive', expiresOn, noticeDays, ownerIds },
    });
    const mark = first.connector.sent.length;
    await Promise.all([
      redeliver(first.steward, 'team_expiring', notice(30)),
      redeliver(second.steward, 'team_expiring', notice(7)),
    ]);

    const posted = first.connector.sent
      .slice(mark)
      .filter((s) => s.kind === 'send' && cardText(cardOf(s.body)).includes('Two Docks'));
    expect(posted).toHaveLength(2 * OWNERS);
    const row = await first.steward.steward.store.db
      .selectFrom('bot_state')
      .select('value')
      .where('key', '=', `lifecycle/renewal/${teamId}`)
      .executeTakeFirstOrThrow();
    const record = JSON.parse(row.value) as {
      cards: Array<{ posted: { activityId: string } }>;
      posted: string[];
    };
    expect(record.cards.map((card) => card.posted.activityId).sort()).toEqual(
      posted.map((s) => s.activityId).sort(),
    );
    expect(record.posted).toHaveLength(2 * OWNERS);

    // Renewed (on the second process): every card of both notices says so.
    await redeliver(second.steward, 'team_renewed', {
      event: 'team_renewed',
      team: { id: teamId, displayName: 'Two Docks' },
      requester: { id: ALEX.aadObjectId, displayName: 'Alex Wilber' },
      lifecycle: { expiresOn: '2099-01-01', renewals: 1 },
    });
    for (const { activityId } of posted) await cardSaying(first.connector, activityId, /Alex Wilber renewed/);
  }, 90_000);

  /**
   * The race made certain: the first process reads a record and is held there while the second
   * writes it; the first's change must then be made again to what the second wrote, not over it.
   */
  it.each(['renewal notice', 'ownerless', 'guest review'])(
    'makes a change to the %s record again when another process wrote it between the read and the write',
    async (what) => {
      const teamId = `interleaved-${what.replace(' ', '-')}`;
      const mine = new BotStateRepository(first.steward.steward.store.db);
      const theirs = new BotStateRepository(second.steward.steward.store.db);
      let heldRead!: () => void;
      const readHeld = new Promise<void>((resolve) => (heldRead = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let reads = 0;
      const held: Storage = {
        read: async (keys) => {
          const items = await mine.read(keys);
          if (++reads === 1) {
            heldRead();
            await released;
          }
          return items;
        },
        write: (changes) => mine.write(changes),
        delete: (keys) => mine.delete(keys),
      };
      const records = recordsOf(what, teamId);
      await records.add(theirs, 'nobody-yet');
      const change = records.add(held, 'first-process');
      await readHeld;
      await records.add(theirs, 'second-process');
      release();
      await change;
      expect(await records.added(mine)).toEqual(['first-process', 'nobody-yet', 'second-process']);
    },
  );
});

/** One kind of card record, through the bot's own record classes: adding a person's card, and whose cards it has. */
function recordsOf(what: string, teamId: string) {
  const posted: PostedCard = { reference: {}, activityId: 'activity' };
  if (what === 'renewal notice') {
    const base: NoticeRecord = {
      teamId,
      teamName: teamId,
      about: '2030-01-01',
      renewDays: 365,
      onExpiry: 'archive',
      cards: [],
      posted: [],
      declined: {},
      answer: null,
    };
    return {
      add: (storage: Storage, ownerId: string) =>
        new NoticeRecords(storage).update('renewal', teamId, (latest) => ({
          ...(latest ?? base),
          cards: [...(latest ?? base).cards, { ownerId, posted }],
        })),
      added: async (storage: Storage) =>
        ((await new NoticeRecords(storage).get('renewal', teamId))?.cards ?? []).map((c) => c.ownerId).sort(),
    };
  }
  if (what === 'ownerless') {
    const base: OwnerlessRecord = {
      teamId,
      teamName: teamId,
      since: '2030-01-01',
      kind: 'ask',
      someOwners: false,
      teamUrl: null,
      cards: {},
      steppedUp: null,
    };
    return {
      add: (storage: Storage, personId: string) =>
        new LifecycleCardState(storage).updateOwnerless('ask', base.since, teamId, (latest) => ({
          ...(latest ?? base),
          cards: { ...(latest ?? base).cards, [personId]: posted },
        })),
      added: async (storage: Storage) =>
        Object.keys(
          (await new LifecycleCardState(storage).ownerless('ask', base.since, teamId))?.cards ?? {},
        ).sort(),
    };
  }
  const base: GuestReviewRecord = {
    teamId,
    teamName: teamId,
    dueOn: '2030-01-01',
    guests: [],
    teamUrl: null,
    cards: {},
    review: null,
  };
  return {
    add: (storage: Storage, personId: string) =>
      new LifecycleCardState(storage).updateGuestReview(base.dueOn, teamId, (latest) => ({
        ...(latest ?? base),
        cards: { ...(latest ?? base).cards, [personId]: posted },
      })),
    added: async (storage: Storage) =>
      Object.keys(
        (await new LifecycleCardState(storage).guestReview(base.dueOn, teamId))?.cards ?? {},
      ).sort(),
  };
}
