import { fail } from './protocol';
import type { Handler } from './records';

/**
 * Routes each refused with Graph's 403 `Authorization_RequestDenied` unless the app was granted one
 * of the application permissions its page lists.
 */
export function permitted(
  routes: Array<[string, RegExp, string[], Handler]>,
  granted: ReadonlySet<string>,
): Array<[string, RegExp, Handler]> {
  return routes.map(([method, path, accepted, handler]) => [
    method,
    path,
    (request, ...params) =>
      accepted.some((permission) => granted.has(permission))
        ? handler(request, ...params)
        : fail(403, 'Authorization_RequestDenied', 'Insufficient privileges to complete the operation.'),
  ]);
}
