import { CatalogTemplate } from '../../../src/contract';
import { compareTeam, settingChange, type TeamState } from '../../../src/domain/drift/comparers';

/** The comparers of a workspace template's parts (docs/guides/templates.md), on a team as the platform shows it. */
const template = CatalogTemplate.parse({
  templateConfiguration: { id: 'delivery', name: 'Delivery team' },
  newTeam: {
    channels: [
      {
        displayName: 'Planning',
        folders: ['Contracts/Signed'],
        files: [{ path: 'Notes.txt', content: 'x' }],
      },
      { displayName: 'Partners', membershipType: 'shared' },
    ],
    planner: {
      title: 'Delivery',
      buckets: [{ name: 'Backlog', tasks: [{ title: 'Charter' }] }, { name: 'Review' }],
    },
    tags: [
      { displayName: 'Leads', members: 'owners' },
      { displayName: 'Crew', members: 'members' },
    ],
    apps: [{ teamsAppId: 'app-forms', displayName: 'Forms' }],
    settings: { funSettings: { allowGiphy: false }, messagingSettings: { allowTeamMentions: true } },
  },
});

const team = (overrides: Partial<TeamState> = {}): TeamState => ({
  visibility: 'private',
  channels: [
    { id: 'c0', displayName: 'General', membershipType: 'standard' },
    { id: 'c1', displayName: 'Planning', membershipType: 'standard' },
    { id: 'c2', displayName: 'Partners', membershipType: 'shared' },
  ],
  tabs: new Map(),
  members: [{ userId: 'u-alex', displayName: 'Alex Wilber', owner: true }],
  labelId: null,
  displayName: 'Vega',
  items: new Map([['planning', new Set(['contracts', 'contracts/signed', 'notes.txt'])]]),
  plan: { title: 'Delivery', buckets: ['backlog', 'Review', 'Our ideas'] },
  tags: ['leads', 'Night shift'],
  apps: ['app-forms', 'app-theirs'],
  settings: {
    funSettings: { allowGiphy: false, allowStickersAndMemes: true },
    messagingSettings: { allowTeamMentions: true },
  },
  ...overrides,
});

const listed = (state: TeamState) =>
  compareTeam(template, state).map((d) => [d.id, d.applicable, d.reason ?? null]);

describe('drift comparers of plans, tags, apps, settings, folders and shared channels', () => {
  test('what the owners added is never listed; a tag nobody could have is not applicable', () => {
    // Crew goes to members who are not owners: the team has none, so it cannot be made.
    expect(listed(team())).toEqual([
      ['tag:crew', false, 'A tag needs at least one person, and the team has no members who are not owners.'],
    ]);
  });

  test('each missing or contradicted part is listed as applicable', () => {
    const state = team({
      channels: [{ id: 'c0', displayName: 'General', membershipType: 'standard' }],
      items: new Map(),
      plan: { title: 'Delivery', buckets: ['Our ideas'] },
      tags: [],
      apps: [],
      members: [
        { userId: 'u-alex', displayName: 'Alex Wilber', owner: true },
        { userId: 'u-ike', displayName: 'Isaiah Langer', owner: false },
      ],
      settings: { funSettings: { allowGiphy: true }, messagingSettings: { allowTeamMentions: true } },
    });
    expect(listed(state)).toEqual([
      ['channel:planning', true, null],
      ['channel:partners', true, null],
      ['channelFile:planning', true, null],
      ['planBucket:backlog', true, null],
      ['planBucket:review', true, null],
      ['tag:leads', true, null],
      ['tag:crew', true, null],
      ['app:app-forms', true, null],
      ['teamSetting:funSettings.allowGiphy', true, null],
    ]);
    const details = compareTeam(template, state).map((d) => d.detail);
    expect(details).toContain('The template has a shared channel "Partners" that the team lacks.');
    expect(details).toContain(
      'The template puts 2 folders and 1 starter file in "Planning" that the channel lacks; files already there are kept as they are.',
    );
  });

  test('a team without the plan gets one difference for the whole plan', () => {
    expect(listed(team({ plan: null })).map(([id]) => id)).toEqual(['plan', 'tag:crew']);
  });

  test("a setting's change carries that setting alone", () => {
    expect(settingChange(template, 'teamSetting:funSettings.allowGiphy')).toEqual({
      funSettings: { allowGiphy: false },
    });
    expect(settingChange(template, 'teamSetting:funSettings.allowCustomMemes')).toBeUndefined();
    expect(settingChange(template, 'teamSetting:nothing.here')).toBeUndefined();
  });
});
