import type { ODataCollection, TemplateVersion } from '../../../src/contract';
import { databaseKinds } from '../../support/databases';
import { PEOPLE, NAMED, suiteSteward } from '../../support/steward';

/** Every save of a template makes a version: who, when, and what changed, by names. */
describe.each(databaseKinds)('template versions, %s', (kind) => {
  const suite = suiteSteward(kind, {
    people: {
      megan: { ...NAMED.megan, roles: ['GLOBAL_ADMIN'] },
      patti: { ...NAMED.patti, roles: ['CATALOG_MANAGER'] },
      alex: { id: PEOPLE.alex },
    },
  });

  const put = (
    token: string,
    id: string,
    newTeam: Record<string, unknown>,
    config: Record<string, unknown> = {},
  ) =>
    suite.app.call('PUT', `/api/v1.0/catalog/templates/${id}`, {
      token,
      body: { templateConfiguration: { name: 'Project team', ...config }, newTeam },
    });
  const versions = (token: string, id: string, query = '') =>
    suite.app.call<ODataCollection<TemplateVersion>>(
      'GET',
      `/api/v1.0/catalog/templates/${id}/versions${query}`,
      {
        token,
      },
    );

  test('each save is a version, newest first, with its author and its differences by name', async () => {
    const general = { displayName: 'Planning', membershipType: 'standard' };
    expect((await put(suite.megan, 'drift-project', { channels: [general] })).status).toBe(200);
    expect(
      (
        await put(suite.patti, 'drift-project', {
          channels: [general, { displayName: 'Deliverables', membershipType: 'private' }],
          tabs: [{ channel: 'Planning', displayName: 'Wiki', teamsAppId: 'com.microsoft.teamspace.tab.web' }],
        })
      ).status,
    ).toBe(200);
    const owners = await suite.app.call(
      'PUT',
      '/api/v1.0/catalog/templates/drift-project/permanent_membership/owners',
      {
        token: suite.megan,
        body: [{ id: PEOPLE.adele }],
      },
    );
    expect(owners.status).toBe(200);

    const res = await versions(suite.alex, 'drift-project');
    expect(res.status).toBe(200);
    expect(res.body['@odata.count']).toBe(3);
    const [third, second, first] = res.body.value;
    expect(first).toMatchObject({
      version: 1,
      createdBy: { id: PEOPLE.megan, displayName: 'Megan Bowen' },
      changes: [],
      summary: 'The first version.',
    });
    expect(second!.version).toBe(2);
    expect(second!.createdBy).toEqual({ id: PEOPLE.patti, displayName: 'Patti Fernandez' });
    expect(second!.changes).toEqual([
      {
        change: 'added',
        path: 'newTeam.channels["Deliverables"]',
        after: { displayName: 'Deliverables', membershipType: 'private' },
      },
      {
        change: 'added',
        path: 'newTeam.tabs["Planning / Wiki"]',
        after: expect.objectContaining({ displayName: 'Wiki' }),
      },
    ]);
    expect(second!.summary).toMatch(/^Added newTeam\.channels\["Deliverables"\]/);
    expect(third!.version).toBe(3);
    expect(third!.changes).toEqual([
      expect.objectContaining({
        change: 'added',
        path: expect.stringMatching(/^templateConfiguration\.permanentMembership\.owners\["Adele Vance"\]$/),
      }),
    ]);

    const page = await versions(suite.megan, 'drift-project', '?$top=2');
    expect(page.body.value.map((v) => v.version)).toEqual([3, 2]);
    expect(page.body['@odata.nextLink']).toMatch(
      /\/catalog\/templates\/drift-project\/versions\?\$top=2&\$skip=2$/,
    );
  });

  test('a version changes one field in place', async () => {
    expect((await put(suite.megan, 'renamed', {})).status).toBe(200);
    expect((await put(suite.megan, 'renamed', {}, { name: 'Project team (new)' })).status).toBe(200);
    const [latest] = (await versions(suite.megan, 'renamed')).body.value;
    expect(latest!.changes).toEqual([
      {
        change: 'changed',
        path: 'templateConfiguration.name',
        before: 'Project team',
        after: 'Project team (new)',
      },
    ]);
  });

  test("versions are read like the template: a disabled one is not a plain user's to see", async () => {
    expect((await put(suite.megan, 'hidden', {}, { enabled: false })).status).toBe(200);
    expect((await versions(suite.alex, 'hidden')).status).toBe(404);
    expect((await versions(suite.megan, 'hidden')).status).toBe(200);
    expect((await versions(suite.megan, 'nowhere')).status).toBe(404);
    expect((await versions(suite.megan, 'drift-project', '?$top=0')).status).toBe(400);
  });

  test('seeded templates start at version 1', async () => {
    const all = await suite.app.call<ODataCollection<{ templateConfiguration: { id: string } }>>(
      'GET',
      '/api/v1.0/catalog/templates',
      { token: suite.megan },
    );
    const seeded = all.body.value[0]!.templateConfiguration.id;
    const res = await versions(suite.megan, seeded);
    expect(res.body.value.at(-1)).toMatchObject({ version: 1 });
  });
});
