import { z } from 'zod';
import { NAMESPACE_PATTERN, type JsonObject } from '../../domain/metadata';
import { MetadataDocument, MetadataQueryResult } from '../../contract';
import type { MetadataService } from '../../services/teams/metadata';
import { defineRoute, type Route } from '../route';

const namespace = z
  .string()
  .regex(NAMESPACE_PATTERN, 'Not a namespace: 1–64 letters, digits, ".", "_" or "-".')
  .describe('The metadata namespace.');
const TeamNamespacePath = z.object({
  teamId: z
    .string()
    .regex(/^[A-Za-z0-9:@._=-]{1,200}$/, 'Not a team id.')
    .describe('The team id.'),
  namespace,
});
const tag = 'Metadata';
const tooLarge = 'Not a JSON object, over 64 KiB as JSON, nested deeper than 32 levels, or holding U+0000.';

/** Per-team metadata documents and containment queries over them. */
export function metadataRoutes(metadata: MetadataService): Route[] {
  return [
    defineRoute({
      operationId: 'getTeamNamespaceMetadata',
      method: 'get',
      path: '/teams/{teamId}/metadata/{namespace}',
      tag,
      summary: "Get a team's metadata in a namespace",
      description: 'A team with no document in the namespace has `{}`.',
      params: TeamNamespacePath,
      responses: { 200: { description: 'The document.', schema: MetadataDocument } },
      handle: async ({ params }) => ({
        status: 200,
        body: await metadata.get(params.teamId, params.namespace),
      }),
    }),
    defineRoute({
      operationId: 'setTeamNamespaceMetadata',
      method: 'put',
      path: '/teams/{teamId}/metadata/{namespace}',
      tag,
      summary: "Replace a team's metadata in a namespace",
      params: TeamNamespacePath,
      body: MetadataDocument,
      responses: {
        200: { description: 'The stored document.', schema: MetadataDocument },
        400: { description: tooLarge },
      },
      handle: async ({ caller, params, body }) => ({
        status: 200,
        body: await metadata.put(caller, params.teamId, params.namespace, body as JsonObject),
      }),
    }),
    defineRoute({
      operationId: 'updateTeamNamespaceMetadata',
      method: 'patch',
      path: '/teams/{teamId}/metadata/{namespace}',
      tag,
      summary: "Deep-merge into a team's metadata in a namespace",
      description:
        'Objects merge recursively, arrays and scalars replace, `null` deletes a key. Answers the merged document.',
      params: TeamNamespacePath,
      body: MetadataDocument,
      responses: {
        200: { description: 'The merged document.', schema: MetadataDocument },
        400: { description: `${tooLarge} (The merged document too.)` },
      },
      handle: async ({ caller, params, body }) => ({
        status: 200,
        body: await metadata.patch(caller, params.teamId, params.namespace, body as JsonObject),
      }),
    }),
    defineRoute({
      operationId: 'queryMetadata',
      method: 'post',
      path: '/metadata/{namespace}/query',
      tag,
      summary: 'Find the teams whose metadata contains a JSON object',
      description:
        'Containment as PostgreSQL’s jsonb `@>` decides it: every key of the query with a contained value; ' +
        'each element of a query array contained in some element of the document’s array; scalars equal ' +
        '(`1` is not `"1"`); `{}` matches every document of the namespace. Ordered by team id, at most 10 000.',
      params: z.object({ namespace }),
      body: MetadataDocument,
      responses: {
        200: { description: 'The matching teams.', schema: z.array(MetadataQueryResult) },
        400: { description: tooLarge },
      },
      handle: async ({ params, body }) => ({
        status: 200,
        body: await metadata.query(params.namespace, body as JsonObject),
      }),
    }),
  ];
}
