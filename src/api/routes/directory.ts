import { z } from 'zod';
import { Labels, Users } from '../../contract';
import type { DirectoryService } from '../../services/directory/directory';
import { odataCollection } from '../odata';
import { API_BASE, defineRoute, type Route } from '../route';

const DEFAULT_PAGE = 100;
const UsersQuery = z.object({
  $top: z.coerce.number().int().min(1).max(999).default(DEFAULT_PAGE).describe('Page size (1–999).'),
  $skip: z.coerce.number().int().min(0).max(1_000_000).default(0).describe('People to skip.'),
  $search: z
    .string()
    .max(256)
    .optional()
    .describe(
      'Prefix of a display name, given name, surname, mail or UPN; Graph-style "displayName:ada" works too.',
    ),
});

/** Reduces Graph-style `"displayName:ada"` (quotes and property optional) to the prefix `ada`. */
function searchTerm(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const term = raw
    .trim()
    .replace(/^"(.*)"$/, '$1')
    .replace(/^(displayName|mail|userPrincipalName|givenName|surname):/i, '')
    .trim();
  return term === '' ? undefined : term;
}

/** People and labels of the directory. */
export function directoryRoutes(directory: DirectoryService): Route[] {
  return [
    defineRoute({
      operationId: 'getUsers',
      method: 'get',
      path: '/users',
      tag: 'Directory',
      summary: 'List or search the people of the directory (for people pickers)',
      query: UsersQuery,
      responses: { 200: { description: 'A page of people.', schema: Users } },
      handle: async ({ query, baseUrl }) => {
        const search = searchTerm(query.$search);
        const { users, total } = await directory.searchUsers({ search, top: query.$top, skip: query.$skip });
        const next = query.$skip + users.length;
        const params = new URLSearchParams({ $top: String(query.$top), $skip: String(next) });
        if (search) params.set('$search', search);
        return {
          status: 200,
          body: odataCollection(baseUrl, 'users', users, {
            count: total,
            nextLink: next < total ? `${baseUrl}${API_BASE}/users?${params}` : undefined,
          }),
        };
      },
    }),
    defineRoute({
      operationId: 'getMyLabels',
      method: 'get',
      path: '/me/labels',
      tag: 'Directory',
      summary: 'List the sensitivity labels the caller may apply',
      responses: { 200: { description: "The caller's labels.", schema: Labels } },
      handle: async ({ caller, baseUrl }) => ({
        status: 200,
        body: odataCollection(baseUrl, 'labels', await directory.labelsFor(caller)),
      }),
    }),
  ];
}
