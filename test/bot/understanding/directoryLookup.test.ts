import { StewardClient } from '../../../src/client';
import {
  type PeopleMatcher,
  plainQueries,
  resolvePeople,
} from '../../../src/bot/understanding/directoryLookup';
import type { PersonMention } from '../../../src/bot/understanding/types';
import { createTestDatabase, type TestDatabase } from '../../support/databases';
import { PEOPLE, startTestSteward, type TestSteward } from '../../support/steward';

/**
 * A trivial matcher for the test (the engine's own is not this): the people whose display name is
 * the mention or starts with it as a whole word or a prefix of their first name, case aside.
 */
const byName: PeopleMatcher = (mention, candidates) => {
  const wanted = mention.text.trim().toLowerCase();
  const matches = candidates.filter((person) => {
    const name = person.displayName.toLowerCase();
    return name === wanted || name.startsWith(wanted);
  });
  return { mention, matches, ambiguous: matches.length > 1 };
};

/** Asking the directory who people named in a message are: `GET /users?$search=` as the person, over HTTP. */
describe('resolvePeople', () => {
  let database: TestDatabase;
  let steward: TestSteward;
  let api: StewardClient;
  const searches: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    steward = await startTestSteward(database);
    const base = new StewardClient({ baseUrl: steward.url });
    const alex = base.as(await steward.userToken(PEOPLE.alex, [], { name: 'Alex Wilber' }));
    // The real client; each search it sends is noted, to count the calls.
    api = Object.assign(Object.create(alex) as StewardClient, {
      getUsers: (query: Parameters<StewardClient['getUsers']>[0] = {}) => {
        searches.push(String(query.search));
        return alex.getUsers(query);
      },
    });
  });
  afterAll(async () => {
    await steward?.close();
    await database?.drop();
  });
  beforeEach(() => {
    searches.length = 0;
  });

  const mention = (text: string, role: PersonMention['role'] = 'member'): PersonMention => ({ text, role });

  it('finds one person, several when the name fits several, none when the directory knows nobody', async () => {
    const found = await resolvePeople(
      api,
      [mention('Megan', 'owner'), mention('Luc'), mention('Zebulon Quux')],
      byName,
    );
    expect(
      found.map((match) => [match.mention.text, match.ambiguous, match.matches.map((p) => p.displayName)]),
    ).toEqual([
      ['Megan', false, ['Megan Bowen']],
      ['Luc', true, expect.arrayContaining(['Lucas Peeters', 'Lucía Fernández Ruiz'])],
      ['Zebulon Quux', false, []],
    ]);
    expect(found[1]!.matches).toHaveLength(2);
    expect(found[0]).toMatchObject({
      mention: { text: 'Megan', role: 'owner' },
      matches: [{ id: PEOPLE.megan, displayName: 'Megan Bowen', mail: expect.stringContaining('@') }],
    });
    // "Zebulon Quux" is searched whole, then by its first word.
    expect(searches).toEqual(['Megan', 'Luc', 'Zebulon Quux', 'Zebulon']);
  });

  it('finds a person by mail, sends a search repeated across mentions once, and none for a blank name', async () => {
    const found = await resolvePeople(
      api,
      [mention('meganb@example.com', 'owner'), mention('Megan'), mention('megan'), mention('   ')],
      (m, candidates) => ({
        mention: m,
        matches: candidates.filter((p) => p.mail === m.text || p.displayName.startsWith('Megan')),
        ambiguous: false,
      }),
    );
    expect(found.map((match) => match.matches.map((p) => p.displayName))).toEqual([
      ['Megan Bowen'],
      ['Megan Bowen'],
      ['Megan Bowen'],
      [],
    ]);
    expect(searches.sort()).toEqual(['Megan', 'meganb@example.com']);
  });

  it('looks up at most ten names of one message: any further one is unknown, with no call', async () => {
    const many = Array.from({ length: 12 }, () => mention('Adele'));
    const found = await resolvePeople(api, many, byName);
    expect(found.map((match) => match.matches.length)).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0]);
    expect(searches).toEqual(['Adele']);
  });

  it('sends what the engine asks for (its queries), within the search limit', async () => {
    const long = 'x'.repeat(300);
    await resolvePeople(api, [mention('Whoever')], byName, () => ['Ad', ' ad ', long, 'Meg']);
    // "Ad" and " ad " are one search; the long one is cut to the picker's 100 characters; three at most.
    expect(searches).toEqual(['Ad', 'x'.repeat(100), 'Meg']);
    expect(plainQueries(mention('Megan B.'))).toEqual(['Megan B.', 'Megan']);
  });
});
