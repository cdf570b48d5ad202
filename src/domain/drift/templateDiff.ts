import { isDeepStrictEqual } from 'node:util';
import type { TemplateChange } from '../../contract';

/**
 * The differences between two documents (two versions of a template), per path. Lists of named
 * things (channels, tabs, people) are matched by their names, so a path reads
 * `newTeam.channels["Deliverables"]` and a moved item is not a change; other lists by position.
 */
export function templateDiff(before: unknown, after: unknown): TemplateChange[] {
  const changes: TemplateChange[] = [];
  walk(before, after, '', changes);
  return changes;
}

/** The changes in a sentence: "Added newTeam.channels["Risks"]; changed templateConfiguration.name." */
export function changeSummary(changes: readonly TemplateChange[], first: boolean): string {
  if (first) return 'The first version.';
  if (changes.length === 0) return 'Saved without changes.';
  const said = changes.slice(0, 5).map((c) => `${c.change} ${c.path}`);
  const more = changes.length > 5 ? `, and ${changes.length - 5} more` : '';
  const text = said.join('; ') + more;
  return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
}

function walk(before: unknown, after: unknown, path: string, out: TemplateChange[]): void {
  if (isDeepStrictEqual(before, after)) return;
  if (before === undefined) {
    out.push({ change: 'added', path, after });
    return;
  }
  if (after === undefined) {
    out.push({ change: 'removed', path, before });
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const keyed = keysOf(before, after);
    if (keyed) {
      const [left, right] = keyed;
      for (const [key, value] of left) walk(value, right.get(key), `${path}[${JSON.stringify(key)}]`, out);
      for (const [key, value] of right)
        if (!left.has(key)) walk(undefined, value, `${path}[${JSON.stringify(key)}]`, out);
      return;
    }
    const length = Math.max(before.length, after.length);
    for (let i = 0; i < length; i++) walk(before[i], after[i], `${path}[${i}]`, out);
    return;
  }
  if (isObject(before) && isObject(after)) {
    for (const key of Object.keys(before)) walk(before[key], after[key], join(path, key), out);
    for (const key of Object.keys(after))
      if (!(key in before)) walk(undefined, after[key], join(path, key), out);
    return;
  }
  out.push({ change: 'changed', path, before, after });
}

/** Both lists keyed by name, when every item has a distinct one; undefined otherwise. */
function keysOf(
  before: readonly unknown[],
  after: readonly unknown[],
): [Map<string, unknown>, Map<string, unknown>] | undefined {
  const left = keyed(before);
  const right = left && keyed(after);
  return left && right ? [left, right] : undefined;
}

function keyed(items: readonly unknown[]): Map<string, unknown> | undefined {
  const map = new Map<string, unknown>();
  for (const item of items) {
    const key = nameOf(item);
    if (key === undefined || map.has(key)) return undefined;
    map.set(key, item);
  }
  return map;
}

/** A list item's name: a tab's channel and name, a channel's name, a person's name (else id). */
function nameOf(item: unknown): string | undefined {
  if (!isObject(item)) return undefined;
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const displayName = text(item.displayName);
  if (displayName !== undefined) {
    const channel = text(item.channel);
    return channel ? `${channel} / ${displayName}` : displayName;
  }
  return text(item.name) ?? text(item.id);
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
