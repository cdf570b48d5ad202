import { escapeMarkup } from '../../../lib/markup';
import { type ChartSpec, formatNumber } from '../../../domain/reports/charts';

export { escapeMarkup };
/**
 * Charts as server-rendered SVG: readable without JavaScript, printable, and safe to inline in a
 * page whose policy forbids scripts. Every label is escaped; every number is clamped to a finite,
 * non-negative value before it becomes a coordinate.
 */

const WIDTH = 720;
const FONT = 'font-family="Segoe UI,system-ui,sans-serif" font-size="12"';
const PALETTE = ['#5B5FC7', '#0078D4', '#008272', '#CA5010', '#8764B8', '#D13438', '#69797E', '#498205'];
const MAX_LABEL = 28;

/** The SVG markup of a chart. */
export function renderChart(spec: ChartSpec): string {
  return spec.kind === 'bars' ? barChart(spec) : stackedChart(spec);
}

/** Horizontal bars, one row per label, the value printed at the end of each bar. */
function barChart(spec: Extract<ChartSpec, { kind: 'bars' }>): string {
  if (spec.bars.length === 0) return emptyChart(spec.title);
  const format = spec.format ?? formatNumber;
  const labelWidth = 200;
  const plot = WIDTH - labelWidth - 90;
  const row = 26;
  const max = Math.max(...spec.bars.map((b) => safe(b.value)), 0);
  const height = spec.bars.length * row + 16;
  const rows = spec.bars.map((bar, i) => {
    const value = safe(bar.value);
    const width = max > 0 ? (value / max) * plot : 0;
    const y = 8 + i * row;
    const text = `${bar.label}: ${format(value)}`;
    return (
      `<g><title>${escapeMarkup(text)}</title>` +
      `<text x="${labelWidth - 8}" y="${y + 15}" text-anchor="end">${escapeMarkup(shorten(bar.label))}</text>` +
      `<rect x="${labelWidth}" y="${y + 2}" width="${round(width)}" height="${row - 8}" rx="3" fill="${PALETTE[0]}"/>` +
      `<text x="${round(labelWidth + width + 6)}" y="${y + 15}">${escapeMarkup(format(value))}</text></g>`
    );
  });
  return svg(spec.title, height, rows.join(''));
}

/** Vertical stacked columns: one column per category, one colour per series, with a legend. */
function stackedChart(spec: Extract<ChartSpec, { kind: 'stacked' }>): string {
  if (spec.categories.length === 0 || spec.series.length === 0) return emptyChart(spec.title);
  const left = 48;
  const top = 12;
  const plotHeight = 200;
  const plotWidth = WIDTH - left - 16;
  const totals = spec.categories.map((_c, i) =>
    spec.series.reduce((sum, series) => sum + safe(series.values[i] ?? 0), 0),
  );
  const max = Math.max(...totals, 0);
  const slot = plotWidth / spec.categories.length;
  const barWidth = Math.min(56, slot * 0.7);
  const parts: string[] = [
    `<line x1="${left}" y1="${top + plotHeight}" x2="${WIDTH - 16}" y2="${top + plotHeight}" stroke="#8a8886"/>`,
    `<text x="${left - 6}" y="${top + 10}" text-anchor="end">${escapeMarkup(formatNumber(max))}</text>`,
    `<text x="${left - 6}" y="${top + plotHeight}" text-anchor="end">0</text>`,
  ];
  spec.categories.forEach((category, i) => {
    const x = left + i * slot + (slot - barWidth) / 2;
    let y = top + plotHeight;
    spec.series.forEach((series, s) => {
      const value = safe(series.values[i] ?? 0);
      if (value === 0 || max === 0) return;
      const h = (value / max) * plotHeight;
      y -= h;
      parts.push(
        `<rect x="${round(x)}" y="${round(y)}" width="${round(barWidth)}" height="${round(h)}" fill="${color(s)}">` +
          `<title>${escapeMarkup(`${category} · ${series.name}: ${formatNumber(value)}`)}</title></rect>`,
      );
    });
    const center = round(x + barWidth / 2);
    parts.push(
      `<text x="${center}" y="${round(y - 4)}" text-anchor="middle">${escapeMarkup(formatNumber(totals[i]!))}</text>`,
      `<text x="${center}" y="${top + plotHeight + 16}" text-anchor="middle">${escapeMarkup(shorten(category, 12))}</text>`,
    );
  });
  const legendTop = top + plotHeight + 34;
  spec.series.forEach((series, s) => {
    const y = legendTop + s * 18;
    parts.push(
      `<rect x="${left}" y="${y}" width="12" height="12" fill="${color(s)}"/>`,
      `<text x="${left + 18}" y="${y + 10}">${escapeMarkup(shorten(series.name, 60))}</text>`,
    );
  });
  return svg(spec.title, legendTop + spec.series.length * 18 + 4, parts.join(''));
}

function emptyChart(title: string): string {
  return svg(title, 40, '<text x="8" y="24" fill="#616161">No data for this selection.</text>');
}

function svg(title: string, height: number, body: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" role="img" width="100%" viewBox="0 0 ${WIDTH} ${round(height)}" ${FONT}>` +
    `<title>${escapeMarkup(title)}</title>${body}</svg>`
  );
}

function color(index: number): string {
  return PALETTE[index % PALETTE.length]!;
}

/** A finite, non-negative number (anything else draws as 0). */
function safe(value: number): number {
  return Number.isFinite(value) && value > 0 ? value : 0;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

function shorten(text: string, max = MAX_LABEL): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : text;
}
