import { JsonText, sharedJson } from './json';
import { API_BASE } from './route';

const COMMA = Buffer.from(',');
const END = Buffer.from(']}');

/**
 * An OData collection of `items` whose context names `entitySet`, as JSON bytes: the items' own
 * bytes are reused when they are shared frozen objects (see `sharedJson`).
 *
 * `@odata.count` is the number of matching items across all pages: `items.length` only for a
 * collection given whole, so a page (anything that may have a next link, or was cut at `$top`)
 * must say its `count`; the type makes that a compile error to forget.
 */
export function odataCollection(
  baseUrl: string,
  entitySet: string,
  items: readonly object[],
  page?: { count: number; nextLink?: string },
): JsonText {
  const context = `${baseUrl}${API_BASE}/$metadata#${entitySet}`;
  const whole = !page && items.length > 0 && items.every(Object.isFrozen);
  if (whole) {
    const kept = keptCollection(context, items);
    if (kept) return kept;
  }
  const head = {
    '@odata.context': context,
    '@odata.count': page ? page.count : items.length,
    ...(page?.nextLink ? { '@odata.nextLink': page.nextLink } : {}),
  };
  const parts: Buffer[] = [Buffer.from(`${JSON.stringify(head).slice(0, -1)},"value":[`)];
  for (const item of items) {
    if (parts.length > 1) parts.push(COMMA);
    parts.push(sharedJson(item));
  }
  parts.push(END);
  const json = new JsonText(Buffer.concat(parts));
  if (whole) keepCollection(context, items, json);
  return json;
}

/** The last few whole collections made of each first item: one per audience that sees it first. */
const collections = new WeakMap<object, { context: string; items: readonly object[]; json: JsonText }[]>();
const KEPT_PER_ITEM = 8;

/**
 * The bytes of a whole collection of the same shared frozen items, in the same order, under the
 * same context, made before: callers of one audience see the same templates, so their catalog is
 * the same bytes. Kept with their first item (a catalog refresh makes new items, and the old
 * collections go with the old items).
 */
function keptCollection(context: string, items: readonly object[]): JsonText | undefined {
  const kept = collections.get(items[0]!);
  if (!kept) return undefined;
  for (const entry of kept) {
    if (entry.context !== context || entry.items.length !== items.length) continue;
    let same = true;
    for (let i = 0; i < items.length && same; i++) same = entry.items[i] === items[i];
    if (same) return entry.json;
  }
  return undefined;
}

function keepCollection(context: string, items: readonly object[], json: JsonText): void {
  const first = items[0]!;
  const kept = collections.get(first) ?? [];
  if (kept.length >= KEPT_PER_ITEM) kept.shift();
  kept.push({ context, items: [...items], json });
  collections.set(first, kept);
}
