/** What a report section draws, and how its numbers read; `api/routes/reports/charts.ts` draws it. */

/** One bar: a label and its value. */
export interface Bar {
  label: string;
  value: number;
}

/** One series of a stacked chart: its name and a value per category. */
export interface Series {
  name: string;
  values: number[];
}

/** What a report section draws. `format` turns a value into the text printed beside it. */
export type ChartSpec =
  | { kind: 'bars'; title: string; bars: Bar[]; format?: (value: number) => string }
  | { kind: 'stacked'; title: string; categories: string[]; series: Series[] };

/** A count or measure as people read it: whole numbers plain, others with at most one decimal. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return '–';
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

/** A duration in seconds as people read it: `850 ms`, `42 s`, `12 min`, `3.5 h`, `2.1 d`. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '–';
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  if (seconds < 60) return `${formatNumber(Math.round(seconds * 10) / 10)} s`;
  if (seconds < 3600) return `${formatNumber(Math.round(seconds / 6) / 10)} min`;
  if (seconds < 86_400) return `${formatNumber(Math.round(seconds / 360) / 10)} h`;
  return `${formatNumber(Math.round(seconds / 8640) / 10)} d`;
}
