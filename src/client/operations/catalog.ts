import type {
  CatalogTemplate,
  CatalogTemplateInput,
  CatalogTemplates,
  PermanentMember,
  PermanentMemberInput,
  PermanentMembership,
  PermanentMembershipInput,
  PermanentMembershipRole,
  UnavailableTemplates,
} from '../models';
import type { CallOptions } from '../options';
import { apiPath } from '../url';
import { bodyOf, type Send } from './send';

/** The template catalog: listings, templates, and their permanent owners and members. */
export function catalogOperations(send: Send) {
  const template = (templateId: string, rest = '') =>
    apiPath(`/catalog/templates/{template_id}${rest}`, { template_id: templateId });
  const byRole = (templateId: string, role: PermanentMembershipRole) =>
    apiPath('/catalog/templates/{template_id}/permanent_membership/{role}', {
      template_id: templateId,
      role,
    });

  return {
    /** Lists every template of the catalog, enabled or not (`GET /catalog/templates`). */
    async getCatalogTemplates(options?: CallOptions): Promise<CatalogTemplates> {
      const path = '/catalog/templates';
      return bodyOf(send, { operationId: 'getCatalogTemplates', method: 'GET', path }, options);
    },

    /** Lists the templates the caller may use: enabled and targeted to them (`GET /me/catalog/templates`). */
    async getMyCatalogTemplates(options?: CallOptions): Promise<CatalogTemplates> {
      const path = '/me/catalog/templates';
      return bodyOf(send, { operationId: 'getMyCatalogTemplates', method: 'GET', path }, options);
    },

    /**
     * The enabled templates whose audience leaves the caller out, with who each is for
     * (`GET /me/catalog/unavailableTemplates`): to say why a template asked for is not offered.
     */
    async getMyUnavailableTemplates(options?: CallOptions): Promise<UnavailableTemplates> {
      const path = '/me/catalog/unavailableTemplates';
      return bodyOf(send, { operationId: 'getMyUnavailableTemplates', method: 'GET', path }, options);
    },

    /** Reads a template (`GET /catalog/templates/{template_id}`). */
    async getPlatformTeamTemplate(templateId: string, options?: CallOptions): Promise<CatalogTemplate> {
      const path = template(templateId);
      return bodyOf(send, { operationId: 'getPlatformTeamTemplate', method: 'GET', path }, options);
    },

    /** Creates or replaces a template (`PUT /catalog/templates/{template_id}`); resolves to it as stored. */
    async setPlatformTeamTemplate(
      templateId: string,
      body: CatalogTemplateInput,
      options?: CallOptions,
    ): Promise<CatalogTemplate> {
      const path = template(templateId);
      return bodyOf(send, { operationId: 'setPlatformTeamTemplate', method: 'PUT', path, body }, options);
    },

    /** Reads a template's permanent owners and members (`GET …/{template_id}/permanent_membership`). */
    async getPlatformTeamTemplatePermanentMembership(
      templateId: string,
      options?: CallOptions,
    ): Promise<PermanentMembership> {
      const operationId = 'getPlatformTeamTemplatePermanentMembership';
      return bodyOf(
        send,
        { operationId, method: 'GET', path: template(templateId, '/permanent_membership') },
        options,
      );
    },

    /** Replaces a template's permanent owners and members (`PUT …/{template_id}/permanent_membership`). */
    async setPlatformTeamTemplatePermanentMembership(
      templateId: string,
      body: PermanentMembershipInput,
      options?: CallOptions,
    ): Promise<PermanentMembership> {
      const operationId = 'setPlatformTeamTemplatePermanentMembership';
      const path = template(templateId, '/permanent_membership');
      return bodyOf(send, { operationId, method: 'PUT', path, body }, options);
    },

    /** Reads a template's permanent owners, or its members (`GET …/permanent_membership/{role}`). */
    async getPlatformTeamTemplatePermanentMembershipByRole(
      templateId: string,
      role: PermanentMembershipRole,
      options?: CallOptions,
    ): Promise<PermanentMember[]> {
      const operationId = 'getPlatformTeamTemplatePermanentMembershipByRole';
      return bodyOf(send, { operationId, method: 'GET', path: byRole(templateId, role) }, options);
    },

    /** Replaces a template's permanent owners, or its members (`PUT …/permanent_membership/{role}`). */
    async setPlatformTeamTemplatePermanentMembershipByRole(
      templateId: string,
      role: PermanentMembershipRole,
      body: PermanentMemberInput[],
      options?: CallOptions,
    ): Promise<PermanentMember[]> {
      const operationId = 'setPlatformTeamTemplatePermanentMembershipByRole';
      return bodyOf(send, { operationId, method: 'PUT', path: byRole(templateId, role), body }, options);
    },
  };
}

/** The catalog operations of the client. */
export type CatalogOperations = ReturnType<typeof catalogOperations>;
