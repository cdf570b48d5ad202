import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { EmbeddedTeams } from '../../../src/platform/embedded';
import {
  escapeHtml,
  htmlToText,
  renderTeamListPage,
  renderTeamPage,
} from '../../../src/platform/embedded/viewer';
import { migrate, openStore, type Store } from '../../../src/store/database';
import { seedDemoData } from '../../../src/store/seed';
import { newTeamSpec } from '../../support/teams';
import { createTestDatabase, type TestDatabase } from '../../support/databases';
import { startTestSteward, type TestSteward } from '../../support/steward';

const ALEX = '00000000-0000-0000-0000-000000000020';
const MEGAN = '00000000-0000-0000-0000-000000000021';
const SCRIPT = '<script>alert(1)</script>';

describe('embedded tenant viewer', () => {
  let database: TestDatabase;
  let store: Store;
  let teams: EmbeddedTeams;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    store = openStore({ kind: 'sqlite', file: database.url.slice('sqlite:'.length) });
    await migrate(store.db);
    await seedDemoData(store);
    teams = new EmbeddedTeams(store.db, { publicUrl: () => 'http://steward.test', latencyMs: 0, faults: [] });
  });
  afterAll(async () => {
    await store.close();
    await database.drop();
  });

  it('shows a team: names, members with owner badges, channels, tabs and the welcome message', async () => {
    const spec = newTeamSpec();
    const team = await teams.createTeam(spec);
    // A label goes on as an owner, with their delegated grant.
    const grant = { userId: spec.ownerId, token: 'grant', expiresAt: new Date(Date.now() + 60_000) };
    await teams.applyLabel(team.id, 'label-general', grant);
    await teams.addMember(team.id, MEGAN, 'member');
    const general = await teams.primaryChannel(team.id);
    const planning = await teams.createChannel(
      team.id,
      { displayName: 'Planning', membershipType: 'standard' },
      ALEX,
    );
    await teams.createTab(team.id, planning.id, {
      displayName: 'Charter',
      teamsAppId: 'com.microsoft.teamspace.tab.web',
      configuration: { websiteUrl: 'https://example.com/charter' },
    });
    await teams.postMessage(team.id, general.id, '<p>Welcome to <b>Apollo</b> &amp; friends!</p>');
    await teams.archiveTeam(team.id, true);

    const html = await renderTeamPage(teams, team.id);
    expect(html).toContain('<title>Project Apollo');
    expect(html).toContain('Going to the moon.');
    expect(html).toContain('private');
    expect(html).toContain('archived');
    expect(html).toContain('site read-only for members');
    expect(html).toContain('label-general');
    expect(html).toMatch(
      /Alex Wilber <span class="muted">alexw@example\.com<\/span><span class="badge">owner<\/span>/,
    );
    expect(html).toMatch(/Megan Bowen <span class="muted">meganb@example\.com<\/span><\/li>/);
    expect(html).toContain('<h3>General</h3>');
    expect(html).toContain('<h3>Planning</h3>');
    expect(html).toContain('<a href="https://example.com/charter" rel="noopener noreferrer">Charter</a>');
    expect(html).toContain('Welcome to Apollo &amp; friends!');
    expect(html).not.toContain('<script');
  });

  it('lists every team with a link to its page', async () => {
    const team = await teams.createTeam(newTeamSpec({ displayName: 'Listed team' }));
    const html = await renderTeamListPage(teams);
    expect(html).toContain(`<a href="/platform/teams/${team.id}">Listed team</a>`);
  });

  it('escapes what users wrote: names, descriptions, channel and tab names, messages, tab links', async () => {
    const team = await teams.createTeam(
      newTeamSpec({ displayName: SCRIPT, description: `"><img src=x onerror=alert(1)>` }),
    );
    const general = await teams.primaryChannel(team.id);
    await teams.createChannel(team.id, { displayName: '<b>bold</b>', membershipType: 'standard' }, ALEX);
    await teams.createTab(team.id, general.id, {
      displayName: SCRIPT,
      teamsAppId: '<i>app</i>',
      configuration: { websiteUrl: 'javascript:alert(1)' },
    });
    await teams.postMessage(team.id, general.id, `<p>hi</p>${SCRIPT}&lt;script&gt;alert(2)&lt;/script&gt;`);
    await teams.addMember(team.id, '<u>x</u>', 'member');

    const html = (await renderTeamPage(teams, team.id)) ?? '';
    for (const raw of ['<script', '<img', '<b>bold', '<i>app', '<u>x', 'javascript:'])
      expect(html).not.toContain(raw);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('&lt;script&gt;alert(2)&lt;/script&gt;');
    const list = await renderTeamListPage(teams);
    expect(list).not.toContain('<script');
    expect(list).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('answers undefined for an unknown team', async () => {
    expect(await renderTeamPage(teams, randomUUID())).toBeUndefined();
  });

  it('escapes the five HTML-significant characters and turns message HTML into text', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(htmlToText('<p>One</p><p>Two<br>Three &amp;lt;</p>')).toBe('One\nTwo\nThree &lt;');
  });
});

describe('embedded tenant viewer over HTTP', () => {
  let database: TestDatabase;
  let steward: TestSteward;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    steward = await startTestSteward(database);
  });
  afterAll(async () => {
    await steward.close();
    await database.drop();
  });

  it('serves the seeded template team, the list of teams, and a 404 page for unknown ids', async () => {
    const page = await request(`${steward.url}/platform/teams/seed-team-onboarding-template`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    // The pages' forms must reach the server with their origin: a browser sends `Origin: null`
    // for a form posted from a page under `no-referrer`.
    expect(page.headers['referrer-policy']).toBe('same-origin');
    const html = await page.body.text();
    expect(html).toContain('Onboarding template team');
    expect(html).toContain('Welcome');
    expect(html).toContain('Resources');

    const list = await request(`${steward.url}/platform/teams`);
    expect(list.statusCode).toBe(200);
    expect(await list.body.text()).toContain('href="/platform/teams/seed-team-onboarding-template"');

    const missing = await request(`${steward.url}/platform/teams/${encodeURIComponent('<script>')}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toBe('text/html; charset=utf-8');
    const text = await missing.body.text();
    expect(text).toContain('&lt;script&gt;');
    expect(text).not.toContain('<script');
  });

  it("marks a team active from its page's form, and refuses a form posted from another site", async () => {
    const team = 'seed-team-onboarding-template';
    const html = await (await request(`${steward.url}/platform/teams/${team}`)).body.text();
    expect(html).toContain(`action="/platform/teams/${team}/activity"`);
    const lastActivity = async () =>
      (
        await steward.steward.store.db
          .selectFrom('platform_teams')
          .select('last_activity_at')
          .where('id', '=', team)
          .executeTakeFirstOrThrow()
      ).last_activity_at;
    const post = (origin: string) =>
      request(`${steward.url}/platform/teams/${team}/activity`, { method: 'POST', headers: { origin } });
    const foreign = await post('http://evil.example');
    expect(foreign.statusCode).toBe(403);
    await foreign.body.dump();
    expect(await lastActivity()).toBeNull();
    const before = Date.now();
    const marked = await post(steward.url);
    expect(marked.statusCode).toBe(303);
    expect(marked.headers.location).toBe(`/platform/teams/${team}`);
    await marked.body.dump();
    expect(Date.parse((await lastActivity())!)).toBeGreaterThanOrEqual(before);
  });

  it('makes a team 336 days older from its page, for lifecycle demos, and only from its page', async () => {
    const team = 'seed-team-onboarding-template';
    const html = await (await request(`${steward.url}/platform/teams/${team}`)).body.text();
    expect(html).toContain(`action="/platform/teams/${team}/backdate"`);
    const dates = () =>
      steward.steward.store.db
        .selectFrom('platform_teams')
        .select(['created_at', 'last_activity_at'])
        .where('id', '=', team)
        .executeTakeFirstOrThrow();
    const before = await dates();
    const post = (origin: string, id = team) =>
      request(`${steward.url}/platform/teams/${id}/backdate`, { method: 'POST', headers: { origin } });
    const foreign = await post('http://evil.example');
    expect(foreign.statusCode).toBe(403);
    await foreign.body.dump();
    expect(await dates()).toEqual(before);
    const missing = await post(steward.url, 'no-such-team');
    expect(missing.statusCode).toBe(404);
    await missing.body.dump();
    const aged = await post(steward.url);
    expect(aged.statusCode).toBe(303);
    await aged.body.dump();
    const after = await dates();
    const DAY = 86_400_000;
    expect(Date.parse(before.created_at) - Date.parse(after.created_at)).toBe(336 * DAY);
    // Its last activity moves with it (none stays none).
    expect(after.last_activity_at).toBe(
      before.last_activity_at
        ? new Date(Date.parse(before.last_activity_at) - 336 * DAY).toISOString()
        : null,
    );
  });
});
