import type { Labels, Users } from '../../../src/contract';
import { databaseKinds } from '../../support/databases';
import { PEOPLE, suiteSteward } from '../../support/steward';

describe.each(databaseKinds)('directory on %s', (kind) => {
  const suite = suiteSteward(kind, { people: { alex: { id: PEOPLE.alex } } });

  const pathOf = (link: string) => link.slice(link.indexOf('/api/v1.0'));

  test('users page with $top / $skip; following @odata.nextLink visits everyone once, in name order', async () => {
    const seen: string[] = [];
    let path: string | undefined = '/api/v1.0/users?$top=7';
    let total = 0;
    while (path) {
      const page: { body: Users } = await suite.app.call<Users>('GET', path, { token: suite.alex });
      expect(page.body.value.length).toBeLessThanOrEqual(7);
      total = page.body['@odata.count'];
      seen.push(...page.body.value.map((u) => u.displayName));
      path = page.body['@odata.nextLink'] ? pathOf(page.body['@odata.nextLink']) : undefined;
    }
    expect(total).toBeGreaterThanOrEqual(28);
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    const sorted = [...seen].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1));
    expect(seen).toEqual(sorted);
  });

  test('$search matches a prefix of display name, surname, mail or UPN, case-insensitively', async () => {
    const search = async (term: string) =>
      (
        await suite.app.call<Users>('GET', `/api/v1.0/users?$search=${encodeURIComponent(term)}`, {
          token: suite.alex,
        })
      ).body;
    expect((await search('ale')).value.map((u) => u.displayName)).toContain('Alex Wilber');
    expect((await search('WILB')).value.map((u) => u.displayName)).toEqual(['Alex Wilber']);
    expect((await search('isaiahl@')).value.map((u) => u.id)).toEqual([PEOPLE.isaiah]);
    expect((await search('"displayName:Adele"')).value.map((u) => u.id)).toEqual([PEOPLE.adele]);
    const none = await search('%');
    expect(none.value).toEqual([]);
    expect(none['@odata.count']).toBe(0);
    expect((await search('_')).value).toEqual([]);
  });

  test('a search result pages and links with its search term', async () => {
    const first = await suite.app.call<Users>('GET', '/api/v1.0/users?$search=a&$top=1', {
      token: suite.alex,
    });
    expect(first.body['@odata.count']).toBeGreaterThan(1);
    const next = first.body['@odata.nextLink']!;
    expect(next).toContain('%24search=a');
    const second = await suite.app.call<Users>('GET', pathOf(next), { token: suite.alex });
    expect(second.body.value[0]!.id).not.toBe(first.body.value[0]!.id);
  });

  test.each([['$top=0'], ['$top=1000'], ['$top=abc'], ['$skip=-1'], [`$search=${'x'.repeat(300)}`]])(
    'bad paging %s is 400',
    async (query) => {
      const res = await suite.app.call('GET', `/api/v1.0/users?${query}`, { token: suite.alex });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        error: { code: 'validationFailed', details: [{ target: expect.stringMatching(/^query\./) }] },
      });
    },
  );

  test('an app token may not list people as "a user" (403)', async () => {
    const token = await suite.app.appToken('automation-app', ['AUTHORIZED_APP']);
    expect((await suite.app.call('GET', '/api/v1.0/users', { token })).status).toBe(403);
  });

  test('labels: active ones everyone may apply, plus those scoped to the caller’s groups', async () => {
    const names = async (id: string) =>
      (
        await suite.app.call<Labels>('GET', '/api/v1.0/me/labels', { token: await suite.app.userToken(id) })
      ).body.value.map((l) => l.name);
    const alexLabels = await names(PEOPLE.alex);
    expect(alexLabels).toEqual(
      expect.arrayContaining(['Public', 'General', 'Confidential', 'All Employees']),
    );
    expect(alexLabels).not.toContain('Highly Confidential');
    expect(alexLabels).not.toContain('Personal'); // inactive
    const adeleLabels = await names(PEOPLE.adele); // Legal & Compliance
    expect(adeleLabels).toEqual(expect.arrayContaining(['Highly Confidential', 'Specified People']));
    const labels = (await suite.app.call<Labels>('GET', '/api/v1.0/me/labels', { token: suite.alex })).body
      .value;
    // `parent` is the parent label's id, a string, as the public definition has it.
    const confidential = labels.find((l) => l.name === 'Confidential')!;
    expect(labels.find((l) => l.name === 'All Employees')?.parent).toBe(confidential.id);
    // As people know a sub-label: under its parent (an extension).
    expect(labels.find((l) => l.name === 'All Employees')?.fullName).toBe('Confidential / All Employees');
    expect(confidential.fullName).toBe('Confidential');
    expect(typeof confidential.id).toBe('string');
    expect(confidential.parent).toBeNull();
    expect(labels.every((l) => l.isActive)).toBe(true);
  });
});
