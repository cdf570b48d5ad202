import { jwtVerify } from 'jose';
import { request } from 'undici';
import { deriveReportUrlKey, signReportGrant } from '../../../src/services/reports/signedUrl';
import type { Job, Report, ReportsCategory, ReportUrl, TeamMember } from '../../../src/contract';
import { SEED_TEMPLATE_TEAM_ID } from '../../../src/platform/embedded';
import { databaseKinds } from '../../support/databases';
import { waitForJob } from '../../support/jobs';
import { figure, table } from '../../support/reportPages';
import { PEOPLE, startTestSteward, suiteSteward, TENANT, TEST_SECRET } from '../../support/steward';

const METABASE_KEY = 'a'.repeat(24) + '0123456789abcdef0123456789abcdef0123456789';

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const seconds = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 1000;

describe.each(databaseKinds)('reports on %s', (kind) => {
  const created: Record<string, string> = {};

  const provision = async (
    token: string,
    template: string,
    name: string,
    extra: Record<string, unknown> = {},
  ) => {
    const res = await suite.app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
      token,
      body: { template: { id: template }, team: { name, ...extra } },
    });
    expect(res.status).toBe(201);
    return res.body;
  };
  const completed = async (job: Job, token: string) => {
    const done = await waitForJob(suite.app, token, job.id);
    expect(done.status).toBe('completed');
    return (done.data.team as { id: string }).id;
  };
  const reportUrl = async (type: string, id: string, query = '') => {
    const res = await suite.app.call<ReportUrl>('GET', `/api/v1.0/reports/${type}/${id}${query}`, {
      token: suite.lynne,
    });
    expect(res.status).toBe(200);
    return res.body.url;
  };
  const open = async (url: string) => {
    const res = await request(url);
    return { status: res.statusCode, headers: res.headers, html: await res.body.text() };
  };
  const page = async (type: string, id: string, query = '') => {
    const res = await open(await reportUrl(type, id, query));
    expect(res.status).toBe(200);
    return res.html;
  };

  const suite = suiteSteward(kind, {
    env: { STEWARD_JOB_POLL_MS: '50' },
    people: {
      alex: { id: PEOPLE.alex },
      isaiah: { id: PEOPLE.isaiah },
      adele: { id: PEOPLE.adele },
      lynne: { id: PEOPLE.lynne, roles: ['GOVERNANCE_MANAGER'] },
    },
  });
  beforeAll(async () => {
    const megan = await suite.app.userToken(PEOPLE.megan, ['GLOBAL_ADMIN']);
    created.alpha = await completed(
      await provision(suite.alex, 'project', 'Alpha', { membership: { owners: [{ id: PEOPLE.megan }] } }),
      suite.alex,
    );
    created.beta = await completed(await provision(suite.alex, 'project', 'Beta'), suite.alex);
    created.gamma = await completed(await provision(suite.isaiah, 'project', 'Gamma'), suite.isaiah);
    const approved = await provision(suite.alex, 'client-engagement', 'Acme');
    const rejected = await provision(suite.alex, 'client-engagement', 'Nope');
    await provision(suite.isaiah, 'client-engagement', 'Later');
    const approvalOf = (job: Job) => (job.data.approval as { id: string }).id;
    expect(
      (
        await suite.app.call('POST', `/api/v1.0/approvals/${approvalOf(approved)}/approve`, {
          token: suite.adele,
          body: {},
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await suite.app.call('POST', `/api/v1.0/approvals/${approvalOf(rejected)}/reject`, {
          token: suite.adele,
          body: {},
        })
      ).status,
    ).toBe(200);
    created.acme = await completed(approved, suite.alex);
    expect((await waitForJob(suite.app, suite.alex, rejected.id)).status).toBe('failed');
    const archive = await suite.app.call<Job>('POST', `/api/v1.0/teams/${created.alpha}/archive`, {
      token: megan,
    });
    expect(archive.status).toBe(202);
    expect((await waitForJob(suite.app, megan, archive.body.id)).status).toBe('completed');
  });

  test('the catalogue: at least six reports in at least three categories, for report readers only', async () => {
    const reports = await suite.app.call<Report[]>('GET', '/api/v1.0/reports', { token: suite.lynne });
    const categories = await suite.app.call<ReportsCategory[]>('GET', '/api/v1.0/reports/categories', {
      token: suite.lynne,
    });
    expect(reports.status).toBe(200);
    expect(categories.status).toBe(200);
    expect(reports.body.length).toBeGreaterThanOrEqual(6);
    const used = new Set(reports.body.map((r) => r.category_id));
    expect(used.size).toBeGreaterThanOrEqual(3);
    for (const id of used) expect(categories.body.map((c) => c.id)).toContain(id);
    expect(new Set(reports.body.map((r) => r.type))).toEqual(new Set(['dashboard', 'question']));
    expect((await suite.app.call('GET', '/api/v1.0/reports', { token: suite.alex })).status).toBe(403);
  });

  test('teams created per template and month match the completed provisioning jobs', async () => {
    const jobs = await suite.app.steward.store.db
      .selectFrom('jobs')
      .selectAll()
      .where('type', '=', 'ProvisioningRequest')
      .where('status', '=', 'completed')
      .execute();
    expect(jobs).toHaveLength(4);
    const expected = new Map<string, number>();
    for (const job of jobs) {
      const key = `${job.completed_at!.slice(0, 7)}|${job.template_id}`;
      expected.set(key, (expected.get(key) ?? 0) + 1);
    }
    const html = await page('dashboard', 'teams-created');
    const rows = table(html, 'teams-created');
    expect(
      new Map(rows.map(([month, , templateId, count]) => [`${month}|${templateId}`, Number(count)])),
    ).toEqual(expected);
    expect(rows.find((r) => r[2] === 'project')?.[1]).toBe('Project team');
    expect(figure(html, 'teams-created')).toBe('4');
    expect(html).toContain('<svg');

    const month = jobs[0]!.completed_at!.slice(0, 10);
    const only = table(
      await page('dashboard', 'teams-created', '?template_id=client-engagement'),
      'teams-created',
    );
    expect(only.map((r) => [r[2], r[3]])).toEqual([['client-engagement', '1']]);
    const before = table(await page('dashboard', 'teams-created', `?to=2000-01-01`), 'teams-created');
    expect(before).toEqual([]);
    const since = table(
      await page('dashboard', 'teams-created', `?from=${month}&to=${month}`),
      'teams-created',
    );
    expect(since.reduce((sum, r) => sum + Number(r[3]), 0)).toBe(4);
  });

  test('lead time and approval wait match the jobs and approvals that produced them', async () => {
    const store = suite.app.steward.store.db;
    const jobs = await store
      .selectFrom('jobs')
      .selectAll()
      .where('type', '=', 'ProvisioningRequest')
      .where('status', '=', 'completed')
      .execute();
    const approvals = await store
      .selectFrom('approvals')
      .selectAll()
      .where('decided_at', 'is not', null)
      .execute();
    const html = await page('question', 'provisioning-lead-time');
    const lead = table(html, 'lead-time');
    for (const template of ['project', 'client-engagement']) {
      const durations = jobs
        .filter((j) => j.template_id === template)
        .map((j) => seconds(j.created_at, j.completed_at!));
      const row = lead.find((r) => r[1] === template)!;
      expect(Number(row[2])).toBe(durations.length);
      expect(Number(row[3])).toBeCloseTo(mean(durations), 2);
      expect(Number(row[4])).toBeCloseTo(Math.min(...durations), 2);
      expect(Number(row[5])).toBeCloseTo(Math.max(...durations), 2);
    }
    const waits = approvals.map((a) => seconds(a.created_at, a.decided_at!));
    const wait = table(html, 'approval-wait');
    expect(wait).toHaveLength(1);
    expect(wait[0]![1]).toBe('client-engagement');
    expect(Number(wait[0]![2])).toBe(2);
    expect(Number(wait[0]![3])).toBeCloseTo(mean(waits), 2);
    expect(Number(wait[0]![4])).toBeCloseTo(Math.max(...waits), 2);
    expect(Number(figure(html, 'completed'))).toBe(4);
  });

  test('approval outcomes per template count approved, rejected and pending requests', async () => {
    const html = await page('question', 'approval-outcomes');
    expect(table(html, 'approval-outcomes')).toEqual([
      ['Client engagement', 'client-engagement', '1', '1', '1'],
    ]);
    expect([figure(html, 'approved'), figure(html, 'rejected'), figure(html, 'pending')]).toEqual([
      '1',
      '1',
      '1',
    ]);
  });

  test('archived and orphaned teams match the platform’s teams and owners', async () => {
    const megan = await suite.app.userToken(PEOPLE.megan, ['GLOBAL_ADMIN']);
    const ids = [...Object.values(created), SEED_TEMPLATE_TEAM_ID];
    const owners = new Map<string, number>();
    for (const id of ids) {
      const members = await suite.app.call<TeamMember[]>('GET', `/api/v1.0/teams/${id}/members`, {
        token: megan,
      });
      owners.set(id, members.body.filter((m) => m.roles.includes('owner')).length);
    }
    const archived = table(await page('question', 'archived-teams'), 'archived-teams');
    expect(archived.map((r) => r[1])).toEqual([created.alpha]);
    expect(archived[0]![0]).toBe('PRJ-Alpha');
    expect(Number(archived[0]![3])).toBe(owners.get(created.alpha!));

    const html = await page('question', 'orphaned-teams');
    const orphaned = table(html, 'orphaned-teams');
    const expected = ids.filter((id) => owners.get(id)! < 2).sort();
    expect(orphaned.map((r) => r[1]).sort()).toEqual(expected);
    expect(expected).toContain(created.beta);
    expect(expected).not.toContain(created.alpha);
    for (const row of orphaned) expect(Number(row[2])).toBe(owners.get(row[1]!));
    expect(figure(html, 'teams')).toBe(String(ids.length));
    expect(figure(html, 'orphaned')).toBe(String(expected.length));
  });

  test('top requesters count each person’s requests by outcome, with their names', async () => {
    const rows = table(await page('question', 'top-requesters'), 'top-requesters');
    expect(rows).toEqual([
      ['Alex Wilber', PEOPLE.alex, '4', '3', '1', '0'],
      ['Isaiah Langer', PEOPLE.isaiah, '2', '1', '0', '1'],
    ]);
  });

  test('the governance dashboard sums the same numbers', async () => {
    const html = await page('dashboard', 'governance-overview');
    expect(
      ['teams-created', 'approved', 'rejected', 'pending', 'archived'].map((id) => figure(html, id)),
    ).toEqual(['4', '1', '1', '1', '1']);
  });

  test('pages are static HTML with SVG charts and safe headers', async () => {
    const res = await open(await reportUrl('question', 'orphaned-teams'));
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['content-security-policy']).not.toContain('script-src');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.html).toMatch(/<svg [^>]*role="img"/);
    expect(res.html).not.toMatch(/<script/i);
  });

  test('a URL expires after 10 minutes and refuses tampering, another report or another tenant', async () => {
    const url = new URL(await reportUrl('question', 'approval-outcomes', '?template_id=client-engagement'));
    const token = url.searchParams.get('token')!;
    const [payload, signature] = token.split('.') as [string, string];
    const grant = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
      exp: number;
      params: object;
    };
    expect(grant.exp - Date.now() / 1000).toBeGreaterThan(590);
    expect(grant.exp - Date.now() / 1000).toBeLessThanOrEqual(600);
    expect(grant.params).toEqual({ template_id: 'client-engagement' });
    expect((await open(url.href)).status).toBe(200);

    const withToken = (value: string, path = url.pathname) => `${url.origin}${path}?token=${value}`;
    const widened = Buffer.from(JSON.stringify({ ...grant, params: {} })).toString('base64url');
    const flipped = signature.slice(0, -2) + (signature.endsWith('AA') ? 'BB' : 'AA');
    const key = deriveReportUrlKey(TEST_SECRET);
    const base = { type: 'question' as const, id: 'approval-outcomes', params: {} };
    const expired = signReportGrant(key, {
      ...base,
      tenantId: TENANT,
      exp: Math.floor(Date.now() / 1000) - 1,
    });
    const otherTenant = signReportGrant(key, {
      ...base,
      tenantId: '11111111-1111-1111-1111-111111111111',
      exp: grant.exp,
    });
    const rawKey = signReportGrant(Buffer.from(TEST_SECRET), { ...base, tenantId: TENANT, exp: grant.exp });
    for (const [why, target] of [
      ['no token', `${url.origin}${url.pathname}`],
      ['garbage', withToken('not-a-token')],
      ['a widened payload', withToken(`${widened}.${signature}`)],
      ['a changed signature', withToken(`${payload}.${flipped}`)],
      ['another report', withToken(token, '/reports/question/orphaned-teams')],
      ['an expired token', withToken(expired)],
      ['another tenant', withToken(otherTenant)],
      ['the raw secret as key', withToken(rawKey)],
    ] as const) {
      const res = await open(target);
      expect([why, res.status]).toEqual([why, 401]);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    }
    expect((await open(withToken(expired))).html).toContain('expired');
  });

  test('unknown reports are 404, bad types 400, parameters a report does not take 400', async () => {
    const call = (path: string) => suite.app.call('GET', `/api/v1.0/reports/${path}`, { token: suite.lynne });
    expect((await call('question/no-such-report')).status).toBe(404);
    expect((await call('dashboard/orphaned-teams')).status).toBe(404);
    expect((await call('chart/orphaned-teams')).status).toBe(400);
    expect((await call('question/archived-teams?from=2026-01-01')).status).toBe(400);
    expect((await call('question/top-requesters?template_id=project')).status).toBe(400);
    expect((await call('question/top-requesters?from=2026-02-01&to=2026-01-01')).status).toBe(400);
    expect((await call('question/top-requesters?from=2026-02-31')).status).toBe(400);
    expect((await call('question/top-requesters?nope=1')).status).toBe(400);
  });

  test('with Metabase configured, URLs are signed embedding URLs', async () => {
    const metabase = await startTestSteward(suite.db, {
      STEWARD_WORKER_CONCURRENCY: '0',
      METABASE_SITE_URL: 'https://metabase.example.com/',
      METABASE_SECRET_KEY: METABASE_KEY,
      METABASE_RESOURCE_IDS: 'orphaned-teams:42',
    });
    try {
      const token = await metabase.userToken(PEOPLE.megan, ['GLOBAL_ADMIN']);
      const urlOf = async (path: string) =>
        (await metabase.call<ReportUrl>('GET', `/api/v1.0/reports/${path}`, { token })).body.url;
      const dashboard = await urlOf('dashboard/teams-created?from=2026-01-01&template_id=project');
      const match =
        /^https:\/\/metabase\.example\.com\/embed\/dashboard\/([^#]+)#bordered=true&titled=true$/.exec(
          dashboard,
        );
      expect(match).not.toBeNull();
      const { payload, protectedHeader } = await jwtVerify(
        match![1]!,
        new TextEncoder().encode(METABASE_KEY),
      );
      expect(protectedHeader.alg).toBe('HS256');
      expect(payload.resource).toEqual({ dashboard: 2 });
      expect(payload.params).toEqual({
        tenant_id: TENANT,
        from: '2026-01-01',
        to: null,
        template_id: 'project',
      });
      expect(payload.exp! - Date.now() / 1000).toBeGreaterThan(590);
      expect(payload.exp! - Date.now() / 1000).toBeLessThanOrEqual(600);

      const question = (await urlOf('question/orphaned-teams')).split('/embed/question/')[1]!.split('#')[0]!;
      const verified = await jwtVerify(question, new TextEncoder().encode(METABASE_KEY));
      expect(verified.payload.resource).toEqual({ question: 42 });
      await expect(jwtVerify(question, new TextEncoder().encode('b'.repeat(64)))).rejects.toThrow();
      expect(JSON.stringify(await metabase.call('GET', '/api/v1.0/reports', { token }))).not.toContain(
        METABASE_KEY,
      );
    } finally {
      await metabase.close();
    }
  });
});
