import { sql } from 'kysely';
import type { AuditTrailRecord, AuditTrails, Job, ODataCollection } from '../../../src/contract';
import { AuditLog } from '../../../src/services/audit/audit';
import { AuditRepository } from '../../../src/store/audit/audit';
import { databaseKinds } from '../../support/databases';
import { waitForJob } from '../../support/jobs';
import { PEOPLE, suiteSteward, TENANT } from '../../support/steward';

type Records = ODataCollection<AuditTrailRecord>;

describe.each(databaseKinds)('audit trails on %s', (kind) => {
  const suite = suiteSteward(kind, {
    env: { STEWARD_JOB_POLL_MS: '50' },
    people: {
      adele: { id: PEOPLE.adele, name: 'Adele Vance', upn: 'adelev@example.com' },
      lynne: { id: PEOPLE.lynne, roles: ['GOVERNANCE_MANAGER'] },
    },
  });

  /** Every record of a trail, oldest first, read page by page through `@odata.nextLink`. */
  async function allRecords(code: string, top = 3): Promise<AuditTrailRecord[]> {
    const seen: AuditTrailRecord[] = [];
    let path: string | undefined = `/api/v1.0/audit_trails/${code}/records?$top=${top}`;
    while (path) {
      const res: { status: number; body: Records } = await suite.app.call<Records>('GET', path, {
        token: suite.lynne,
      });
      expect(res.status).toBe(200);
      expect(res.body.value.length).toBeLessThanOrEqual(top);
      seen.push(...res.body.value);
      const next: string | undefined = res.body['@odata.nextLink'];
      path = next ? next.slice(suite.app.url.length) : undefined;
    }
    return seen.reverse();
  }

  const about = (records: AuditTrailRecord[], id: string) =>
    records.filter((r) => r.target.id === id || (r.details as { jobId?: string } | null)?.jobId === id);

  test('the trails and their fields', async () => {
    const res = await suite.app.call<AuditTrails>('GET', '/api/v1.0/audit_trails/events', {
      token: suite.lynne,
    });
    expect(res.status).toBe(200);
    expect(res.body.value.map((t) => t.code)).toEqual([
      'team_provisioning',
      'approvals',
      'catalog',
      'teams',
      'lifecycle',
      'metadata',
      'webhooks',
      'security',
    ]);
    for (const trail of res.body.value) {
      expect(trail.fields).toEqual(
        expect.arrayContaining(['id', 'date', 'actor', 'action', 'target', 'outcome', 'request-id']),
      );
    }
  });

  test('a provisioning flow with approval appears in each trail, in order, with actors and request ids', async () => {
    const requested = await suite.app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
      token: suite.alex,
      body: { template: { id: 'client-engagement' }, team: { name: 'Audited' }, metadata: { cost: 1 } },
    });
    expect(requested.status).toBe(201);
    const jobId = requested.body.id;
    const approvalId = (requested.body.data.approval as { id: string }).id;
    const approved = await suite.app.call('POST', `/api/v1.0/approvals/${approvalId}/approve`, {
      token: suite.adele,
      body: { message: 'Fine' },
    });
    expect(approved.status).toBe(200);
    const job = await waitForJob(suite.app, suite.alex, jobId);
    expect(job.status).toBe('completed');
    const teamId = (job.data.team as { id: string }).id;

    const provisioning = about(await allRecords('team_provisioning'), jobId);
    expect(provisioning.map((r) => r.action)).toEqual([
      'provisioning_requested',
      'job_queued',
      'job_started',
      'job_completed',
    ]);
    expect(provisioning[0]).toMatchObject({
      actor: { id: PEOPLE.alex, type: 'user', displayName: 'Alex Wilber' },
      tenant: { id: TENANT },
      target: { type: 'job', id: jobId },
      outcome: 'success',
      'request-id': requested.headers['request-id'],
    });
    expect(provisioning[1]).toMatchObject({
      actor: { id: PEOPLE.adele },
      'request-id': approved.headers['request-id'],
    });
    expect(provisioning[2]).toMatchObject({ actor: { type: 'system' }, 'request-id': null });
    expect(provisioning[3]!.details).toMatchObject({ teamId });

    const approvals = (await allRecords('approvals')).filter((r) => r.target.id === approvalId);
    expect(approvals.map((r) => [r.action, r.actor.id])).toEqual([
      ['approval_requested', PEOPLE.alex],
      ['approval_approved', PEOPLE.adele],
    ]);
    expect(approvals[1]!.details).toMatchObject({ jobId, message: 'Fine' });

    const teams = (await allRecords('teams')).filter((r) => r.target.id === teamId);
    expect(teams.map((r) => r.action)).toEqual(['team_created']);
    const metadata = (await allRecords('metadata')).filter((r) => r.target.id === teamId);
    expect(metadata.map((r) => [r.action, r.details])).toEqual([
      ['metadata_replaced', { namespace: 'provisioning', jobId }],
    ]);

    // Dates never go backwards along a trail.
    const dates = provisioning.map((r) => r.date);
    expect([...dates].sort()).toEqual(dates);
  });

  test('team changes by owners and admins are recorded in the teams trail', async () => {
    const requested = await suite.app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
      token: suite.alex,
      body: { template: { id: 'project' }, team: { name: 'Changes' } },
    });
    const job = await waitForJob(suite.app, suite.alex, requested.body.id);
    const teamId = (job.data.team as { id: string }).id;
    const megan = await suite.app.userToken(PEOPLE.megan, ['GLOBAL_ADMIN']);
    expect(
      (
        await suite.app.call('PATCH', `/api/v1.0/teams/${teamId}`, {
          token: megan,
          body: { description: 'New' },
        })
      ).status,
    ).toBe(204);
    const member = await suite.app.call('POST', `/api/v1.0/teams/${teamId}/members`, {
      token: suite.alex,
      body: { user: { id: PEOPLE.isaiah }, role: 'member' },
    });
    expect(member.status).toBe(201);
    const archive = await suite.app.call<Job>('POST', `/api/v1.0/teams/${teamId}/archive`, {
      token: suite.alex,
    });
    expect(archive.status).toBe(202);
    await waitForJob(suite.app, suite.alex, archive.body.id);
    const put = await suite.app.call('PUT', `/api/v1.0/teams/${teamId}/metadata/finance`, {
      token: megan,
      body: { budget: 10 },
    });
    expect(put.status).toBe(200);

    const teams = (await allRecords('teams', 50)).filter(
      (r) =>
        [teamId, archive.body.id].includes(r.target.id) ||
        (r.details as { jobId?: string } | null)?.jobId === archive.body.id,
    );
    expect(teams.map((r) => [r.action, r.actor.id])).toEqual([
      ['team_created', 'steward'],
      ['team_updated', PEOPLE.megan],
      ['member_added', PEOPLE.alex],
      ['team_archive_requested', PEOPLE.alex],
      ['job_started', 'steward'],
      ['job_completed', 'steward'],
      ['team_archived', 'steward'],
    ]);
    expect(teams[1]!.details).toEqual({ fields: ['description'] });
    expect(teams[2]!.details).toEqual({ userId: PEOPLE.isaiah, role: 'member' });
    const metadata = (await allRecords('metadata')).filter((r) => r.target.id === teamId);
    expect(metadata.map((r) => [r.action, r.actor.id, r['request-id']])).toEqual([
      ['metadata_replaced', PEOPLE.megan, put.headers['request-id']],
    ]);
  });

  test('a saved template is recorded in the catalog trail', async () => {
    const patti = await suite.app.userToken(PEOPLE.patti, ['CATALOG_MANAGER'], { name: 'Patti Fernandez' });
    const current = await suite.app.call<{ templateConfiguration: Record<string, unknown> }>(
      'GET',
      '/api/v1.0/catalog/templates/project',
      { token: patti },
    );
    const saved = await suite.app.call('PUT', '/api/v1.0/catalog/templates/project', {
      token: patti,
      body: current.body,
    });
    expect(saved.status).toBe(200);
    const [latest] = (
      await suite.app.call<Records>('GET', '/api/v1.0/audit_trails/catalog/records?$top=1', {
        token: suite.lynne,
      })
    ).body.value;
    expect(latest).toMatchObject({
      action: 'template_updated',
      actor: { id: PEOPLE.patti, displayName: 'Patti Fernandez' },
      target: { type: 'template', id: 'project' },
      'request-id': saved.headers['request-id'],
    });
  });

  test('401 and 403 are recorded in the security trail, without the token', async () => {
    const noToken = await suite.app.call('GET', '/api/v1.0/catalog/templates', { token: null });
    expect(noToken.status).toBe(401);
    const badToken = await suite.app.call('GET', '/api/v1.0/users', { token: 'not.a.jwt' });
    expect(badToken.status).toBe(401);
    const denied = await suite.app.call('GET', '/api/v1.0/catalog/templates', { token: suite.alex });
    expect(denied.status).toBe(403);

    const security = await allRecords('security', 50);
    const byRequest = (res: { headers: Record<string, string> }) =>
      security.find((r) => r['request-id'] === res.headers['request-id']);
    expect(byRequest(noToken)).toMatchObject({
      action: 'authentication_failed',
      actor: { type: 'anonymous' },
      outcome: 'denied',
      target: { type: 'operation', id: 'getCatalogTemplates' },
      details: { status: 401, method: 'GET', path: '/api/v1.0/catalog/templates' },
    });
    expect(byRequest(badToken)).toMatchObject({ action: 'authentication_failed' });
    expect(JSON.stringify(security)).not.toContain('not.a.jwt');
    expect(byRequest(denied)).toMatchObject({
      action: 'access_denied',
      actor: { id: PEOPLE.alex, type: 'user' },
      details: { status: 403 },
    });
    // A 403 decided by a service (not the approver) is recorded too.
    const requested = await suite.app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
      token: suite.alex,
      body: { template: { id: 'client-engagement' }, team: { name: 'Denied' } },
    });
    const approvalId = (requested.body.data.approval as { id: string }).id;
    const notApprover = await suite.app.call('POST', `/api/v1.0/approvals/${approvalId}/approve`, {
      token: suite.alex,
      body: {},
    });
    expect(notApprover.status).toBe(403);
    const [latest] = (
      await suite.app.call<Records>('GET', '/api/v1.0/audit_trails/security/records?$top=1', {
        token: suite.lynne,
      })
    ).body.value;
    expect(latest).toMatchObject({
      action: 'access_denied',
      actor: { id: PEOPLE.alex },
      target: { id: 'approveTeamCreation' },
      'request-id': notApprover.headers['request-id'],
    });
  });

  test('paging is newest first, by keyset, with from / to filters', async () => {
    const page = await suite.app.call<Records>(
      'GET',
      '/api/v1.0/audit_trails/team_provisioning/records?$top=2',
      {
        token: suite.lynne,
      },
    );
    expect(page.status).toBe(200);
    expect(page.body.value).toHaveLength(2);
    const nextLink = page.body['@odata.nextLink']!;
    expect(nextLink).toMatch(/\$skiptoken=/);
    const all = await allRecords('team_provisioning', 2);
    const everyOne = await allRecords('team_provisioning', 1000);
    expect(all.map((r) => r.id)).toEqual(everyOne.map((r) => r.id));
    expect(new Set(all.map((r) => r.id)).size).toBe(all.length);
    expect(page.body.value.map((r) => r.id)).toEqual(
      everyOne
        .slice(-2)
        .reverse()
        .map((r) => r.id),
    );

    // from is inclusive, to exclusive: the window around the middle record holds exactly the records in it.
    const middle = everyOne[Math.floor(everyOne.length / 2)]!;
    const window = await suite.app.call<Records>(
      'GET',
      `/api/v1.0/audit_trails/team_provisioning/records?$top=1000&from=${middle.date}&to=${encodeURIComponent(
        new Date(Date.parse(middle.date) + 1).toISOString(),
      )}`,
      { token: suite.lynne },
    );
    expect(window.status).toBe(200);
    const expected = everyOne.filter((r) => r.date === middle.date).map((r) => r.id);
    expect(window.body.value.map((r) => r.id).sort()).toEqual(expected.sort());
    const future = await suite.app.call<Records>(
      'GET',
      '/api/v1.0/audit_trails/team_provisioning/records?from=2999-01-01',
      {
        token: suite.lynne,
      },
    );
    expect(future.body.value).toEqual([]);
    expect(future.body['@odata.nextLink']).toBeUndefined();
  });

  test('bad input: unknown trail 404, bad $top, $skiptoken, dates and unknown parameters 400', async () => {
    const get = (path: string) =>
      suite.app.call('GET', `/api/v1.0/audit_trails/${path}`, { token: suite.lynne });
    expect((await get('nope/records')).status).toBe(404);
    for (const query of [
      '$top=0',
      '$top=1001',
      '$top=abc',
      '$skiptoken=%%%',
      `$skiptoken=${Buffer.from('2026-01-01|1').toString('base64url')}`,
      '$skiptoken=bm90IGEgY3Vyc29y',
      'from=yesterday',
      'to=2026-13-45',
      '$skip=5',
    ]) {
      const res = await get(`team_provisioning/records?${query}`);
      expect([query, res.status]).toEqual([query, 400]);
    }
    expect((await suite.app.call('GET', '/api/v1.0/audit_trails/events', { token: suite.alex })).status).toBe(
      403,
    );
  });

  test('records are append-only: the database refuses UPDATE and DELETE', async () => {
    const store = suite.app.steward.store.db;
    expect((await suite.app.call('GET', '/api/v1.0/users', { token: null })).status).toBe(401);
    const count = async () =>
      Number(
        (
          await store
            .selectFrom('audit_records')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirst()
        )?.n,
      );
    const before = await count();
    expect(before).toBeGreaterThan(0);
    // better-sqlite3's errors are not `Error`s of the test's realm: match on the message.
    const refused = { message: expect.stringMatching(/append-only/) };
    await expect(sql`UPDATE audit_records SET action = 'forged'`.execute(store)).rejects.toMatchObject(
      refused,
    );
    await expect(sql`DELETE FROM audit_records`.execute(store)).rejects.toMatchObject(refused);
    expect(await count()).toBe(before);
    const forged = await store
      .selectFrom('audit_records')
      .select('id')
      .where('action', '=', 'forged')
      .execute();
    expect(forged).toEqual([]);
  });

  test('a record written in a transaction that rolls back is gone with it', async () => {
    const store = suite.app.steward.store.db;
    const audit = new AuditLog(new AuditRepository(store), TENANT);
    const before = await allRecords('catalog', 1000);
    await expect(
      store.transaction().execute(async (trx) => {
        await audit.record(
          trx,
          {
            trail: 'catalog',
            action: 'template_updated',
            actor: { id: PEOPLE.patti, type: 'user' },
            target: { type: 'template', id: 'project' },
            outcome: 'success',
            requestId: null,
          },
          new Date(),
        );
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await allRecords('catalog', 1000)).toEqual(before);
  });
  test('@odata.count is the number of matching records across all pages, with and without from / to', async () => {
    // 30 records of the `webhooks` trail over three UTC days (10 a day, an hour apart), written
    // as Steward writes them, so whole days come from the day counts and partial days are counted.
    const audit = new AuditLog(new AuditRepository(suite.app.steward.store.db), TENANT);
    const dates: string[] = [];
    for (let day = 0; day < 3; day += 1)
      for (let hour = 0; hour < 10; hour += 1) {
        const date = new Date(Date.UTC(2020, 0, 10 + day, 5 + hour));
        dates.push(date.toISOString());
        await audit.record(
          undefined,
          {
            trail: 'webhooks',
            action: 'webhook_created',
            actor: { id: PEOPLE.megan, type: 'user' },
            target: { type: 'hook', id: `count-${day}-${hour}` },
            outcome: 'success',
            requestId: null,
          },
          date,
        );
      }
    const total = (await allRecords('webhooks', 1000)).length;
    expect(total).toBeGreaterThanOrEqual(30);
    // Every page, the first and those reached through $skiptoken, says the same total.
    let path: string | undefined = '/api/v1.0/audit_trails/webhooks/records?$top=7';
    let pages = 0;
    while (path) {
      const res: { body: Records } = await suite.app.call<Records>('GET', path, { token: suite.lynne });
      expect(res.body['@odata.count']).toBe(total);
      pages += 1;
      path = res.body['@odata.nextLink']?.slice(suite.app.url.length);
    }
    expect(pages).toBe(Math.ceil(total / 7));
    const countIn = async (from?: string, to?: string) => {
      const query = [from && `from=${from}`, to && `to=${to}`].filter(Boolean).join('&');
      const res = await suite.app.call<Records>(
        'GET',
        `/api/v1.0/audit_trails/webhooks/records?$top=2&${query}`,
        {
          token: suite.lynne,
        },
      );
      expect(res.status).toBe(200);
      return res.body['@odata.count'];
    };
    const inRange = (from?: string, to?: string) =>
      dates.filter((d) => (!from || d >= from) && (!to || d < to)).length;
    const windows: Array<[string | undefined, string | undefined]> = [
      ['2020-01-10T07:00:00.000Z', '2020-01-12T09:00:00.000Z'], // partial, whole, partial days
      ['2020-01-11T00:00:00.000Z', '2020-01-12T00:00:00.000Z'], // exactly one whole day
      ['2020-01-11T06:30:00.000Z', '2020-01-11T09:00:00.000Z'], // within one day
      ['2020-01-09T00:00:00.000Z', '2020-01-11T10:00:00.000Z'], // from before the first record
      ['2020-01-12T14:00:00.000Z', '2020-01-13T00:00:00.000Z'], // the last record only
      ['2020-01-12T00:00:00.000Z', '2020-01-11T00:00:00.000Z'], // to before from
      [undefined, '2020-01-11T12:00:00.000Z'],
    ];
    for (const [from, to] of windows) expect(await countIn(from, to)).toBe(inRange(from, to));
    expect(await countIn('2020-01-11T05:00:00.000Z')).toBe(total - 10);
  });
});
