import type { ReportDefinition, ReportParameters } from '../../../domain/reports/catalogue';
import { escapeMarkup, renderChart } from './charts';
import { formatNumber } from '../../../domain/reports/charts';
import { type Cell, cellText, type ReportView } from '../../../domain/reports/model';
import { htmlPageHeaders } from '../../../lib/pageHeaders';

/**
 * The HTML of report pages (`/reports/{type}/{id}?token=…`): static markup, inline CSS, SVG charts
 * and no script. Everything that comes from the store (team and template names, ids) is escaped.
 */

/**
 * Headers for report pages: HTML under a policy that allows no script, no external fetch and no
 * form; no referrer, so the signed URL never leaks to a link's target; never cached, since the URL
 * is a short-lived credential. Framing is allowed to Teams tab hosts only: reports are pinned as
 * Teams tabs, and no other site may frame them.
 */
export const REPORT_PAGE_HEADERS: Readonly<Record<string, string>> = htmlPageHeaders(
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'",
  'teams-tab',
);

const STYLE = `
body{font-family:"Segoe UI",system-ui,-apple-system,sans-serif;margin:0;background:#f5f5f5;color:#242424}
header{background:#5b5fc7;color:#fff;padding:16px 24px}
header p{margin:4px 0 0;opacity:.9}
main{max-width:1000px;margin:24px auto;padding:0 16px}
section{background:#fff;border-radius:8px;padding:16px 20px;margin-bottom:16px;box-shadow:0 1px 2px rgba(0,0,0,.1)}
h1{font-size:22px;margin:0}
h2{font-size:16px;margin:0 0 12px}
.figures{display:flex;flex-wrap:wrap;gap:12px;list-style:none;padding:0;margin:0 0 16px}
.figures li{background:#fff;border-radius:8px;padding:12px 16px;min-width:140px;box-shadow:0 1px 2px rgba(0,0,0,.1)}
.figures strong{display:block;font-size:24px}
table{border-collapse:collapse;width:100%;margin-top:12px;font-size:13px}
th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #e0e0e0}
td.n{text-align:right;font-variant-numeric:tabular-nums}
.muted{color:#616161}
`;

/** The page of a report: title, parameters, key figures, then each section's chart and table. */
export function renderReportPage(
  report: ReportDefinition,
  view: ReportView,
  context: { tenantId: string; params: ReportParameters; generatedAt: Date; expiresAt: Date },
): string {
  const params = Object.entries(context.params)
    .map(([name, value]) => `${escapeMarkup(name)} = ${escapeMarkup(value ?? '')}`)
    .join(', ');
  const subtitle =
    `${escapeMarkup(report.description)}<br>` +
    `<span>Tenant ${escapeMarkup(context.tenantId)} · computed ${escapeMarkup(context.generatedAt.toISOString())}` +
    `${params ? ` · ${params}` : ''}</span>`;
  const figures = view.figures.map(
    (f) =>
      `<li data-figure="${escapeMarkup(f.id)}"${dataValue(f.value)}>` +
      `<strong>${escapeMarkup(cellText(f.value))}</strong>${escapeMarkup(f.label)}</li>`,
  );
  const sections = view.sections.map((section) => {
    const head = section.table.columns.map((c) => `<th scope="col">${escapeMarkup(c)}</th>`).join('');
    const rows = section.table.rows.map((row) => `<tr>${row.map(cell).join('')}</tr>`);
    const body =
      rows.length > 0
        ? rows.join('\n')
        : `<tr><td colspan="${section.table.columns.length}" class="muted">No rows.</td></tr>`;
    return (
      `<section><h2>${escapeMarkup(section.title)}</h2>` +
      (section.chart ? `<figure>${renderChart(section.chart)}</figure>` : '') +
      `<table data-table="${escapeMarkup(section.table.id)}"><thead><tr>${head}</tr></thead>` +
      `<tbody>\n${body}\n</tbody></table></section>`
    );
  });
  return document(
    report.title,
    `<header><h1>${escapeMarkup(report.title)}</h1><p>${subtitle}</p></header>\n<main>\n` +
      `<ul class="figures">${figures.join('')}</ul>\n${sections.join('\n')}\n` +
      `<p class="muted">This link stops working at ${escapeMarkup(context.expiresAt.toISOString())}.</p>\n</main>`,
  );
}

/** A page explaining why a report cannot be shown (sent with the status it names). */
export function renderReportErrorPage(title: string, message: string): string {
  return document(
    title,
    `<header><h1>${escapeMarkup(title)}</h1></header>\n<main><section><p>${escapeMarkup(message)}</p></section></main>`,
  );
}

function cell(value: Cell): string {
  const numeric = typeof value !== 'string';
  return `<td${numeric ? ' class="n"' : ''}${dataValue(value)}>${escapeMarkup(cellText(value))}</td>`;
}

/** Measures carry their exact value in `data-value`, so what a chart rounds can still be read exactly. */
function dataValue(value: Cell): string {
  if (typeof value === 'object') return ` data-value="${escapeMarkup(formatNumberExact(value.value))}"`;
  return '';
}

function formatNumberExact(value: number): string {
  return Number.isFinite(value) ? String(value) : formatNumber(value);
}

function document(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeMarkup(title)} · Steward reports</title>
<style>${STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`;
}
