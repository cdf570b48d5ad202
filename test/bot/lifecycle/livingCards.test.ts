import { randomUUID } from 'node:crypto';
import { databaseKinds } from '../../support/databases';
import { DAY } from '../../support/lifecycle';
import { ALEX, type BotHarness } from '../support/botHarness';
import { startTwoLifecycleBots } from '../support/cardTurns';
import { cardOf, cardText, type Sent, verbsOf } from '../support/fakeConnector';
import { redeliver } from '../support/redeliver';

/** Enough owners that the two processes' postings interleave. */
const OWNERS = 12;

/**
 * One living lifecycle card per owner and team, whichever bot process handles which notice: a later
 * card of the same notice does not double the one an owner has, and a notice of the other kind
 * waits until theirs is answered, then follows. Two bot processes on one database are each handed
 * one notice at once, as when Steward's deliveries land on two processes behind a load balancer.
 */
describe.each(databaseKinds)('one living lifecycle card per owner and team, on %s', (kind) => {
  let first: BotHarness;
  let second: BotHarness;

  beforeAll(async () => {
    [first, second] = await startTwoLifecycleBots(kind, []);
  }, 60_000);
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  const day = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);
  const expiring =
    (noticeDays: number): Notice =>
    (teamId, name, ownerIds) => [
      'team_expiring',
      {
        event: 'team_expiring',
        team: { id: teamId, displayName: name },
        lifecycle: { outcome: 'archive', expiresOn: day(30), noticeDays, ownerIds },
      },
    ];
  const inactive: Notice = (teamId, name, ownerIds) => [
    'team_inactive',
    {
      event: 'team_inactive',
      team: { id: teamId, displayName: name },
      lifecycle: { outcome: 'notify', lastActivityDate: day(-90), ownerIds },
    },
  ];

  type Notice = (teamId: string, name: string, ownerIds: string[]) => [string, unknown];

  /**
   * Hands one notice about a new team `name` to each process at once, and checks that every owner
   * got exactly one card of the two.
   */
  async function oneCardEach(name: string, one: Notice, other: Notice) {
    const teamId = `living-${randomUUID()}`;
    const ownerIds = Array.from(
      { length: OWNERS },
      () => `20000000-0000-0000-0000-${randomUUID().slice(-12)}`,
    );
    const mark = first.connector.sent.length;
    await Promise.all([
      redeliver(first.steward, ...one(teamId, name, ownerIds)),
      redeliver(second.steward, ...other(teamId, name, ownerIds)),
    ]);
    const byOwner = cardsByOwner(name, mark);
    expect([...byOwner.keys()].sort()).toEqual([...ownerIds].sort());
    for (const cards of byOwner.values()) expect(cards).toHaveLength(1);
    return { teamId, ownerIds, mark };
  }

  /** The cards about `name` posted since `mark`, by the owner they went to. */
  function cardsByOwner(name: string, mark: number): Map<string, Sent[]> {
    const sent = first.connector.sent.slice(mark);
    const ownerOf = new Map<string, string>();
    for (const s of sent.filter((s) => s.kind === 'create')) {
      const [member] = (s.body.members ?? []) as Array<{ aadObjectId?: string; id?: string }>;
      ownerOf.set(s.conversationId, member?.aadObjectId ?? member?.id ?? '');
    }
    const byOwner = new Map<string, Sent[]>();
    for (const s of sent) {
      if (s.kind !== 'send' || !cardText(cardOf(s.body)).includes(name)) continue;
      const owner = ownerOf.get(s.conversationId) ?? s.conversationId;
      byOwner.set(owner, [...(byOwner.get(owner) ?? []), s]);
    }
    return byOwner;
  }

  /** An owner's cards that still ask something (the others show an answer, with no button). */
  const living = (cards: Sent[]) =>
    cards.filter((s) =>
      verbsOf(first.connector.currentCard(s.activityId)).some((v) => v !== 'refreshLifecycleCard'),
    );

  it('posts one card per owner when the 30-day and the 7-day notice arrive at once', async () => {
    await oneCardEach('Quay', expiring(30), expiring(7));
  }, 60_000);

  it('holds an inactivity notice while the owner’s renewal card is open, and posts it once that is answered', async () => {
    const { teamId, ownerIds, mark } = await oneCardEach('Jetty', expiring(30), inactive);

    // Renewed: the renewal cards say so, and their owners now get the inactivity card that waited.
    await redeliver(second.steward, 'team_renewed', {
      event: 'team_renewed',
      team: { id: teamId, displayName: 'Jetty' },
      requester: { id: ALEX.aadObjectId, displayName: 'Alex Wilber' },
      lifecycle: { expiresOn: day(400), renewals: 1 },
    });
    const after = cardsByOwner('Jetty', mark);
    for (const ownerId of ownerIds) {
      const cards = after.get(ownerId) ?? [];
      const open = living(cards);
      expect(open).toHaveLength(1);
      expect(verbsOf(first.connector.currentCard(open[0]!.activityId))).toContain('keepTeam');
    }
  }, 60_000);
});
