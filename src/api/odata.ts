import { JsonText, stringifyShared } from './json';
import { API_BASE } from './route';

/**
 * An OData collection of `items` whose context names `entitySet`, as JSON text: the items' own
 * texts are reused when they are shared frozen objects (see `stringifyShared`).
 */
export function odataCollection(
  baseUrl: string,
  entitySet: string,
  items: readonly object[],
  options: { count?: number; nextLink?: string } = {},
): JsonText {
  const head = {
    '@odata.context': `${baseUrl}${API_BASE}/$metadata#${entitySet}`,
    '@odata.count': options.count ?? items.length,
    ...(options.nextLink ? { '@odata.nextLink': options.nextLink } : {}),
  };
  const prefix = JSON.stringify(head).slice(0, -1);
  return new JsonText(`${prefix},"value":[${items.map(stringifyShared).join(',')}]}`);
}
