import { Label, User } from '../../../src/contract';
import type { LoggedRequest } from '../../support/fakeGraph';
import { suiteGraphPlatform } from '../../support/graphTenant';

const ALEX = '00000000-0000-0000-0000-000000000020';
const ISAIAH = '00000000-0000-0000-0000-000000000023';
const PUBLIC_LABEL = '00000000-0000-0000-0000-00000000a001';
const CONFIDENTIAL = '00000000-0000-0000-0000-00000000a002';
const CONFIDENTIAL_PROJECTS = '00000000-0000-0000-0000-00000000a003';

function since(mark: number): LoggedRequest[] {
  return graph.fake.requests.slice(mark).filter((r) => r.path.startsWith('/v1.0/'));
}

const graph = suiteGraphPlatform({ pageSize: 2 }, (fake) => {
  fake.addUser({
    id: ALEX,
    displayName: 'Alex Wilber',
    givenName: 'Alex',
    surname: 'Wilber',
    userPrincipalName: 'alexw@example.com',
    mail: 'alexw@example.com',
    department: 'Marketing',
    country: 'US',
    preferredLanguage: 'en-US',
  });
  fake.addUser({
    id: ISAIAH,
    displayName: 'Isaiah Langer',
    givenName: 'Isaiah',
    surname: 'Langer',
    userPrincipalName: 'isaiah@example.com',
    mail: 'isaiahl@example.com',
  });
  for (const [n, name] of ['Adele Vance', 'Alan Steiner', 'Allan Deyoung', 'Megan Bowen'].entries()) {
    fake.addUser({
      id: `00000000-0000-0000-0000-00000000003${n}`,
      displayName: name,
      userPrincipalName: `${name.split(' ')[0]?.toLowerCase()}@example.com`,
    });
  }
  fake.memberOf.set(ALEX, [
    { '@odata.type': '#microsoft.graph.group', id: 'g-2', displayName: 'Sales' },
    { '@odata.type': '#microsoft.graph.directoryRole', id: 'r-1', displayName: 'Teams Administrator' },
    { '@odata.type': '#microsoft.graph.group', id: 'g-1', displayName: 'Onboarding 2024' },
    { '@odata.type': '#microsoft.graph.administrativeUnit', id: 'au-1', displayName: 'Europe' },
  ]);
  // v1.0's shape (api/sensitivitylabel-get.md): priority, toolTip, isEnabled, sublabels nested.
  fake.labels.push(
    {
      id: PUBLIC_LABEL,
      name: 'Public',
      description: 'Anyone may see it',
      color: '#00ff00',
      priority: 0,
      toolTip: 'Public information',
      isEnabled: true,
      applicableTo: 'email,site,unifiedGroup,teamwork,file',
      sublabels: [],
    },
    {
      id: CONFIDENTIAL,
      name: 'Confidential',
      description: null,
      color: '',
      priority: 2,
      toolTip: 'Confidential',
      isEnabled: true,
      applicableTo: 'teamwork',
      sublabels: [
        {
          id: CONFIDENTIAL_PROJECTS,
          name: 'Projects',
          description: 'Confidential projects',
          color: '#ff0000',
          priority: 3,
          toolTip: 'Only the project team',
          isEnabled: false,
        },
      ],
    },
    { id: 'files-only', name: 'Files only', priority: 1, applicableTo: 'file,email' },
  );
});

test('managerOf reads GET /users/{id}/manager, and is undefined for someone without a manager', async () => {
  graph.fake.managers.set(ALEX, ISAIAH);
  const mark = graph.fake.requests.length;
  const manager = await graph.platform.directory.managerOf(ALEX);
  expect(manager).toMatchObject({ id: ISAIAH, displayName: 'Isaiah Langer', mail: 'isaiahl@example.com' });
  expect(since(mark).map((r) => r.path.split('?')[0])).toEqual([`/v1.0/users/${ALEX}/manager`]);
  expect(await graph.platform.directory.managerOf(ISAIAH)).toBeUndefined();
  // With Entra ID, roles live in tokens: the directory names no governance managers.
  expect(await graph.platform.directory.peopleWithRole('GOVERNANCE_MANAGER')).toEqual([]);
});

describe('findUser', () => {
  test('by object id, with the selected fields and no app roles', async () => {
    const user = await graph.platform.directory.findUser(ALEX);
    expect(user).toEqual({
      id: ALEX,
      displayName: 'Alex Wilber',
      givenName: 'Alex',
      surname: 'Wilber',
      mail: 'alexw@example.com',
      userPrincipalName: 'alexw@example.com',
      jobTitle: null,
      department: 'Marketing',
      companyName: null,
      country: 'US',
      city: null,
      usageLocation: null,
      preferredLanguage: 'en-US',
      appRoles: [],
    });
    const { appRoles: _roles, ...plain } = user ?? { appRoles: [] };
    expect(User.parse(plain)).toEqual(plain);
  });

  test('by UPN (any case), and by mail when it differs from the UPN', async () => {
    expect((await graph.platform.directory.findUser('AlexW@Example.com'))?.id).toBe(ALEX);
    const mark = graph.fake.requests.length;
    expect((await graph.platform.directory.findUser('isaiahl@example.com'))?.id).toBe(ISAIAH);
    const calls = since(mark).map((r) => decodeURIComponent(r.path));
    expect(calls[0]).toContain('/v1.0/users/isaiahl@example.com?$select=');
    expect(calls[1]).toContain("$filter=mail eq 'isaiahl@example.com'");
  });

  test('nobody: unknown ids, unknown addresses and keys Graph finds malformed', async () => {
    expect(await graph.platform.directory.findUser('00000000-0000-0000-0000-000000009999')).toBeUndefined();
    expect(await graph.platform.directory.findUser('nobody@example.com')).toBeUndefined();
    expect(await graph.platform.directory.findUser('not an id')).toBeUndefined();
    expect(await graph.platform.directory.findUser('  ')).toBeUndefined();
    expect(await graph.platform.directory.findUser('..')).toBeUndefined();
    expect(await graph.platform.directory.groupsOf('..')).toEqual([]);
  });
});

test('findUsers resolves ids, UPNs and mails with `in` filters', async () => {
  const mark = graph.fake.requests.length;
  const found = await graph.platform.directory.findUsers([
    ALEX,
    'ISAIAH@example.com',
    'isaiahl@example.com',
    'ghost@x.y',
  ]);
  expect([...found.keys()].sort()).toEqual([ALEX, 'ISAIAH@example.com', 'isaiahl@example.com'].sort());
  expect(found.get('isaiahl@example.com')?.id).toBe(ISAIAH);
  expect(found.get(ALEX)).not.toHaveProperty('appRoles');
  const filters = since(mark).map((r) => new URL(r.path, graph.fake.origin).searchParams.get('$filter'));
  expect(filters).toEqual([
    `id in ('${ALEX}')`,
    "userPrincipalName in ('ISAIAH@example.com','isaiahl@example.com','ghost@x.y')",
    "mail in ('isaiahl@example.com','ghost@x.y')",
  ]);
  expect(await graph.platform.directory.findUsers([])).toEqual(new Map());
});

describe('searchUsers', () => {
  test('prefix search over names, mail and UPN as an advanced query, in display-name order', async () => {
    const mark = graph.fake.requests.length;
    const page = await graph.platform.directory.searchUsers({ search: 'al', top: 10, skip: 0 });
    expect(page.users.map((u) => u.displayName)).toEqual(['Alan Steiner', 'Alex Wilber', 'Allan Deyoung']);
    expect(page.total).toBe(3);
    const first = since(mark)[0];
    expect(first?.headers.consistencylevel).toBe('eventual');
    const query = new URL(first?.path ?? '', graph.fake.origin).searchParams;
    expect(query.get('$count')).toBe('true');
    expect(query.get('$orderby')).toBe('displayName');
    expect(query.get('$filter')).toBe(
      "startsWith(displayName,'al') or startsWith(givenName,'al') or startsWith(surname,'al') " +
        "or startsWith(mail,'al') or startsWith(userPrincipalName,'al')",
    );
  });

  test('skips by reading on through @odata.nextLink; quotes in the search are escaped', async () => {
    const mark = graph.fake.requests.length;
    const page = await graph.platform.directory.searchUsers({ top: 2, skip: 3 });
    expect(page.total).toBe(6);
    expect(page.users.map((u) => u.displayName)).toEqual(['Allan Deyoung', 'Isaiah Langer']);
    // Pages of two (the fake's limit) until the fifth person.
    const pages = since(mark).map((r) => new URL(r.path, graph.fake.origin).searchParams.get('$skiptoken'));
    expect(pages).toEqual([null, '2', '4']);
    expect(await graph.platform.directory.searchUsers({ search: "o'neil", top: 5, skip: 0 })).toEqual({
      users: [],
      total: 0,
    });
  });
});

test('groupsOf keeps groups only, sorted, and knows nobody it cannot find', async () => {
  expect(await graph.platform.directory.groupsOf(ALEX)).toEqual([
    { id: 'g-1', displayName: 'Onboarding 2024' },
    { id: 'g-2', displayName: 'Sales' },
  ]);
  expect(await graph.platform.directory.groupsOf(ISAIAH)).toEqual([]);
  expect(await graph.platform.directory.groupsOf('00000000-0000-0000-0000-000000009999')).toEqual([]);
});

test('labels maps Purview labels that can go on a team, with their parents', async () => {
  const labels = await graph.platform.directory.labels();
  expect(labels.map((l) => l.id)).toEqual([PUBLIC_LABEL, CONFIDENTIAL, CONFIDENTIAL_PROJECTS]);
  expect(labels[0]).toEqual({
    id: PUBLIC_LABEL,
    name: 'Public',
    description: 'Anyone may see it',
    color: '#00ff00',
    sensitivity: 0,
    tooltip: 'Public information',
    isActive: true,
    parent: null,
    scopeGroupIds: null,
  });
  expect(labels[1]).toMatchObject({ description: '', color: '', sensitivity: 2 });
  expect(labels[2]).toMatchObject({ isActive: false, parent: CONFIDENTIAL });
  for (const { scopeGroupIds: _scope, ...label } of labels) expect(Label.parse(label)).toEqual(label);
});

test('findApp knows no app in Graph mode (Entra tokens carry their roles)', async () => {
  expect(await graph.platform.directory.findApp('any-app')).toBeUndefined();
});
