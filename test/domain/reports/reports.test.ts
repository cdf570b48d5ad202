import { createHmac } from 'node:crypto';
import { findReport, REPORT_CATEGORIES, REPORTS } from '../../../src/domain/reports/catalogue';
import { escapeMarkup, renderChart } from '../../../src/api/routes/reports/charts';
import { formatDuration } from '../../../src/domain/reports/charts';
import { renderReportErrorPage, renderReportPage } from '../../../src/api/routes/reports/page';
import {
  deriveReportUrlKey,
  REPORT_URL_TTL_SECONDS,
  type ReportGrant,
  signReportGrant,
  verifyReportToken,
} from '../../../src/services/reports/signedUrl';
import { orphanedTeamsView, teamsCreatedView } from '../../../src/domain/reports/views';

const SECRET = 'a-deployment-secret-of-at-least-32-bytes!';
const TENANT = '00000000-0000-0000-0000-000000000001';
const EVIL = `<script>alert("x")</script> & 'quotes' <img src=x onerror=alert(1)>`;

describe('report URL tokens', () => {
  const key = deriveReportUrlKey(SECRET);
  const now = 1_800_000_000;
  const grant: ReportGrant = {
    tenantId: TENANT,
    type: 'question',
    id: 'approval-outcomes',
    params: { template_id: 'project', from: '2026-01-01' },
    exp: now + REPORT_URL_TTL_SECONDS,
  };
  const expected = { tenantId: TENANT, type: 'question', id: 'approval-outcomes' };

  test('the key is HKDF-derived: 32 bytes, stable, and not the secret itself', () => {
    expect(key).toHaveLength(32);
    expect(deriveReportUrlKey(SECRET).equals(key)).toBe(true);
    expect(key.equals(Buffer.from(SECRET).subarray(0, 32))).toBe(false);
    expect(deriveReportUrlKey(`${SECRET}x`).equals(key)).toBe(false);
  });

  test('a token verifies until its expiry and not after', () => {
    const token = signReportGrant(key, grant);
    expect(verifyReportToken(key, token, expected, now)).toEqual({ ok: true, grant });
    expect(verifyReportToken(key, token, expected, grant.exp - 0.001).ok).toBe(true);
    expect(verifyReportToken(key, token, expected, grant.exp)).toEqual({ ok: false, reason: 'expired' });
  });

  test('every change to the payload or the signature is refused', () => {
    const token = signReportGrant(key, grant);
    const [payload, signature] = token.split('.') as [string, string];
    const json = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const resigned = (change: Record<string, unknown>) =>
      `${Buffer.from(JSON.stringify({ ...json, ...change })).toString('base64url')}.${signature}`;
    for (const forged of [
      resigned({ exp: now + 86_400 }),
      resigned({ params: {} }),
      resigned({ tid: '11111111-1111-1111-1111-111111111111' }),
      resigned({ id: 'orphaned-teams' }),
      `${payload}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`,
      `${payload}.`,
      `${payload}`,
      `${payload}.${signature}.extra`,
      '',
      `${'A'.repeat(5000)}.${signature}`,
    ]) {
      expect(verifyReportToken(key, forged, expected, now)).toEqual({ ok: false, reason: 'invalid' });
    }
    expect(verifyReportToken(deriveReportUrlKey(`${SECRET}x`), token, expected, now).ok).toBe(false);
  });

  test('a genuine token for another report or tenant is refused', () => {
    const token = signReportGrant(key, grant);
    expect(verifyReportToken(key, token, { ...expected, id: 'orphaned-teams' }, now).ok).toBe(false);
    expect(verifyReportToken(key, token, { ...expected, type: 'dashboard' }, now).ok).toBe(false);
    expect(verifyReportToken(key, token, { ...expected, tenantId: 'other' }, now).ok).toBe(false);
  });

  test('a correctly signed payload of the wrong shape is refused, not thrown', () => {
    const forge = (json: string) => {
      const payload = Buffer.from(json).toString('base64url');
      const mac = createHmac('sha256', key).update(`steward-report-url.${payload}`).digest('base64url');
      return `${payload}.${mac}`;
    };
    for (const json of [
      'not json',
      'null',
      '[]',
      '{"v":2}',
      JSON.stringify({ ...grant, v: 1, params: { x: '1' } }),
    ]) {
      expect(verifyReportToken(key, forge(json), expected, now)).toEqual({ ok: false, reason: 'invalid' });
    }
  });
});

describe('report catalogue', () => {
  test('ids are unique, categories exist, Metabase ids are distinct', () => {
    expect(new Set(REPORTS.map((r) => r.id)).size).toBe(REPORTS.length);
    expect(new Set(REPORTS.map((r) => r.metabaseId)).size).toBe(REPORTS.length);
    for (const report of REPORTS) {
      expect(REPORT_CATEGORIES.map((c) => c.id)).toContain(report.categoryId);
      expect(findReport(report.type, report.id)).toBe(report);
    }
    expect(findReport('dashboard', 'orphaned-teams')).toBeUndefined();
  });
});

describe('SVG charts and pages', () => {
  test('labels are escaped, and bad numbers draw as zero', () => {
    const bars = renderChart({
      kind: 'bars',
      title: EVIL,
      bars: [
        { label: EVIL, value: 3 },
        { label: 'not a number', value: Number.NaN },
        { label: 'negative', value: -5 },
        { label: 'infinite', value: Number.POSITIVE_INFINITY },
      ],
    });
    const stacked = renderChart({
      kind: 'stacked',
      title: 'T',
      categories: [EVIL, '2026-02'],
      series: [{ name: EVIL, values: [1, Number.NaN] }],
    });
    for (const svg of [bars, stacked]) {
      expect(svg).not.toMatch(/<script|<img|onerror=alert\(1\)>/);
      expect(svg).not.toMatch(/NaN|Infinity|="-/);
      expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    }
    expect(bars).toContain('&lt;script&gt;');
  });

  test('an empty chart says so', () => {
    expect(renderChart({ kind: 'bars', title: 'x', bars: [] })).toContain('No data');
    expect(renderChart({ kind: 'stacked', title: 'x', categories: [], series: [] })).toContain('No data');
  });

  test('a page escapes every string from the store and has no script', () => {
    const report = findReport('question', 'orphaned-teams')!;
    const view = orphanedTeamsView([
      {
        id: EVIL,
        displayName: EVIL,
        isArchived: false,
        ownerCount: 1,
        createdDateTime: '2026-01-01T00:00:00Z',
      },
    ]);
    const html = renderReportPage(report, view, {
      tenantId: TENANT,
      params: { template_id: EVIL },
      generatedAt: new Date(0),
      expiresAt: new Date(600_000),
    });
    expect(html).not.toMatch(/<script|<img/i);
    expect(html).toContain(escapeMarkup(EVIL));
    expect(renderReportErrorPage(EVIL, EVIL)).not.toMatch(/<script|<img/i);
  });

  test('teams created view pivots months and templates', () => {
    const view = teamsCreatedView([
      { templateId: 'b', templateName: 'B', month: '2026-02', count: 2 },
      { templateId: 'a', templateName: 'A', month: '2026-01', count: 1 },
      { templateId: 'a', templateName: 'A', month: '2026-02', count: 3 },
    ]);
    expect(view.figures.find((f) => f.id === 'teams-created')?.value).toBe(6);
    expect(view.sections[0]!.chart).toMatchObject({
      categories: ['2026-01', '2026-02'],
      series: [
        { name: 'A', values: [1, 3] },
        { name: 'B', values: [0, 2] },
      ],
    });
  });

  test('durations read naturally', () => {
    expect([0.25, 42, 720, 12_600, 190_000].map(formatDuration)).toEqual([
      '250 ms',
      '42 s',
      '12 min',
      '3.5 h',
      '2.2 d',
    ]);
  });
});
