import { HookRepository } from '../../../src/store/webhooks/hooks';

import { databaseKinds, suiteStorePair } from '../../support/databases';

/**
 * A hook's streak of failed deliveries, counted by two stores on one database as two worker
 * processes count it. Each worker takes its time before it waits for the hook's row, so the one
 * that counts second may hold the earlier time: the deactivation it records must still come after
 * the other worker's failure in the audit trail.
 */
describe.each(databaseKinds)('failed deliveries of a hook (%s)', (kind) => {
  const pair = suiteStorePair(kind);

  test('the deactivation is timed no earlier than any failure counted before it', async () => {
    const [one, two] = pair.each((store) => new HookRepository(store.db));
    const created = '2026-11-24T10:00:00.000Z';
    await one.insert({
      id: 'hook-1',
      name: 'Receiver',
      description: null,
      active: true,
      events: ['team_created'],
      url: 'https://receiver.example/hook',
      contentType: 'json',
      secret: null,
      secretSealed: true,
      scope: 'tenant',
      templateId: null,
      consecutiveFailures: 0,
      createdBy: 'someone',
      creatorKind: 'app',
      createdAt: created,
      updatedAt: created,
    });
    const later = new Date('2026-11-24T10:00:05.000Z');
    const earlier = new Date('2026-11-24T10:00:04.000Z');
    const first = await pair
      .stores()[0]
      .db.transaction()
      .execute((trx) => one.noteFailure('hook-1', 2, later, trx));
    expect(first).toEqual({ consecutiveFailures: 1, deactivated: false, at: later });
    const second = await pair
      .stores()[1]
      .db.transaction()
      .execute((trx) => two.noteFailure('hook-1', 2, earlier, trx));
    expect(second).toEqual({ consecutiveFailures: 2, deactivated: true, at: later });
    expect(await one.get('hook-1')).toMatchObject({
      active: false,
      consecutiveFailures: 2,
      updatedAt: later.toISOString(),
    });
    // A third failure (a delivery already in flight) counts, and does not turn the hook inactive twice.
    const third = await pair
      .stores()[1]
      .db.transaction()
      .execute((trx) => two.noteFailure('hook-1', 2, new Date('2026-11-24T10:00:06.000Z'), trx));
    expect(third).toMatchObject({ consecutiveFailures: 3, deactivated: false });
  });
});
