import type { ODataCollection } from '../domain/wire';

/** Wraps `items` as an OData collection whose context names `entitySet`. */
export function odataCollection<T>(
  baseUrl: string,
  entitySet: string,
  items: T[],
  options: { count?: number; nextLink?: string } = {},
): ODataCollection<T> {
  return {
    '@odata.context': `${baseUrl}/api/v1.0/$metadata#${entitySet}`,
    '@odata.count': options.count ?? items.length,
    ...(options.nextLink ? { '@odata.nextLink': options.nextLink } : {}),
    value: items,
  };
}
