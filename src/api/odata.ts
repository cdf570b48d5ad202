import { JsonText, stringifyShared } from './json';
import { API_BASE } from './route';

/**
 * An OData collection of `items` whose context names `entitySet`, as JSON text: the items' own
 * texts are reused when they are shared frozen objects (see `stringifyShared`).
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
  const prefix = JSON.stringify(head).slice(0, -1);
  return new JsonText(`${prefix},"value":[${items.map(stringifyShared).join(',')}]}`);
}
