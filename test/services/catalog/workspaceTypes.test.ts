import type {
  ApiError,
  CatalogTemplate,
  CatalogTemplates,
  ODataCollection,
  TemplateVersion,
} from '../../../src/contract';
import { databaseKinds } from '../../support/databases';
import { PEOPLE, suiteSteward } from '../../support/steward';

type Body = Record<string, unknown>;

/** Templates of each workspace type: saved, read back, listed, and refused the fields of another type. */
describe.each(databaseKinds)('workspace types of templates on %s', (kind) => {
  const suite = suiteSteward(kind, {
    people: { patti: { id: PEOPLE.patti, roles: ['CATALOG_MANAGER'] } },
  });

  const put = (id: string, body: Body) =>
    suite.app.call<CatalogTemplate & ApiError>('PUT', `/api/v1.0/catalog/templates/${id}`, {
      token: suite.patti,
      body,
    });
  const get = (id: string) =>
    suite.app.call<CatalogTemplate>('GET', `/api/v1.0/catalog/templates/${id}`, { token: suite.patti });
  const template = (name: string, workspaceType: string | undefined, extra: Body = {}): Body => ({
    ...extra,
    templateConfiguration: { name, ...(workspaceType ? { workspaceType } : {}) },
    newTeam: { namingConvention: 'WS-<%= request.team.name %>', ...(extra.newTeam as Body) },
  });

  test('a template saved before, or without the field, is a team template, unchanged otherwise', async () => {
    const seeded = await get('project');
    expect(seeded.status).toBe(200);
    expect(seeded.body.templateConfiguration.workspaceType).toBe('team');
    expect(Object.keys(seeded.body).sort()).toEqual(['clonedTeam', 'newTeam', 'templateConfiguration']);
    const saved = await put('plain-team', template('Plain team', undefined, { newTeam: { channels: [] } }));
    expect(saved.status).toBe(200);
    expect(saved.body.templateConfiguration.workspaceType).toBe('team');
    expect(saved.body).not.toHaveProperty('newGroup');
    expect(saved.body).not.toHaveProperty('newCommunicationSite');
  });

  test('a Microsoft 365 group template: saved with its own fields, read back and listed', async () => {
    const saved = await put(
      'ws-group',
      template('Department group', 'group', {
        newTeam: { emailConvention: 'dept-<%= request.team.name %>', teamPrivacy: 'private' },
        newGroup: { hiddenMembership: true, resourceBehaviorOptions: ['WelcomeEmailDisabled'] },
      }),
    );
    expect(saved.status).toBe(200);
    expect(saved.body.templateConfiguration.workspaceType).toBe('group');
    expect(saved.body.newGroup).toEqual({
      hiddenMembership: true,
      resourceBehaviorOptions: ['WelcomeEmailDisabled'],
    });
    const read = await get('ws-group');
    expect(read.body).toEqual(saved.body);
    const all = await suite.app.call<CatalogTemplates>('GET', '/api/v1.0/catalog/templates', {
      token: suite.patti,
    });
    const listed = all.body.value.find((t) => t.templateConfiguration.id === 'ws-group');
    expect(listed?.templateConfiguration.workspaceType).toBe('group');
    expect(listed?.newGroup?.hiddenMembership).toBe(true);
    // A plain user's catalog shows it too (it is enabled and targeted to everyone).
    const mine = await suite.app.call<CatalogTemplates>('GET', '/api/v1.0/me/catalog/templates', {
      token: suite.alex,
    });
    expect(mine.body.value.find((t) => t.templateConfiguration.id === 'ws-group')?.newGroup).toBeDefined();
  });

  test("a type's own section left out is filled with its defaults", async () => {
    const group = await put('ws-group-defaults', template('Bare group', 'group'));
    expect(group.status).toBe(200);
    expect(group.body.newGroup).toEqual({ hiddenMembership: false, resourceBehaviorOptions: [] });
    const site = await put('ws-site-defaults', template('Bare site', 'communicationSite'));
    expect(site.status).toBe(200);
    expect(site.body.newCommunicationSite).toEqual({ siteDesign: 'topic' });
  });

  test('a communication site template: created, updated to a tenant design, its versions say what changed', async () => {
    const created = await put(
      'ws-site',
      template('Regional news', 'communicationSite', {
        newCommunicationSite: { siteDesign: 'showcase', lcid: 1036, timeZoneId: 3 },
      }),
    );
    expect(created.status).toBe(200);
    expect(created.body.newCommunicationSite).toEqual({ siteDesign: 'showcase', lcid: 1036, timeZoneId: 3 });
    const design = '6142d2a0-63a5-4ba0-aede-d9fefca2c767';
    const updated = await put('ws-site', {
      ...created.body,
      newCommunicationSite: { ...created.body.newCommunicationSite, siteDesign: design },
    });
    expect(updated.status).toBe(200);
    expect((await get('ws-site')).body.newCommunicationSite?.siteDesign).toBe(design);
    const versions = await suite.app.call<ODataCollection<TemplateVersion>>(
      'GET',
      '/api/v1.0/catalog/templates/ws-site/versions',
      { token: suite.patti },
    );
    expect(versions.body.value[0]!.changes.map((c) => c.path)).toEqual(['newCommunicationSite.siteDesign']);
  });

  test('a community template: its privacy is the template’s; read back and saved again unchanged', async () => {
    const saved = await put(
      'ws-community',
      template('Cycling club', 'community', { newTeam: { teamPrivacy: 'public' } }),
    );
    expect(saved.status).toBe(200);
    expect(saved.body.templateConfiguration.workspaceType).toBe('community');
    expect(saved.body.newTeam.teamPrivacy).toBe('public');
    // What a read returns holds every default (no channels, no tabs): saving it again is no refusal.
    const read = await get('ws-community');
    expect(read.body.newTeam.channels).toEqual([]);
    const again = await put('ws-community', read.body as unknown as Body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(read.body);
  });

  test('a template changes type until a team is requested from it; then its type stays', async () => {
    expect((await put('ws-retype', template('Retyped', 'team'))).status).toBe(200);
    expect((await put('ws-retype', template('Retyped', 'group'))).status).toBe(200);
    expect((await put('ws-retype', template('Retyped', 'team'))).status).toBe(200);
    const requested = await suite.app.call('POST', '/api/v1.0/teams/provisioning', {
      token: suite.alex,
      body: { template: { id: 'ws-retype' }, team: { name: 'First' } },
    });
    expect(requested.status).toBe(201);
    const retyped = await put('ws-retype', template('Retyped', 'community'));
    expect(retyped.status).toBe(400);
    expect(retyped.body.error.details!.map((d) => [d.code, d.target])).toEqual([
      ['readOnly', 'templateConfiguration.workspaceType'],
    ]);
    expect((await get('ws-retype')).body.templateConfiguration.workspaceType).toBe('team');
    // Its other fields still change.
    expect((await put('ws-retype', template('Renamed', 'team'))).status).toBe(200);
  });

  const refusals: Array<[string, string, Body, string]> = [
    ['community', 'channels', { newTeam: { channels: [{ displayName: 'Rides' }] } }, 'newTeam.channels'],
    [
      'community',
      'tabs',
      {
        newTeam: {
          tabs: [{ channel: 'General', displayName: 'Map', teamsAppId: 'com.microsoft.teamspace.tab.web' }],
        },
      },
      'newTeam.tabs',
    ],
    [
      'community',
      'a mail nickname convention',
      { newTeam: { emailConvention: 'club' } },
      'newTeam.emailConvention',
    ],
    [
      'community',
      'a welcome message',
      { newTeam: { defaultWelcomeMessage: 'Hi' } },
      'newTeam.defaultWelcomeMessage',
    ],
    [
      'community',
      'team settings',
      { newTeam: { settings: { funSettings: { allowGiphy: false } } } },
      'newTeam.settings',
    ],
    ['community', 'a plan', { newTeam: { planner: { buckets: [{ name: 'Rides' }] } } }, 'newTeam.planner'],
    ['community', 'a cloned team', { clonedTeam: { teamId: 'some-team' } }, 'clonedTeam'],
    ['community', "a group's fields", { newGroup: { hiddenMembership: false } }, 'newGroup'],
    ['group', 'channels', { newTeam: { channels: [{ displayName: 'Planning' }] } }, 'newTeam.channels'],
    ['group', "a site's fields", { newCommunicationSite: { lcid: 1033 } }, 'newCommunicationSite'],
    ['communicationSite', 'a public privacy', { newTeam: { teamPrivacy: 'public' } }, 'newTeam.teamPrivacy'],
    [
      'communicationSite',
      'a mail nickname convention',
      { newTeam: { emailConvention: 'news' } },
      'newTeam.emailConvention',
    ],
    ['team', "a site's fields", { newCommunicationSite: { siteDesign: 'blank' } }, 'newCommunicationSite'],
    [
      'team',
      "a group's fields",
      { newGroup: { resourceBehaviorOptions: ['HideGroupInOutlook'] } },
      'newGroup',
    ],
  ];

  test.each(refusals)('a %s template refuses %s with a 400 naming it', async (type, _what, extra, target) => {
    const res = await put(`refused-${type.toLowerCase()}`, template('Refused', type, extra));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validationFailed');
    expect(res.body.error.details).toEqual([
      { code: 'notForWorkspaceType', target, message: expect.stringContaining(`"${target}" does not apply`) },
    ]);
    expect((await get(`refused-${type.toLowerCase()}`)).status).toBe(404);
  });

  test('every refused field of a template is named at once', async () => {
    const res = await put(
      'refused-many',
      template('Refused', 'community', {
        newTeam: { channels: [{ displayName: 'Rides' }], emailConvention: 'club' },
        newCommunicationSite: { lcid: 1033 },
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body.error.details!.map((d) => d.target).sort()).toEqual([
      'newCommunicationSite',
      'newTeam.channels',
      'newTeam.emailConvention',
    ]);
  });

  test("values of a type's own fields outside Microsoft's are refused", async () => {
    const hidden = await put(
      'refused-hidden',
      template('Hidden', 'group', {
        newTeam: { teamPrivacy: 'public' },
        newGroup: { hiddenMembership: true },
      }),
    );
    expect(hidden.status).toBe(400);
    expect(hidden.body.error.details!.map((d) => [d.code, d.target])).toEqual([
      ['invalidValue', 'newGroup.hiddenMembership'],
    ]);
    const bad = await put(
      'refused-values',
      template('Bad', 'communicationSite', {
        newCommunicationSite: { siteDesign: 'modern', lcid: 0, timeZoneId: 1.5 },
      }),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.details!.map((d) => d.target).sort()).toEqual([
      'body.newCommunicationSite.lcid',
      'body.newCommunicationSite.siteDesign',
      'body.newCommunicationSite.timeZoneId',
    ]);
    const type = await put('refused-type', template('Bad', 'site'));
    expect(type.status).toBe(400);
    expect(type.body.error.details!.map((d) => [d.code, d.target])).toEqual([
      ['invalid_value', 'body.templateConfiguration.workspaceType'],
    ]);
  });
});
