import { z } from 'zod';
import {
  CatalogTemplate,
  CatalogTemplates,
  PermanentMember,
  PermanentMembership,
  PermanentMembershipRole,
  TemplateVersions,
  UnavailableTemplates,
} from '../../contract';
import type { CatalogService } from '../../services/catalog/catalog';
import { odataCollection } from '../odata';
import { API_BASE, defineRoute, type Route } from '../route';

const TemplateId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'A template id is 1–128 letters, digits, ".", "_" or "-".')
  .describe('The template id.');
/** A template id in a catalog path (drift's routes use it too). */
export const TemplatePath = z.object({ template_id: TemplateId });
const RolePath = z.object({
  template_id: TemplateId,
  role: PermanentMembershipRole.describe('Which permanent members: owners or members.'),
});
const tag = 'Catalog';
const VersionsQuery = z.object({
  $top: z.coerce.number().int().min(1).max(100).default(20).describe('Page size (1–100).'),
  $skip: z.coerce.number().int().min(0).max(1_000_000).default(0).describe('Versions to skip.'),
});

/** The template catalog: listing (all, or the caller's), templates, and permanent membership. */
export function catalogRoutes(catalog: CatalogService): Route[] {
  return [
    defineRoute({
      operationId: 'getCatalogTemplates',
      method: 'get',
      path: '/catalog/templates',
      tag,
      summary: 'List every template of the catalog, enabled or not',
      responses: { 200: { description: 'The catalog.', schema: CatalogTemplates } },
      handle: async ({ baseUrl }) => ({
        status: 200,
        body: odataCollection(baseUrl, 'catalogTemplates', await catalog.listAll()),
      }),
    }),
    defineRoute({
      operationId: 'getMyCatalogTemplates',
      method: 'get',
      path: '/me/catalog/templates',
      tag,
      summary: 'List the templates the caller may use (enabled and targeted to them)',
      responses: { 200: { description: "The caller's templates.", schema: CatalogTemplates } },
      handle: async ({ caller, baseUrl }) => ({
        status: 200,
        body: odataCollection(baseUrl, 'catalogTemplates', await catalog.listForCaller(caller)),
      }),
    }),
    defineRoute({
      operationId: 'getMyUnavailableTemplates',
      method: 'get',
      path: '/me/catalog/unavailableTemplates',
      tag,
      summary: 'List the enabled templates the caller may not use, and who each is for',
      description:
        "Each template's id, name, description and audience in the catalog's plain words (never its rules' code), " +
        'so that an assistant can say why a template asked for is not offered and what to do instead.',
      responses: {
        200: { description: 'The templates not offered to the caller.', schema: UnavailableTemplates },
      },
      handle: async ({ caller, baseUrl }) => ({
        status: 200,
        body: odataCollection(baseUrl, 'unavailableTemplates', await catalog.listUnavailableToCaller(caller)),
      }),
    }),
    defineRoute({
      operationId: 'getPlatformTeamTemplate',
      method: 'get',
      path: '/catalog/templates/{template_id}',
      tag,
      summary: 'Get a template',
      description: 'A plain user sees only templates that are enabled and targeted to them; others are 404.',
      params: TemplatePath,
      responses: { 200: { description: 'The template.', schema: CatalogTemplate } },
      handle: async ({ caller, params }) => ({
        status: 200,
        body: await catalog.get(params.template_id, caller),
      }),
    }),
    defineRoute({
      operationId: 'setPlatformTeamTemplate',
      method: 'put',
      path: '/catalog/templates/{template_id}',
      tag,
      summary: 'Create or replace a template',
      description:
        'Validates every field: audience rules and naming conventions must parse (400 names the position), ' +
        'approvers and permanent members must be in the directory, a label must exist.',
      params: TemplatePath,
      body: CatalogTemplate,
      responses: { 200: { description: 'The template as stored.', schema: CatalogTemplate } },
      handle: async ({ caller, params, body }) => ({
        status: 200,
        body: await catalog.put(caller, params.template_id, body),
      }),
    }),
    defineRoute({
      operationId: 'getTemplateVersions',
      method: 'get',
      path: '/catalog/templates/{template_id}/versions',
      tag,
      summary: "List a template's versions, newest first, each with what changed from the one before",
      description:
        'Every save of a template makes a version: who saved it, when, and its differences from the ' +
        'previous version, by path and names. Seen by whoever may see the template.',
      params: TemplatePath,
      query: VersionsQuery,
      responses: { 200: { description: 'A page of versions.', schema: TemplateVersions } },
      handle: async ({ caller, params, query, baseUrl }) => {
        const { versions, total } = await catalog.versions(caller, params.template_id, {
          top: query.$top,
          skip: query.$skip,
        });
        const next = query.$skip + versions.length;
        const path = `/catalog/templates/${encodeURIComponent(params.template_id)}/versions`;
        return {
          status: 200,
          body: odataCollection(baseUrl, 'templateVersions', versions, {
            count: total,
            nextLink:
              next < total ? `${baseUrl}${API_BASE}${path}?$top=${query.$top}&$skip=${next}` : undefined,
          }),
        };
      },
    }),
    defineRoute({
      operationId: 'getPlatformTeamTemplatePermanentMembership',
      method: 'get',
      path: '/catalog/templates/{template_id}/permanent_membership',
      tag,
      summary: "Get a template's permanent owners and members",
      params: TemplatePath,
      responses: { 200: { description: 'The permanent membership.', schema: PermanentMembership } },
      handle: async ({ params }) => ({
        status: 200,
        body: await catalog.getPermanentMembership(params.template_id),
      }),
    }),
    defineRoute({
      operationId: 'setPlatformTeamTemplatePermanentMembership',
      method: 'put',
      path: '/catalog/templates/{template_id}/permanent_membership',
      tag,
      summary: "Replace a template's permanent owners and members",
      params: TemplatePath,
      body: PermanentMembership,
      responses: { 200: { description: 'The permanent membership as stored.', schema: PermanentMembership } },
      handle: async ({ caller, params, body }) => ({
        status: 200,
        body: await catalog.setPermanentMembership(caller, params.template_id, body),
      }),
    }),
    defineRoute({
      operationId: 'getPlatformTeamTemplatePermanentMembershipByRole',
      method: 'get',
      path: '/catalog/templates/{template_id}/permanent_membership/{role}',
      tag,
      summary: "Get a template's permanent owners, or its permanent members",
      params: RolePath,
      responses: {
        200: { description: 'The permanent members in that role.', schema: z.array(PermanentMember) },
      },
      handle: async ({ params }) => ({
        status: 200,
        body: await catalog.getPermanentMembers(params.template_id, params.role),
      }),
    }),
    defineRoute({
      operationId: 'setPlatformTeamTemplatePermanentMembershipByRole',
      method: 'put',
      path: '/catalog/templates/{template_id}/permanent_membership/{role}',
      tag,
      summary: "Replace a template's permanent owners, or its permanent members",
      params: RolePath,
      body: z.array(PermanentMember).max(500),
      responses: {
        200: {
          description: 'The permanent members in that role as stored.',
          schema: z.array(PermanentMember),
        },
      },
      handle: async ({ caller, params, body }) => ({
        status: 200,
        body: await catalog.setPermanentMembers(caller, params.template_id, params.role, body),
      }),
    }),
  ];
}
