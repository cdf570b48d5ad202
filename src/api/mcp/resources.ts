import { type McpServer, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { ApiError } from '../../contract';
import type { RouteEntry, ServeOptions } from '../pipeline/serve';
import { type CallerRequest, dispatch } from './dispatch';

/** A resource: a read a client would rather keep than call, served by one API operation. */
const RESOURCES = [
  {
    name: 'templates',
    uri: 'steward://templates',
    title: 'My team templates',
    description:
      'The templates the caller may use, with their approval policy (stages, approvers), naming conventions and labels.',
    operationId: 'getMyCatalogTemplates',
  },
  {
    name: 'lifecycle-policy',
    uri: 'steward://policies/lifecycle',
    title: 'The lifecycle policy',
    description:
      'When teams expire, when they count as inactive, and what happens then (governance managers and admins).',
    operationId: 'getLifecyclePolicy',
  },
] as const;

/** Registers the resources on `server`; each read runs its operation as the caller, like a tool. */
export function registerResources(
  server: McpServer,
  entries: ReadonlyMap<string, RouteEntry>,
  from: CallerRequest,
  options: ServeOptions,
): void {
  for (const resource of RESOURCES) {
    const entry = entries.get(resource.operationId);
    if (!entry) continue;
    server.registerResource(
      resource.name,
      resource.uri,
      { title: resource.title, description: resource.description, mimeType: 'application/json' },
      async (uri: URL) => {
        const outcome = await dispatch(entry, { params: {}, query: {}, body: undefined }, from, options);
        if (outcome.status >= 400) {
          const error = (outcome.body as ApiError).error;
          throw new ProtocolError(
            ProtocolErrorCode.InvalidRequest,
            `Refused (${outcome.status} ${error.code}): ${error.message}`,
            outcome.body,
          );
        }
        return {
          contents: [
            { uri: uri.href, mimeType: 'application/json', text: JSON.stringify(outcome.body ?? null) },
          ],
        };
      },
    );
  }
}
