import type { CatalogTemplate, CatalogTemplates, Job } from '../../../src/contract';
import { databaseKinds } from '../../support/databases';
import { suiteSteward } from '../../support/steward';
import { rowCount } from '../../support/rows';

type ErrorBody = { error: { code: string; details?: { code: string; target: string; message: string }[] } };

const BREAKS = [
  ['a tab', 'Apollo\tteam'],
  ['a line feed', 'Apollo\nteam'],
  ['a carriage return', 'Apollo\rteam'],
] as const;

describe.each(databaseKinds)('one-line and multi-line text in requests, on %s', (kind) => {
  const suite = suiteSteward(kind, { env: { STEWARD_WORKER_CONCURRENCY: '0' } });

  const count = (table: 'jobs' | 'hooks' | 'team_metadata') => rowCount(suite.app, table);
  const refusedAt = (res: { status: number; body: unknown }, target: string) => {
    expect(res.status).toBe(400);
    expect((res.body as ErrorBody).error.details).toEqual([
      expect.objectContaining({ code: 'controlCharacter', target }),
    ]);
  };
  const provision = (team: Record<string, unknown>) =>
    suite.app.call<Job & ErrorBody>('POST', '/api/v1.0/teams/provisioning', {
      token: suite.alex,
      body: { template: { id: 'project' }, team },
    });
  const template = async (id: string) =>
    (
      await suite.app.call<CatalogTemplate>('GET', `/api/v1.0/catalog/templates/${id}`, {
        token: suite.megan,
      })
    ).body;

  test.each(BREAKS)('%s in a team name is a 400 naming the field, and no job is created', async (_, name) => {
    const before = await count('jobs');
    const res = await provision({ name });
    refusedAt(res, 'body.team.name');
    expect(res.body.error.details?.[0]?.message).toMatch(/one-line field/);
    expect(await count('jobs')).toBe(before);
  });

  test.each(BREAKS)('%s in a hook name is refused, and no hook is created', async (_, name) => {
    const before = await count('hooks');
    const res = await suite.app.call('POST', '/api/v1.0/hooks', {
      token: suite.megan,
      body: { name, config: { url: 'http://127.0.0.1/hook' }, events: ['team_created'] },
    });
    refusedAt(res, 'body.name');
    expect(await count('hooks')).toBe(before);
  });

  test("one-line fields of a template, a team's display name, a channel's and a tab's, and a metadata key", async () => {
    const original = await template('project');
    const channel = { displayName: 'Plans\nand more', membershipType: 'standard' as const };
    const newTeam = { ...original.newTeam, channels: [channel] };
    const put = (body: unknown) =>
      suite.app.call('PUT', '/api/v1.0/catalog/templates/project', { token: suite.megan, body });
    refusedAt(await put({ ...original, newTeam }), 'body.newTeam.channels.0.displayName');
    const configuration = { ...original.templateConfiguration, name: 'Project\tteam' };
    refusedAt(
      await put({ ...original, templateConfiguration: configuration }),
      'body.templateConfiguration.name',
    );
    const tabs = original.newTeam.tabs.map((t, i) => (i === 0 ? { ...t, displayName: 'Charter\tv2' } : t));
    refusedAt(
      await put({ ...original, newTeam: { ...original.newTeam, tabs } }),
      'body.newTeam.tabs.0.displayName',
    );
    // Nothing was saved.
    expect(await template('project')).toEqual(original);

    const patch = await suite.app.call('PATCH', '/api/v1.0/teams/no-such-team', {
      token: suite.megan,
      body: { displayName: 'Two\r\nlines' },
    });
    refusedAt(patch, 'body.displayName');
    const newChannel = await suite.app.call('POST', '/api/v1.0/teams/no-such-team/channels', {
      token: suite.megan,
      body: { displayName: 'General\tish' },
    });
    refusedAt(newChannel, 'body.displayName');
    const before = await count('team_metadata');
    const meta = await suite.app.call('PUT', '/api/v1.0/teams/whatever/metadata/project', {
      token: suite.megan,
      body: { 'cost\ncentre': 'x' },
    });
    refusedAt(meta, 'body.cost\ncentre');
    expect(await count('team_metadata')).toBe(before);
    // Query parameters are one line too.
    const query = await suite.app.call('GET', `/api/v1.0/users?$search=${encodeURIComponent('a\tb')}`, {
      token: suite.megan,
    });
    refusedAt(query, 'query.$search');
  });

  test('multi-line fields keep tab and line breaks: descriptions, welcome messages, rules, metadata values', async () => {
    const text = 'First line\n\tsecond line\r\nthird';
    const job = await provision({ name: 'Line breaks', description: text, welcomeMessage: text });
    expect(job.status).toBe(201);
    const hook = await suite.app.call('POST', '/api/v1.0/hooks', {
      token: suite.megan,
      body: {
        name: 'Multi-line',
        description: text,
        config: { url: 'http://127.0.0.1/hook' },
        events: ['team_created'],
      },
    });
    expect(hook.status).toBe(201);
    const original = await template('project');
    const saved = await suite.app.call('PUT', '/api/v1.0/catalog/templates/project', {
      token: suite.megan,
      body: {
        ...original,
        templateConfiguration: { ...original.templateConfiguration, description: text },
        newTeam: {
          ...original.newTeam,
          defaultWelcomeMessage: text,
          channels: original.newTeam.channels.map((c) => ({ ...c, description: text })),
        },
      },
    });
    expect(saved.status).toBe(200);
    expect((await template('project')).templateConfiguration.description).toBe(text);
    const meta = await suite.app.call('PUT', '/api/v1.0/teams/whatever/metadata/project', {
      token: suite.megan,
      body: { notes: text },
    });
    expect(meta.status).not.toBe(400);
    // Other controls stay refused even where lines are allowed.
    const bell = await provision({ name: 'Bell', description: 'Ding\u0007' });
    refusedAt(bell, 'body.team.description');
    expect(bell.body.error.details?.[0]?.message).toMatch(/tab and line breaks are\./);
  });

  test('every seeded template passes the rule: each is saved back unchanged', async () => {
    const all = await suite.app.call<CatalogTemplates>('GET', '/api/v1.0/catalog/templates', {
      token: suite.megan,
    });
    expect(all.body.value.length).toBeGreaterThan(0);
    for (const seeded of all.body.value) {
      const id = seeded.templateConfiguration.id!;
      const res = await suite.app.call('PUT', `/api/v1.0/catalog/templates/${id}`, {
        token: suite.megan,
        body: seeded,
      });
      expect([id, res.status]).toEqual([id, 200]);
    }
  });

  test('a lone surrogate is refused wherever a control character is, and no job or metadata is written', async () => {
    const malformedAt = (res: { status: number; body: unknown }, target: string) => {
      expect(res.status).toBe(400);
      expect((res.body as ErrorBody).error.details).toEqual([
        expect.objectContaining({ code: 'malformedText', target }),
      ]);
    };
    const jobs = await count('jobs');
    malformedAt(await provision({ name: 'Apollo \ud800' }), 'body.team.name');
    // A low surrogate alone, in a multi-line field.
    malformedAt(await provision({ name: 'Apollo', description: 'ends \udfff' }), 'body.team.description');
    expect(await count('jobs')).toBe(jobs);
    const metadata = await count('team_metadata');
    const put = (body: unknown) =>
      suite.app.call('PUT', '/api/v1.0/teams/whatever/metadata/project', { token: suite.megan, body });
    malformedAt(await put({ notes: 'half \ud800 a pair' }), 'body.notes');
    malformedAt(await put({ 'key\udc00': 'x' }), 'body.key\udc00');
    expect(await count('team_metadata')).toBe(metadata);
    const query = await suite.app.call('GET', `/api/v1.0/users?$search=${encodeURIComponent('a')}%ED%A0%80`, {
      token: suite.megan,
    });
    // A URL's percent-encoded lone surrogate decodes to U+FFFD, which is a character: not refused.
    expect(query.status).toBe(200);
    // A pair is one character (here U+1F680) and is welcome.
    expect((await provision({ name: 'Apollo \ud83d\ude80' })).status).toBe(201);
  });

  test('inherited property names are unknown fields, never the prototype: 400, not 500', async () => {
    const jobs = await suite.app.call<ErrorBody>('GET', '/api/v1.0/me/jobs?constructor=1', {
      token: suite.alex,
    });
    expect(jobs.status).toBe(400);
    expect(jobs.body.error.details?.[0]?.target).toBe('query');
    for (const key of ['constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      const res = await suite.app.call<ErrorBody>('POST', '/api/v1.0/teams/provisioning', {
        token: suite.alex,
        body: { template: { id: 'project' }, team: { name: 'Inherited', [key]: 'x' } },
      });
      expect([key, res.status]).toEqual([key, 400]);
      const text = JSON.stringify(res.body.error.details);
      expect(text).toContain(key);
    }
    const meta = await suite.app.call('PUT', '/api/v1.0/teams/whatever/metadata/project', {
      token: suite.megan,
      body: { constructor: 'x', nested: { toString: 'y' } },
    });
    expect(meta.status).toBeLessThan(500);
  });

  test("a convention's output meets the rules of typed text: a line break in a name is a 400, no job", async () => {
    const original = await template('project');
    const put = (newTeam: Record<string, unknown>) =>
      suite.app.call('PUT', '/api/v1.0/catalog/templates/project', {
        token: suite.megan,
        body: { ...original, newTeam: { ...original.newTeam, ...newTeam } },
      });
    try {
      expect((await put({ namingConvention: "A<%= '\\n' %>B" })).status).toBe(200);
      const jobs = await count('jobs');
      const res = await provision({ name: 'Conventions' });
      expect(res.status).toBe(400);
      expect((res.body as ErrorBody).error.details).toEqual([
        expect.objectContaining({ code: 'controlCharacter', target: 'team.name' }),
      ]);
      expect(await count('jobs')).toBe(jobs);
      // A multi-line field keeps its line breaks from a convention, and refuses other controls.
      expect(
        (
          await put({
            namingConvention: undefined,
            descriptionConvention: "One<%= '\\n' %>Two<%= '\\b' %>",
          })
        ).status,
      ).toBe(200);
      const bell = await provision({ name: 'Bell convention' });
      expect(bell.status).toBe(400);
      expect((bell.body as ErrorBody).error.details).toEqual([
        expect.objectContaining({ code: 'controlCharacter', target: 'team.description' }),
      ]);
    } finally {
      expect(
        (
          await suite.app.call('PUT', '/api/v1.0/catalog/templates/project', {
            token: suite.megan,
            body: original,
          })
        ).status,
      ).toBe(200);
    }
  });
});
