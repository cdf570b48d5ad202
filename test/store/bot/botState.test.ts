import { BotStateConflict, BotStateRepository } from '../../../src/store/bot/botState';
import { migrate, openStore, type Store } from '../../../src/store/database';
import {
  createTestDatabase,
  databaseKinds,
  storeOptionsOf,
  type TestDatabase,
} from '../../support/databases';

describe.each(databaseKinds)('bot state on %s', (kind) => {
  let db: TestDatabase;
  let store: Store;
  let state: BotStateRepository;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    store = openStore(storeOptionsOf(db));
    await migrate(store.db);
    state = new BotStateRepository(store.db);
  });
  afterAll(async () => {
    await store.close();
    await db.drop();
  });

  test('reads back what was written, with an eTag that changes on every write', async () => {
    await state.write({ 'conv/1': { dialogStack: [{ id: 'requestTeam' }], eTag: '*' } });
    const first = await state.read(['conv/1', 'conv/missing']);
    expect(Object.keys(first)).toEqual(['conv/1']);
    expect(first['conv/1']).toMatchObject({ dialogStack: [{ id: 'requestTeam' }], eTag: expect.any(String) });
    await state.write({ 'conv/1': { ...first['conv/1'], step: 2 } });
    const second = await state.read(['conv/1']);
    expect(second['conv/1']).toMatchObject({ step: 2 });
    expect(second['conv/1']!.eTag).not.toBe(first['conv/1']!.eTag);
  });

  test('a write with a stale eTag is refused and changes nothing, in any of the keys written with it', async () => {
    await state.write({ 'conv/2': { n: 1 }, 'conv/3': { n: 1 } });
    const read = await state.read(['conv/2', 'conv/3']);
    await state.write({ 'conv/2': { ...read['conv/2'], n: 2 } });
    await expect(
      state.write({ 'conv/3': { ...read['conv/3'], n: 3 }, 'conv/2': { ...read['conv/2'], n: 3 } }),
    ).rejects.toBeInstanceOf(BotStateConflict);
    const after = await state.read(['conv/2', 'conv/3']);
    expect([after['conv/2']!.n, after['conv/3']!.n]).toEqual([2, 1]);
    // `*` overwrites whatever is there.
    await state.write({ 'conv/2': { n: 4, eTag: '*' } });
    expect((await state.read(['conv/2']))['conv/2']!.n).toBe(4);
  });

  test('a state survives a new connection (a restarted bot) and can be deleted', async () => {
    await state.write({ 'references/u1': { conversation: { id: 'a:1' } } });
    const reopened = openStore(storeOptionsOf(db));
    try {
      const again = new BotStateRepository(reopened.db);
      expect((await again.read(['references/u1']))['references/u1']).toMatchObject({
        conversation: { id: 'a:1' },
      });
      await again.delete(['references/u1', 'never/there']);
      expect(await again.read(['references/u1'])).toEqual({});
    } finally {
      await reopened.close();
    }
  });

  test('lists the keys that begin with a prefix, in order, up to a limit; % and _ are plain characters', async () => {
    const keys = ['list/b', 'list/a', 'list/a/deeper', 'lisT/other', 'list0', 'lis', 'li%t/x', 'li_t/y'];
    await state.write(Object.fromEntries(keys.map((k) => [k, { eTag: '*' }])));
    expect(await state.keysStartingWith('list/', 10)).toEqual(['list/a', 'list/a/deeper', 'list/b']);
    expect(await state.keysStartingWith('list/', 2)).toEqual(['list/a', 'list/a/deeper']);
    expect(await state.keysStartingWith('li%t/', 10)).toEqual(['li%t/x']);
    expect(await state.keysStartingWith('li_t/', 10)).toEqual(['li_t/y']);
    expect(await state.keysStartingWith('nothing/', 10)).toEqual([]);
    await expect(state.keysStartingWith('', 10)).rejects.toBeInstanceOf(RangeError);
  });

  test('keys must be 1–512 characters', async () => {
    await expect(state.read([''])).rejects.toBeInstanceOf(RangeError);
    await expect(state.write({ ['k'.repeat(513)]: { a: 1 } })).rejects.toBeInstanceOf(RangeError);
  });
});
