import { CatalogTemplate } from '../../../src/contract';
import { compareTeam, comparersFor, type TeamState } from '../../../src/domain/drift/comparers';
import { templateDiff } from '../../../src/domain/drift/templateDiff';

const WEB = 'com.microsoft.teamspace.tab.web';

const template = CatalogTemplate.parse({
  templateConfiguration: {
    id: 'project',
    name: 'Project team',
    permanentMembership: {
      owners: [{ id: 'u-adele', name: 'Adele Vance' }],
      members: [{ id: 'u-ike', name: 'Isaiah Langer' }],
    },
    sensitivityLabelId: 'label-general',
  },
  newTeam: {
    teamPrivacy: 'private',
    channels: [
      { displayName: 'Planning' },
      { displayName: 'Deliverables', membershipType: 'private' },
      { displayName: 'Risks' },
    ],
    tabs: [
      { channel: 'Planning', displayName: 'Wiki', teamsAppId: WEB },
      { channel: 'Planning', displayName: 'Board', teamsAppId: WEB },
      { channel: 'Risks', displayName: 'Register', teamsAppId: WEB },
      { channel: 'Nowhere', displayName: 'Lost', teamsAppId: WEB },
    ],
  },
});

const team = (overrides: Partial<TeamState> = {}): TeamState => ({
  visibility: 'private',
  channels: [
    { id: 'c0', displayName: 'General', membershipType: 'standard' },
    { id: 'c1', displayName: 'planning', membershipType: 'standard' },
    { id: 'c2', displayName: 'Deliverables', membershipType: 'standard' },
    { id: 'c3', displayName: 'Our own corner', membershipType: 'standard' },
  ],
  tabs: new Map([
    [
      'planning',
      [
        { displayName: 'Wiki', teamsAppId: WEB },
        { displayName: 'Board', teamsAppId: 'another.app' },
        { displayName: 'Their own tab', teamsAppId: WEB },
      ],
    ],
  ]),
  members: [
    { userId: 'u-adele', displayName: 'Adele Vance', owner: false },
    { userId: 'u-alex', displayName: 'Alex Wilber', owner: true },
  ],
  labelId: null,
  ...overrides,
});

describe('drift comparers', () => {
  test('each kind lists what the template asks for that the team lacks or contradicts, and only that', () => {
    const differences = compareTeam(template, team({ visibility: 'public' }));
    expect(differences.map((d) => [d.id, d.applicable])).toEqual([
      ['channel:deliverables', false],
      ['channel:risks', true],
      ['tab:planning/board', false],
      ['tab:risks/register', true],
      ['tab:nowhere/lost', false],
      ['permanentOwner:u-adele', true],
      ['permanentMember:u-ike', true],
      ['sensitivityLabel:label-general', true],
      ['visibility', false],
    ]);
    for (const d of differences.filter((x) => !x.applicable)) expect(d.reason).toEqual(expect.any(String));
    const text = JSON.stringify(differences);
    expect(text).not.toContain('Our own corner');
    expect(text).not.toContain('Their own tab');
    // Names, not ids, where people read.
    expect(differences.find((d) => d.kind === 'permanentOwner')!.detail).toBe(
      'Adele Vance is a permanent owner of the template and only a member of the team.',
    );
  });

  test('a team that has everything has no differences; channel names match regardless of case', () => {
    const complete = team({
      channels: [
        { id: 'c1', displayName: 'PLANNING', membershipType: 'standard' },
        { id: 'c2', displayName: 'Deliverables', membershipType: 'private' },
        { id: 'c4', displayName: 'Risks', membershipType: 'standard' },
        { id: 'c5', displayName: 'Nowhere', membershipType: 'standard' },
      ],
      tabs: new Map([
        [
          'planning',
          [
            { displayName: 'Wiki', teamsAppId: WEB },
            { displayName: 'Board', teamsAppId: WEB },
          ],
        ],
        ['risks', [{ displayName: 'Register', teamsAppId: WEB }]],
        ['nowhere', [{ displayName: 'Lost', teamsAppId: WEB }]],
      ]),
      members: [
        { userId: 'u-adele', displayName: 'Adele Vance', owner: true },
        { userId: 'u-ike', displayName: 'Isaiah Langer', owner: false },
      ],
      labelId: 'label-general',
    });
    expect(compareTeam(template, complete)).toEqual([]);
  });

  test('only the comparers with something to compare run, and they name what they read', () => {
    const bare = CatalogTemplate.parse({ templateConfiguration: { name: 'Bare' } });
    const { comparers, reads } = comparersFor(bare);
    expect(comparers.map((c) => c.kind)).toEqual(['visibility']);
    expect([...reads]).toEqual([]);
    expect([...comparersFor(template).reads].sort()).toEqual(['channels', 'label', 'members', 'tabs']);
  });
});

describe('template differences', () => {
  test('named lists are matched by name, others by position; unchanged documents have none', () => {
    const before = { newTeam: { channels: [{ displayName: 'A' }, { displayName: 'B' }] }, tags: ['x'] };
    const after = { newTeam: { channels: [{ displayName: 'B' }, { displayName: 'C' }] }, tags: ['y'] };
    expect(templateDiff(before, after)).toEqual([
      { change: 'removed', path: 'newTeam.channels["A"]', before: { displayName: 'A' } },
      { change: 'added', path: 'newTeam.channels["C"]', after: { displayName: 'C' } },
      { change: 'changed', path: 'tags[0]', before: 'x', after: 'y' },
    ]);
    expect(templateDiff(before, structuredClone(before))).toEqual([]);
  });
});
