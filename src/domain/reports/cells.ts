import { formatDuration } from './charts';
import type { Cell } from './model';

/** Cells and sums the report views share. */

export const duration = (seconds: number): Cell => ({
  text: formatDuration(seconds),
  value: round3(seconds),
});
export const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

export function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}
