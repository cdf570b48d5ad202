import {
  type Job,
  StewardApiError,
  StewardClient,
  type StewardClientError,
  type TeamProvisioningRequest,
} from '../../src/client';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases';
import { PEOPLE, startTestSteward, type TestSteward } from '../support/steward';

/** Polls a job through the client until it completes or fails. */
async function settled(client: StewardClient, jobId: string, timeoutMs = 15_000): Promise<Job> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await client.getJob(jobId);
    if (job.status === 'completed' || job.status === 'failed') return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${job.status}: ${job.log.join(' | ')}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The StewardApiError a call rejects with. */
async function apiError(call: Promise<unknown>): Promise<StewardApiError> {
  const error = await call.then(
    () => undefined,
    (thrown: StewardClientError) => thrown,
  );
  expect(error).toBeInstanceOf(StewardApiError);
  return error as StewardApiError;
}

describe.each(databaseKinds)('the client against the API on %s', (kind) => {
  let db: TestDatabase;
  let app: TestSteward;
  let client: StewardClient; // Megan, GLOBAL_ADMIN
  let alex: StewardClient;
  let adele: StewardClient;
  let patti: StewardClient;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    app = await startTestSteward(db, { STEWARD_JOB_POLL_MS: '50' });
    client = new StewardClient({
      baseUrl: app.url,
      token: await app.userToken(PEOPLE.megan, ['GLOBAL_ADMIN']),
    });
    alex = client.as(await app.userToken(PEOPLE.alex, [], { name: 'Alex Wilber', upn: 'alexw@example.com' }));
    adele = client.as(
      await app.userToken(PEOPLE.adele, [], { name: 'Adele Vance', upn: 'adelev@example.com' }),
    );
    patti = client.as(() => app.userToken(PEOPLE.patti, ['CATALOG_MANAGER']));
  });
  afterAll(async () => {
    await client.close();
    await app.close();
    await db.drop();
  });

  test('catalog: the caller’s templates, the whole catalog, one template, saving one with string flags', async () => {
    const mine = await alex.getMyCatalogTemplates();
    expect(mine['@odata.count']).toBe(mine.value.length);
    expect(mine.value.map((t) => t.templateConfiguration.id)).toContain('client-engagement');
    const all = await patti.getCatalogTemplates();
    expect(all.value.length).toBeGreaterThan(mine.value.length);
    const one = await alex.getPlatformTeamTemplate('client-engagement');
    expect(one.templateConfiguration.approval.requireApproval).toBe(true);

    const saved = await patti.setPlatformTeamTemplate('client-sales', {
      templateConfiguration: { name: 'Sales deal', enabled: 'true', singleton: 'false' },
      newTeam: { namingConvention: 'DEAL-<%= request.team.name %>' },
    });
    expect(saved.templateConfiguration).toMatchObject({
      id: 'client-sales',
      enabled: true,
      singleton: false,
    });
    const owners = await patti.setPlatformTeamTemplatePermanentMembershipByRole('client-sales', 'owners', [
      { id: 'adelev@example.com' },
    ]);
    expect(owners.map((owner) => owner.id)).toEqual([PEOPLE.adele]);
    expect(await patti.getPlatformTeamTemplatePermanentMembershipByRole('client-sales', 'owners')).toEqual(
      owners,
    );
    const membership = await patti.setPlatformTeamTemplatePermanentMembership('client-sales', {
      owners: [{ id: PEOPLE.adele }],
    });
    expect(membership.members).toEqual([]);
    expect(await patti.getPlatformTeamTemplatePermanentMembership('client-sales')).toEqual(membership);
  });

  test('provisioning with approval: Alex requests, Adele approves with an amended name, the team is made', async () => {
    const request: TeamProvisioningRequest = {
      template: { id: 'client-engagement' },
      team: { name: 'Acme' },
    };
    const job = await alex.createTeamProvisioningJob(request);
    expect(job).toMatchObject({ type: 'ProvisioningRequest', status: 'waiting' });
    const approvalId = (job.data.approval as { id: string }).id;

    const byRequester = await apiError(alex.approveTeamCreation(approvalId));
    // The requester may not decide their own request (the template does not allow self-approval).
    expect(byRequester).toMatchObject({ status: 403, code: 'selfApprovalNotAllowed' });
    await expect(
      adele.approveTeamCreation(approvalId, { message: 'Go ahead', updates: { name: 'Acme Corp' } }),
    ).resolves.toBeUndefined();
    expect(await apiError(adele.rejectTeamCreation(approvalId))).toMatchObject({
      status: 409,
      code: 'conflict',
    });

    const done = await settled(alex, job.id);
    expect(done.status).toBe('completed');
    const created = done.data.team as { id: string; displayName: string };
    expect(created.displayName).toBe('CLI-US-Acme Corp');
    expect(done.log.join('\n')).toContain('Approved by Adele Vance: Go ahead');
  });

  test('a repeated idempotency key returns the first job instead of a second one', async () => {
    const request = { template: { id: 'project' }, team: { name: 'Twice' } };
    const first = await alex.createTeamProvisioningJob(request, { idempotencyKey: 'twice-1' });
    const again = await alex.createTeamProvisioningJob(request, { idempotencyKey: 'twice-1' });
    expect(again.id).toBe(first.id);
    const other = await alex.createTeamProvisioningJob(request);
    expect(other.id).not.toBe(first.id);
  });

  test('teams: reads, a channel and a tab, an update, archive and unarchive as jobs, delete', async () => {
    const job = await settled(
      alex,
      (await alex.createTeamProvisioningJob({ template: { id: 'project' }, team: { name: 'Hermes' } })).id,
    );
    const teamId = (job.data.team as { id: string }).id;

    const team = await client.getTeam(teamId);
    expect(team).toMatchObject({ id: teamId, displayName: 'PRJ-Hermes', isArchived: false });
    const members = await alex.getTeamMembers(teamId);
    expect(members.find((m) => m.userId === PEOPLE.alex)?.roles).toEqual(['owner']);
    expect((await alex.getTeamPrimaryChannel(teamId)).displayName).toBe('General');
    const channel = await alex.createTeamChannel(teamId, { displayName: 'Launch' });
    expect((await alex.getTeamChannels(teamId)).map((c) => c.displayName)).toContain('Launch');
    const tab = await alex.createTeamChannelTab(teamId, channel.id, {
      displayName: 'Plan',
      teamsAppId: 'com.microsoft.teamspace.tab.web',
      configuration: { contentUrl: 'https://example.com/plan', websiteUrl: 'https://example.com/plan' },
    });
    expect((await alex.getTeamChannelTabs(teamId, channel.id)).map((t) => t.id)).toContain(tab.id);
    const added = await alex.addTeamMember(teamId, { user: { id: 'isaiah@example.com' } });
    expect(added.userId).toBe(PEOPLE.isaiah);

    await expect(
      client.updateTeam(teamId, { description: 'Launch team', funSettings: { allowGiphy: false } }),
    ).resolves.toBeUndefined();
    expect((await client.getTeam(teamId)).description).toBe('Launch team');

    const archive = await alex.archiveTeam(teamId);
    expect(archive.location).toMatch(new RegExp(`/api/v1\\.0/jobs/${archive.jobId}$`));
    expect(archive.job.type).toBe('TeamArchiveRequest');
    expect((await settled(alex, archive.jobId)).status).toBe('completed');
    expect((await client.getTeam(teamId)).isArchived).toBe(true);
    const unarchive = await alex.unarchiveTeam(teamId);
    expect((await settled(alex, unarchive.jobId)).status).toBe('completed');
    expect((await client.getTeam(teamId)).isArchived).toBe(false);

    await expect(alex.deleteTeam(teamId)).resolves.toBeUndefined();
    expect(await apiError(client.getTeam(teamId))).toMatchObject({ status: 404, code: 'notFound' });
  });

  test('metadata: put, get, deep-merge patch, containment query', async () => {
    const job = await settled(
      alex,
      (await alex.createTeamProvisioningJob({ template: { id: 'project' }, team: { name: 'Meta' } })).id,
    );
    const teamId = (job.data.team as { id: string }).id;
    expect(await client.getTeamNamespaceMetadata(teamId, 'finance')).toEqual({});
    await client.setTeamNamespaceMetadata(teamId, 'finance', { costCenter: 4711, tags: ['a'] });
    const merged = await client.updateTeamNamespaceMetadata(teamId, 'finance', {
      owner: { name: 'Ada' },
      tags: null,
    });
    expect(merged).toEqual({ costCenter: 4711, owner: { name: 'Ada' } });
    expect(await client.getTeamNamespaceMetadata(teamId, 'finance')).toEqual(merged);
    expect(await client.queryMetadata('finance', { costCenter: 4711 })).toEqual([
      { artefact_type: 'MicrosoftTeamsTeam', artefact_id: teamId },
    ]);
  });

  test('directory: people pages followed through @odata.nextLink, labels, webhook helpers', async () => {
    const first = await alex.getUsers({ top: 5 });
    expect(first.value).toHaveLength(5);
    expect(first['@odata.nextLink']).toBeDefined();
    const second = await alex.nextPage(first);
    expect(second?.value[0]?.id).not.toBe(first.value[0]?.id);
    const everyone: string[] = [];
    for await (const user of alex.followNextLinks(first)) everyone.push(user.id);
    expect(everyone).toHaveLength(first['@odata.count']);
    expect(new Set(everyone).size).toBe(everyone.length);
    const ad = await alex.getUsers({ search: 'adele' });
    expect(ad.value.map((u) => u.id)).toEqual([PEOPLE.adele]);

    expect((await alex.getMyLabels()).value.length).toBeGreaterThan(0);
    expect((await alex.getHooksEvents()).value.map((e) => e.code)).toContain('team_created');
    const { signature } = await alex.generateHookSignature({ secret: 's3cret', payload: { a: 1 } });
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
  });

  test('webhooks: create as an integration app, list, read, its deliveries, delete', async () => {
    const app1 = client.as(
      await app.appToken('341355bf-907c-4b6e-8e8a-8d78985f8d65', ['INTEGRATION_MANAGER']),
    );
    const created = await app1.createHook({
      name: 'Client test',
      events: ['team_created'],
      config: { url: 'http://127.0.0.1:9/hooks', secret: 'a-secret-of-enough-length' },
    });
    expect(created).toMatchObject({ name: 'Client test', active: true, events: ['team_created'] });
    expect(JSON.stringify(created)).not.toContain('a-secret-of-enough-length');
    expect((await app1.listHooks()).value.map((h) => h.id)).toContain(created.id);
    expect(await app1.getHook(created.id)).toEqual(created);
    expect((await app1.getHookDeliveries(created.id, { top: 10 })).value).toEqual([]);
    expect(await app1.deleteHook(created.id)).toMatchObject({ id: created.id });
    expect((await apiError(app1.getHook(created.id))).status).toBe(404);
  });

  test('reports: categories, catalogue, and a signed URL that opens the page', async () => {
    const categories = await client.getReportsCategories();
    const reports = await client.getReports();
    expect(reports.length).toBeGreaterThanOrEqual(6);
    for (const report of reports) expect(categories.map((c) => c.id)).toContain(report.category_id);
    const report = reports[0]!;
    const { url } = await client.getReportUrl(report.type, report.id);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect((await apiError(client.getReportUrl('question', 'no-such-report'))).status).toBe(404);
  });

  test('audit: trails, and records paged newest first through nextPage', async () => {
    // Refused calls are recorded in the security trail: one record per source, reason and minute,
    // so refusals for five reasons (the roles each operation needs) are five records.
    await apiError(alex.getCatalogTemplates());
    await apiError(alex.getAuditTrails());
    await apiError(alex.getHook('any-hook'));
    await apiError(alex.getTeam('any-team'));
    await apiError(alex.getAuditTrails());
    await apiError(alex.getReportsCategories());
    await apiError(alex.getCatalogTemplates());
    const trails = await client.getAuditTrails();
    expect(trails.value.map((t) => t.code)).toContain('security');

    const first = await client.getAuditTrailRecords('security', {
      top: 2,
      from: new Date(Date.now() - 60_000),
    });
    expect(first.value).toHaveLength(2);
    const records = [];
    for await (const record of client.followNextLinks(first)) records.push(record);
    expect(records.length).toBeGreaterThanOrEqual(5);
    expect(new Set(records.map((r) => r.id)).size).toBe(records.length);
    const dates = records.map((r) => r.date);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(records[0]).toMatchObject({ action: 'access_denied', outcome: 'denied' });
  });

  test('errors: 404, 403, 400 with details, 401, and encoded path segments', async () => {
    const missing = await apiError(client.getTeam('no-such-team', { clientRequestId: 'client-test-1' }));
    expect(missing).toMatchObject({
      status: 404,
      code: 'notFound',
      clientRequestId: 'client-test-1',
      attempts: 1,
    });
    expect(missing.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(missing.operationId).toBe('getTeam');

    expect(await apiError(alex.getCatalogTemplates())).toMatchObject({ status: 403, code: 'forbidden' });

    const invalid = await apiError(
      alex.createTeamProvisioningJob({ template: { id: 'project' }, team: { name: '' } }),
    );
    expect(invalid).toMatchObject({ status: 400, code: 'validationFailed' });
    expect(invalid.details.map((d) => d.target)).toContain('body.team.name');

    expect(await apiError(client.as('not-a-token').getMyLabels())).toMatchObject({
      status: 401,
      code: 'unauthorized',
    });

    // "a/b" reaches the template route as one segment and fails its pattern, not the router.
    const slash = await apiError(alex.getPlatformTeamTemplate('a/b'));
    expect(slash).toMatchObject({ status: 400, code: 'validationFailed' });
    expect(slash.details.map((d) => d.target)).toEqual(['path.template_id']);
    // Empty and dot segments would reach another path: refused before anything is sent.
    await expect(client.getTeam('')).rejects.toThrow(TypeError);
    await expect(client.getTeam('..')).rejects.toThrow(TypeError);
  });
});

describe('the client at the real rate limit', () => {
  let db: TestDatabase;
  let app: TestSteward;
  let client: StewardClient;

  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
    app = await startTestSteward(db, { STEWARD_RATE_LIMIT_FACTOR: '1' });
    client = new StewardClient({ baseUrl: `${app.url}/`, token: await app.userToken(PEOPLE.alex) });
  });
  afterAll(async () => {
    await client.close();
    await app.close();
    await db.drop();
  });

  test('a Retry-After longer than the longest wait is not waited for: the 429 comes back at once', async () => {
    // Tier 1 allows 6 calls a minute; a request for a template that does not exist still spends one.
    // Provisioning carries an idempotency key, so it is retryable: only the cap stops a retry here.
    const request = { template: { id: 'no-such-template' }, team: { name: 'Limited' } };
    for (let i = 0; i < 6; i++) {
      expect(await apiError(client.createTeamProvisioningJob(request))).toMatchObject({ status: 404 });
    }
    const started = Date.now();
    const limited = await apiError(client.createTeamProvisioningJob(request));
    expect(limited).toMatchObject({ status: 429, code: 'tooManyRequests', attempts: 1 });
    expect(limited.retryAfterMs).toBeGreaterThan(0);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
