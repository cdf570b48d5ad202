import type { Reply, Route } from '../route';
import type { Authenticated } from './authenticate';
import type { Parsed } from './parse';

/** Stage 4, handle: the route's handler with the caller and the parsed inputs; its reply is sent as it is. */
export function handle(
  route: Route,
  who: Authenticated,
  input: Parsed,
  requestId: string,
  baseUrl: string,
): Promise<Reply> {
  const context: Parameters<Route['handle']>[0] = {
    caller: who.caller,
    params: input.params,
    query: input.query,
    body: input.body,
    headers: input.headers as Record<string, string | undefined>,
    requestId,
    baseUrl,
  };
  if (who.person) context.person = who.person;
  return route.handle(context);
}
