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
  const head = {
    '@odata.context': `${baseUrl}${API_BASE}/$metadata#${entitySet}`,
    '@odata.count': page ? page.count : items.length,
    ...(page?.nextLink ? { '@odata.nextLink': page.nextLink } : {}),
  };
  const parts: Buffer[] = [Buffer.from(`${JSON.stringify(head).slice(0, -1)},"value":[`)];
  for (const item of items) {
    if (parts.length > 1) parts.push(COMMA);
    parts.push(sharedJson(item));
  }
  parts.push(END);
  return new JsonText(Buffer.concat(parts));
}
