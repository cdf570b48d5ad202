/**
 * How a rule reads data: only own properties of plain data, canonical indexes of arrays and strings,
 * and never a function (it could only be a way out of the language).
 */
import { RuleRegex } from './regex';

/** `target[key]` as a rule sees it: `undefined` for anything not plain data's own. */
export function readProperty(target: unknown, key: string | number): unknown {
  if (typeof target === 'string') return key === 'length' ? target.length : target[index(key, target.length)];
  if (typeof target !== 'object' || target === null || target instanceof RuleRegex) return undefined;
  if (Array.isArray(target)) {
    if (key === 'length') return target.length;
    const i = index(key, target.length);
    return i >= 0 && Object.hasOwn(target, i) ? dataValue(target[i]) : undefined;
  }
  return readOwn(target, typeof key === 'number' ? String(key) : key);
}

export function readOwn(target: object, key: string): unknown {
  return Object.hasOwn(target, key) ? dataValue((target as Record<string, unknown>)[key]) : undefined;
}

/** Index of `key` within `length`, or -1; only canonical non-negative integers qualify. */
function index(key: string | number, length: number): number {
  const i = typeof key === 'number' ? key : key === String(Number(key)) ? Number(key) : -1;
  return Number.isInteger(i) && i >= 0 && i < length ? i : -1;
}

/** Functions in the data are never handed to a rule: they could only be a way out. */
export function dataValue(value: unknown): unknown {
  return typeof value === 'function' ? undefined : value;
}
