import type { Agent } from 'undici';
import type { Job, TeamLabelStatus } from '../../../src/contract';
import { createGraphPlatform, type GraphPlatform } from '../../../src/platform/graph';
import { SEED_LABEL_IDS } from '../../../src/store/seed/directory';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../support/databases';
import { EntraTokens } from '../../support/entraTokens';
import { FakeGraph, type LoggedRequest } from '../../support/fakeGraph';
import { BOT, graphSettings, seedTenant } from '../../support/graphTenant';
import { waitForJob } from '../../support/jobs';
import { table } from '../../support/reportPages';
import { PEOPLE, startTestSteward, type TestSteward } from '../../support/steward';
import { putLabelledTemplates } from '../../support/labelledTemplates';

/**
 * Sensitivity labels on Microsoft Graph (simulator), Steward signed in through Entra ID: Graph
 * refuses `assignedLabels` to application tokens (`api/group-update.md`), so the label goes on with
 * a person's delegated token, obtained by the on-behalf-of flow, of someone Graph lets change the
 * group: the requester's (an owner, kept and renewed through an approval), or an owner's later.
 * A label never fails a job.
 */

const LABEL = SEED_LABEL_IDS.confidentialAllEmployees;

describe.each(databaseKinds)('sensitivity labels on Microsoft Graph, %s', (kind) => {
  let fake: FakeGraph;
  let entra: EntraTokens;
  let dispatcher: Agent;
  let platform: GraphPlatform;
  let db: TestDatabase;
  let app: TestSteward;
  let alex: string;
  let adele: string;
  let megan: string;
  let isaiah: string;

  beforeAll(async () => {
    fake = await FakeGraph.start({ bot: BOT });
    seedTenant(fake);
    dispatcher = fake.dispatcher();
    // People's tokens for Steward's API are issued to Steward's app registration (aud = its client id).
    entra = await EntraTokens.start(fake.tenantId, fake.clientId);
    fake.signInTrust = { issuer: entra.issuer, key: entra.publicKey };
    db = await createTestDatabase(kind);
    platform = createGraphPlatform(
      { ...fake.config(), onBehalfOf: { clientId: fake.clientId, clientSecret: fake.clientSecret } },
      {
        dispatcher,
        retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 50, timeoutMs: 10_000 },
        polling: {
          initialDelayMs: 5,
          cloneInitialDelayMs: 5,
          replicationDelayMs: 5,
          maxDelayMs: 10,
          timeoutMs: 10_000,
          notFoundRetries: 3,
        },
        replicationDelayMs: 5,
        sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, 2))),
      },
    );
    app = await startTestSteward(
      db,
      { STEWARD_JOB_POLL_MS: '50', ...graphSettings(fake), ...entra.settings() },
      { platform },
    );
    alex = await entra.user(PEOPLE.alex, 'Alex Wilber');
    adele = await entra.user(PEOPLE.adele, 'Adele Vance');
    isaiah = await entra.user(PEOPLE.isaiah, 'Isaiah Langer');
    megan = await entra.user(PEOPLE.megan, 'Megan Bowen', ['GLOBAL_ADMIN']);
    await putLabelledTemplates(app, megan, LABEL, { namingConvention: 'LBL-<%= request.team.name %>' });
  });

  afterAll(async () => {
    await app?.close();
    await dispatcher?.close();
    await entra?.close();
    await fake?.close();
    await db?.drop();
  });

  afterEach(() => {
    fake.delegatedConsent.add('Group.ReadWrite.All');
    fake.groupAdministrators.clear();
  });

  const provision = async (token: string, template: string, name: string): Promise<Job> => {
    const res = await app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
      token,
      body: { template: { id: template }, team: { name } },
    });
    expect(res.status).toBe(201);
    return res.body;
  };
  /** The rows of a table of a report page, as a governance manager opens it. */
  const reportTable = async (token: string, id: string, tableId: string) => {
    const url = await app.call<{ url: string }>('GET', `/api/v1.0/reports/dashboard/${id}`, { token });
    expect(url.status).toBe(200);
    const { request } = await import('undici');
    const page = await request(url.body.url);
    return table(await page.body.text(), tableId);
  };
  const teamOf = (job: Job) => job.data.team as { id: string; displayName: string };
  /** The label writes Graph received since `mark`, with who sent each (the token's claims). */
  const labelWrites = (mark: number) =>
    fake.requests
      .slice(mark)
      .filter(
        (r: LoggedRequest) => r.method === 'PATCH' && JSON.stringify(r.body ?? {}).includes('assignedLabels'),
      )
      .map((r) => fake.tokenClaims((r.headers.authorization ?? '').replace(/^Bearer /, '')));

  test('Graph refuses a label written with an application token, as its documentation says', async () => {
    const appToken = await platform.delegation
      .exchange({ userId: PEOPLE.alex, assertion: await entra.app(fake.clientId) })
      .then(
        () => 'exchanged',
        (error: Error) => error.message,
      );
    // An application's token is not a person's: the on-behalf-of grant refuses it.
    expect(appToken).toMatch(/invalid_grant, AADSTS50013/);
    const group = fake.addTeam({ displayName: 'Direct', ownerIds: [PEOPLE.alex] });
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: fake.clientId,
      client_secret: fake.clientSecret,
      scope: 'https://graph.microsoft.com/.default',
    });
    const tokenRes = await fetchJson(`${fake.origin}/${fake.tenantId}/oauth2/v2.0/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    const token = (tokenRes.body as { access_token: string }).access_token;
    expect(fake.tokenClaims(token)).toMatchObject({ idtyp: 'app' });
    const patch = await fetchJson(`${fake.baseUrl}/groups/${group}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ assignedLabels: [{ labelId: LABEL }] }),
    });
    expect(patch.status).toBe(401);
    expect(patch.body).toMatchObject({
      error: { code: 'Unauthorized', message: 'App-only token is not supported.' },
    });
    expect(fake.groups.get(group)?.assignedLabels).toEqual([]);
  });

  test("without approval, the label goes on with the requester's delegated token, never the app's", async () => {
    const mark = fake.requests.length;
    const created = await provision(alex, 'labelled', 'Quasar');
    const job = await waitForJob(app, alex, created.id);
    expect(job.status).toBe('completed');
    const team = teamOf(job);
    expect(fake.groups.get(team.id)?.assignedLabels).toEqual([{ labelId: LABEL }]);
    // One write, with a delegated token for Alex carrying only the permission it needs.
    expect(labelWrites(mark)).toEqual([
      expect.objectContaining({ idtyp: 'user', oid: PEOPLE.alex, scp: 'Group.ReadWrite.All' }),
    ]);
    expect(job.data.label).toEqual({ id: LABEL, status: 'applied', appliedBy: PEOPLE.alex });
    expect(job.log.join('\n')).toContain(
      `Applied the sensitivity label ${LABEL} with the authority of Alex Wilber.`,
    );
    // The grant was used once and is gone; it was never kept in clear.
    expect(await app.steward.store.db.selectFrom('delegated_grants').selectAll().execute()).toEqual([]);
  });

  test('Graph refuses a label from a person who neither owns the group nor administers groups', async () => {
    const group = fake.addTeam({ displayName: 'Owned by Alex', ownerIds: [PEOPLE.alex] });
    const asAdele = await platform.delegation.exchange({ userId: PEOPLE.adele, assertion: adele });
    const refused = await platform.teams.applyLabel(group, LABEL, asAdele).then(
      () => undefined,
      (error: { status?: number; code?: string }) => error,
    );
    expect(refused).toMatchObject({ status: 403, code: 'Authorization_RequestDenied' });
    expect(fake.groups.get(group)?.assignedLabels).toEqual([]);
    // A groups administrator may; so may an owner.
    fake.groupAdministrators.add(PEOPLE.adele);
    await platform.teams.applyLabel(group, LABEL, asAdele);
    expect(fake.groups.get(group)?.assignedLabels).toEqual([{ labelId: LABEL }]);
    const asAlex = await platform.delegation.exchange({ userId: PEOPLE.alex, assertion: alex });
    await platform.teams.applyLabel(group, LABEL, asAlex);
  });

  test("with approval by someone who is not an owner or administrator, the requester's kept grant applies it, renewed after days", async () => {
    const mark = fake.requests.length;
    const exchanges = fake.onBehalfOfRequests.length;
    const refreshes = fake.refreshRequests.length;
    const created = await provision(alex, 'labelled-approved', 'Nebula');
    // The approval takes days: every delegated access token issued until now has lapsed.
    fake.expireDelegatedTokens();
    const approvalId = (created.data.approval as { id: string }).id;
    const approve = await app.call('POST', `/api/v1.0/approvals/${approvalId}/approve`, {
      token: adele,
      body: {},
    });
    expect(approve.status).toBe(200);
    const job = await waitForJob(app, alex, created.id);
    expect(job.status).toBe('completed');
    expect(fake.groups.get(teamOf(job).id)?.assignedLabels).toEqual([{ labelId: LABEL }]);
    expect(job.data.label).toEqual({ id: LABEL, status: 'applied', appliedBy: PEOPLE.alex });
    // Kept when Alex asked; the log names whose authority put it on.
    expect(created.log.join('\n')).toContain(
      "The sensitivity label will be applied with Alex Wilber's authority.",
    );
    expect(job.log.join('\n')).toContain(
      `Applied the sensitivity label ${LABEL} with the authority of Alex Wilber.`,
    );
    // Only Alex's sign-in was exchanged (the approver's was not needed), and renewed once.
    expect(fake.onBehalfOfRequests.slice(exchanges).map((r) => r.outcome)).toEqual(['issued']);
    expect(fake.refreshRequests.slice(refreshes)).toEqual(['issued']);
    // Its lapsed token was refused (401), its renewed one taken; never the approver's.
    expect(labelWrites(mark).map((claims) => claims.oid)).toEqual([PEOPLE.alex, PEOPLE.alex]);
    expect(await app.steward.store.db.selectFrom('delegated_grants').selectAll().execute()).toEqual([]);
  });

  test('when no delegated token can be had, the job completes without the label, says why, and an owner applies it later', async () => {
    fake.delegatedConsent.delete('Group.ReadWrite.All');
    const mark = fake.requests.length;
    const created = await provision(alex, 'labelled', 'Pulsar');
    expect(created.log.join('\n')).toMatch(/without its sensitivity label .*AADSTS65001/);
    const job = await waitForJob(app, alex, created.id);
    expect(job.status).toBe('completed');
    const team = teamOf(job);
    expect(fake.groups.get(team.id)?.assignedLabels).toEqual([]);
    expect(labelWrites(mark)).toEqual([]);
    expect(job.data.label).toMatchObject({ id: LABEL, status: 'missing' });
    expect(job.log.join('\n')).toContain('An owner can apply it with "Apply the label".');
    const settings = job.steps.find((s) => s.name === 'settings');
    expect(settings?.status).toBe('done');

    // The governance overview lists it.
    const listed = await reportTable(megan, 'governance-overview', 'missing-labels');
    expect(listed.map((row) => row[1])).toContain(team.id);

    // Someone who is not an owner may not; an application may not.
    const notOwner = await app.call('POST', `/api/v1.0/teams/${team.id}/sensitivityLabel`, { token: isaiah });
    expect(notOwner.status).toBe(404);
    const asApp = await app.call('POST', `/api/v1.0/teams/${team.id}/sensitivityLabel`, {
      token: await entra.app('some-app', ['GLOBAL_ADMIN']),
    });
    expect(asApp.status).toBe(403);
    // Still no consent: the owner is told why, nothing is written.
    const refused = await app.call<{ error: { code: string; message: string } }>(
      'POST',
      `/api/v1.0/teams/${team.id}/sensitivityLabel`,
      { token: alex },
    );
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/AADSTS65001/);
    expect(refused.text).not.toContain(alex);

    fake.delegatedConsent.add('Group.ReadWrite.All');
    const applied = await app.call<TeamLabelStatus>('POST', `/api/v1.0/teams/${team.id}/sensitivityLabel`, {
      token: alex,
    });
    expect(applied.status).toBe(200);
    expect(applied.body).toEqual({ labelId: LABEL, status: 'applied', appliedBy: PEOPLE.alex });
    expect(fake.groups.get(team.id)?.assignedLabels).toEqual([{ labelId: LABEL }]);
    expect(labelWrites(mark)).toEqual([expect.objectContaining({ idtyp: 'user', oid: PEOPLE.alex })]);
    const after = await reportTable(megan, 'governance-overview', 'missing-labels');
    expect(after.map((row) => row[1])).not.toContain(team.id);
  });
});

async function fetchJson(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
) {
  const { request } = await import('undici');
  const { Agent: UndiciAgent } = await import('undici');
  const { FAKE_GRAPH_CERT } = await import('../../support/fakeGraph/certificate');
  const dispatcher = new UndiciAgent({ connect: { ca: FAKE_GRAPH_CERT } });
  try {
    const res = await request(url, {
      method: init.method as 'POST',
      headers: init.headers,
      body: init.body,
      dispatcher,
    });
    const text = await res.body.text();
    return { status: res.statusCode, body: text ? (JSON.parse(text) as unknown) : undefined };
  } finally {
    await dispatcher.close();
  }
}
