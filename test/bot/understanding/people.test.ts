import { directoryQueries, matchPeople } from '../../../src/bot/understanding/people';
import type { PersonMention } from '../../../src/bot/understanding/types';
import { DIRECTORY } from './fixtures';

const member = (text: string): PersonMention => ({ text, role: 'member' });
const namesOf = (text: string) =>
  matchPeople([member(text)], DIRECTORY)[0]!.matches.map((person) => person.displayName);

describe('matching the people named against the directory', () => {
  it('finds a person by full name, first name, surname or mail', () => {
    expect(namesOf('Adele Vance')).toEqual(['Adele Vance']);
    expect(namesOf('Isaiah')).toEqual(['Isaiah Langer']);
    expect(namesOf('Robbins')).toEqual(['Lynne Robbins']);
    expect(namesOf('meganb@example.com')).toEqual(['Megan Bowen']);
    expect(namesOf('zoe.lefevre@contoso.fr')).toEqual(['Zoé Lefèvre']);
  });

  it('ignores accents, case and apostrophes', () => {
    expect(namesOf('zoe lefevre')).toEqual(['Zoé Lefèvre']);
    expect(namesOf('HELENE DUPRE')).toEqual(['Hélène Dupré']);
    expect(namesOf('Siobhan OConnor')).toEqual(["Siobhán O'Connor"]);
    expect(namesOf('Jurgen Gross')).toEqual(['Jürgen Groß']);
  });

  it('tolerates typos', () => {
    expect(namesOf('Adel Vanse')).toEqual(['Adele Vance']);
    expect(namesOf('Isiah')).toEqual(['Isaiah Langer']);
    expect(namesOf('Katarina Schafer')).toEqual(['Katharina Schäfer']);
    expect(namesOf('Raghunatan')).toEqual(['Priya Raghunathan']);
  });

  it('reports a name several people share as ambiguous, and an unknown one as unknown', () => {
    const [fernandez, nobody, exact] = matchPeople(
      [member('Fernandez'), member('Zebulon Quist'), member('Patti Fernandez')],
      DIRECTORY,
    );
    expect(fernandez!.ambiguous).toBe(true);
    expect(fernandez!.matches.map((person) => person.displayName).sort()).toEqual([
      'Lucía Fernández Ruiz',
      'Patti Fernandez',
    ]);
    expect(nobody).toMatchObject({ matches: [], ambiguous: false });
    expect(exact).toMatchObject({ ambiguous: false, matches: [{ displayName: 'Patti Fernandez' }] });
  });

  it('reads a first name shared by two people as ambiguous', () => {
    const directory = [
      ...DIRECTORY,
      { id: 'x-1', displayName: 'Adele Martin', mail: 'adele.martin@contoso.com' },
    ];
    const [adele] = matchPeople([member('Adele')], directory);
    expect(adele!.ambiguous).toBe(true);
    expect(adele!.matches.map((person) => person.displayName).sort()).toEqual([
      'Adele Martin',
      'Adele Vance',
    ]);
  });

  it('keeps the mention and its role, and survives long or empty names', () => {
    const [owner, long, empty] = matchPeople(
      [{ text: 'Megan', role: 'owner' }, member('a'.repeat(10_000)), member('  ')],
      DIRECTORY,
    );
    expect(owner).toMatchObject({
      mention: { text: 'Megan', role: 'owner' },
      matches: [{ displayName: 'Megan Bowen' }],
    });
    expect(long!.matches).toEqual([]);
    expect(empty!.matches).toEqual([]);
  });
});

describe('what to ask a directory that searches by prefix', () => {
  it('asks for the name and the first letters of each word, so a typo still finds its candidates', () => {
    expect(directoryQueries(member('Isiah Langr'))).toEqual(['Isiah Langr', 'Isi', 'Lan']);
    expect(directoryQueries(member('Élodie'))).toEqual(['Élodie', 'Élo', 'Elo']);
    expect(directoryQueries(member('megan.bowen@contoso.com'))).toEqual([
      'megan.bowen@contoso.com',
      'megan.bowen',
    ]);
    expect(directoryQueries(member(''))).toEqual([]);
  });

  it('finds the typo’d person among what the prefixes return', () => {
    // Like Graph's $search on displayName: a query matches the start of any word of the name.
    const returned = DIRECTORY.filter((person) =>
      directoryQueries(member('Isiah Langr')).some((query) =>
        person.displayName
          .toLowerCase()
          .split(' ')
          .some((word) => word.startsWith(query.toLowerCase())),
      ),
    );
    expect(returned.length).toBeGreaterThan(0);
    expect(
      matchPeople([member('Isiah Langr')], returned)[0]!.matches.map((person) => person.displayName),
    ).toEqual(['Isaiah Langer']);
  });
});
