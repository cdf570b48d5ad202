import { request as httpRequest } from 'undici';
import type { ApiError, CatalogTemplate, Job, Team, TeamChannel } from '../../../src/contract';
import { databaseKinds } from '../../support/databases';
import { waitForJob } from '../../support/jobs';
import { PEOPLE, suiteSteward } from '../../support/steward';

/**
 * Templates that lay out a whole workspace (docs/guides/templates.md) on the embedded platform: a shared channel,
 * folders and starter files in channels' files folders, and the team's settings, all made by the
 * provisioning job and shown on the simulated team's page; and templates that ask for what
 * SharePoint or Steward refuses get a 400 naming each problem.
 */
describe.each(databaseKinds)('workspace templates on the embedded platform, %s', (kind) => {
  const suite = suiteSteward(kind, {
    env: { STEWARD_JOB_POLL_MS: '50' },
    people: { patti: { id: PEOPLE.patti, roles: ['CATALOG_MANAGER'] } },
  });

  const itemsOf = (teamId: string) =>
    suite.app.steward.store.db
      .selectFrom('platform_channel_items')
      .innerJoin('platform_channels', 'platform_channels.id', 'platform_channel_items.channel_id')
      .select(['platform_channels.display_name as channel', 'path', 'kind', 'content'])
      .where('platform_channel_items.team_id', '=', teamId)
      .orderBy('platform_channels.display_name')
      .orderBy('path_key')
      .execute();

  test('the seeded department template makes its shared channel, folders, starter file and settings', async () => {
    const res = await suite.app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
      token: suite.alex,
      body: { template: { id: 'department-marketing' }, team: { name: 'Spring launch' } },
    });
    expect(res.status).toBe(201);
    const job = await waitForJob(suite.app, suite.alex, res.body.id);
    expect(job.status).toBe('completed');
    expect(job.steps.find((s) => s.name === 'files')).toEqual({
      name: 'files',
      title: 'Create folders and starter files',
      status: 'done',
    });
    const teamId = (job.data.team as { id: string }).id;
    const log = job.log.join('\n');
    expect(log).toContain('Made 4 folders and 1 starter file in "Brand assets".');
    expect(log).toContain('Made 3 folders and 0 starter files in "Campaigns".');
    expect(log).toContain("created with the template's member, guest, messaging, fun settings");

    const channels = await suite.app.call<TeamChannel[]>('GET', `/api/v1.0/teams/${teamId}/channels`, {
      token: suite.alex,
    });
    expect(channels.body.map((c) => [c.displayName, c.membershipType])).toEqual([
      ['General', 'standard'],
      ['Campaigns', 'standard'],
      ['Brand assets', 'standard'],
      ['Agency', 'shared'],
    ]);
    expect(await itemsOf(teamId)).toEqual([
      { channel: 'Agency', path: 'Deliveries', kind: 'folder', content: null },
      { channel: 'Brand assets', path: 'Logos', kind: 'folder', content: null },
      { channel: 'Brand assets', path: 'Logos/Print', kind: 'folder', content: null },
      { channel: 'Brand assets', path: 'Logos/Web', kind: 'folder', content: null },
      {
        channel: 'Brand assets',
        path: 'README.txt',
        kind: 'file',
        content: expect.stringContaining('Logos: print and web versions') as unknown,
      },
      { channel: 'Brand assets', path: 'Templates', kind: 'folder', content: null },
      { channel: 'Campaigns', path: 'Briefs', kind: 'folder', content: null },
      { channel: 'Campaigns', path: 'Reports', kind: 'folder', content: null },
      { channel: 'Campaigns', path: 'Reports/Monthly', kind: 'folder', content: null },
    ]);
    const team = await suite.app.call<Team>('GET', `/api/v1.0/teams/${teamId}`, { token: suite.megan });
    expect(team.status).toBe(200);
    expect(team.body.memberSettings).toMatchObject({
      allowCreatePrivateChannels: false,
      allowDeleteChannels: false,
    });
    expect(team.body.guestSettings).toMatchObject({
      allowCreateUpdateChannels: false,
      allowDeleteChannels: false,
    });
    expect(team.body.funSettings).toMatchObject({ allowGiphy: true, giphyContentRating: 'strict' });

    // The simulated team's page shows all of it.
    const page = await httpRequest(`${suite.app.url}/platform/teams/${encodeURIComponent(teamId)}`);
    const html = await page.body.text();
    expect(page.statusCode).toBe(200);
    expect(html).toContain('Agency<span class="badge">shared</span>');
    expect(html).toMatch(/Print <span class="badge">folder<\/span>/);
    expect(html).toMatch(/README\.txt <span class="muted">\d+ bytes<\/span>/);
    expect(html).toContain('<h2>Settings</h2>');
    expect(html).toContain('<dt>Giphy content rating</dt><dd>strict</dd>');
    expect(html).toContain('<dt>Allow create private channels</dt><dd>no</dd>');
  });

  const base = {
    templateConfiguration: { name: 'Workspace' },
    newTeam: { teamPrivacy: 'private' },
  };
  const put = (id: string, newTeam: Record<string, unknown>) =>
    suite.app.call<CatalogTemplate & ApiError>('PUT', `/api/v1.0/catalog/templates/${id}`, {
      token: suite.patti,
      body: { ...base, newTeam: { ...base.newTeam, ...newTeam } },
    });

  test('a template with a shared channel, folders, files and settings is stored and read back as sent', async () => {
    const newTeam = {
      channels: [
        {
          displayName: 'Partners',
          membershipType: 'shared',
          folders: ['Contracts', 'Contracts/Signed'],
          files: [{ path: 'Contracts/How to sign.txt', content: 'Sign, scan,\nthen file here.' }],
        },
      ],
      settings: { messagingSettings: { allowUserDeleteMessages: false } },
    };
    const created = await put('workspace-ok', newTeam);
    expect(created.status).toBe(200);
    expect(created.body.newTeam.channels).toEqual(newTeam.channels);
    expect(created.body.newTeam.settings).toEqual(newTeam.settings);
  });

  const bad = (channel: Record<string, unknown>) => ({ channels: [{ displayName: 'Files', ...channel }] });
  test.each([
    [
      'a forbidden character in a folder',
      bad({ folders: ['Q&A', 'Plans: 2026'] }),
      'body.newTeam.channels.0.folders.1',
    ],
    ['a reserved name', bad({ folders: ['Archive/CON'] }), 'body.newTeam.channels.0.folders.0'],
    ['a leading space', bad({ folders: [' Drafts'] }), 'body.newTeam.channels.0.folders.0'],
    ['an empty segment', bad({ folders: ['Drafts//Old'] }), 'body.newTeam.channels.0.folders.0'],
    ['"~$" at the start', bad({ folders: ['~$lock'] }), 'body.newTeam.channels.0.folders.0'],
    ['six levels', bad({ folders: ['a/b/c/d/e/f'] }), 'body.newTeam.channels.0.folders.0'],
    [
      'more than 50 folders once the files are counted',
      bad({
        folders: Array.from({ length: 50 }, (_, i) => `F${i}`),
        files: [{ path: 'Extra/notes.txt', content: 'x' }],
      }),
      'newTeam.channels[0].folders',
    ],
    [
      'a file of 33 KiB',
      bad({ files: [{ path: 'big.txt', content: 'x'.repeat(33 * 1024) }] }),
      'body.newTeam.channels.0.files.0.content',
    ],
    [
      'a file named twice',
      bad({
        files: [
          { path: 'a.txt', content: '1' },
          { path: 'A.TXT', content: '2' },
        ],
      }),
      'newTeam.channels[0].files[1].path',
    ],
    [
      'a file where a folder is',
      bad({ folders: ['Notes'], files: [{ path: 'Notes', content: '' }] }),
      'newTeam.channels[0].files[0].path',
    ],
    [
      'an unknown setting',
      { settings: { funSettings: { allowGifs: true } } },
      'body.newTeam.settings.funSettings',
    ],
    [
      'a membership type Teams does not have',
      bad({ membershipType: 'public' }),
      'body.newTeam.channels.0.membershipType',
    ],
  ])('%s: 400 naming the field, nothing stored', async (_what, newTeam, target) => {
    const res = await put('workspace-bad', newTeam);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validationFailed');
    expect(res.body.error.details?.map((d) => d.target)).toContain(target);
    const read = await suite.app.call('GET', '/api/v1.0/catalog/templates/workspace-bad', {
      token: suite.patti,
    });
    expect(read.status).toBe(404);
  });

  test('starter files over 256 KiB in all: 400', async () => {
    const channels = Array.from({ length: 9 }, (_, i) => ({
      displayName: `Files ${i}`,
      files: [{ path: 'a.txt', content: 'x'.repeat(30 * 1024) }],
    }));
    const res = await put('workspace-heavy', { channels });
    expect(res.status).toBe(400);
    expect(res.body.error.details?.map((d) => d.target)).toContain('newTeam.channels');
  });

  test('the OpenAPI document describes the new fields as extensions', async () => {
    const doc = (
      await suite.app.call<{
        components: {
          schemas: Record<
            string,
            { properties?: Record<string, { description?: string }>; description?: string }
          >;
        };
      }>('GET', '/api/v1.0/openapi.json')
    ).body;
    const channel = doc.components.schemas.TemplateChannel?.properties ?? {};
    expect(channel.folders?.description).toContain('an extension');
    expect(channel.files?.description).toContain('an extension');
    expect(channel.membershipType?.description).toContain('an extension');
    expect(doc.components.schemas.NewTeam?.properties?.settings?.description).toContain('an extension');
  });
});
