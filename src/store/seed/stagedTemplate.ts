import type { CatalogTemplateInput } from '../../contract/catalog';
import { SEED_LABEL_IDS } from './directory';
import { badge, personRef } from './templateParts';

/**
 * A demo template with a staged approval policy: Legal first (Adele Vance), then a rule that sends
 * Sales requests to the IT director and the others to the governance manager, with a reminder, an
 * escalation (to the governance manager) and an expiry. Both stages name people of the Agents
 * Playground, so the whole flow can be walked in chat.
 */
export const stagedTemplate: CatalogTemplateInput = {
  templateConfiguration: {
    id: 'partner-workspace',
    name: 'Shared partner workspace',
    description:
      'A private team shared with an outside partner. Legal, then compliance, approve each request.',
    pictureUrl: badge('PTR', '#CA5010'),
    language: 'en-US',
    translations: {
      fr: {
        name: 'Espace partagé avec un partenaire',
        description:
          'Une équipe privée partagée avec un partenaire externe. Le service juridique, puis la conformité, approuvent chaque demande.',
      },
    },
    approval: {
      requireApproval: true,
      stages: [
        { name: 'Legal', approvers: { kind: 'people', people: [personRef('Adele Vance')] } },
        {
          name: 'Compliance',
          approvers: {
            kind: 'rule',
            rule: "user.department === 'Sales' ? ['meganb@example.com'] : ['lynner@example.com']",
          },
        },
      ],
      reminderAfterHours: 24,
      escalateAfterHours: 72,
      // Named rather than left to the default (the governance managers): with Microsoft Graph the
      // governance managers cannot be listed, and a policy that escalates must name its team.
      escalationTeam: [personRef('Lynne Robbins')],
      expireAfterDays: 14,
    },
    sensitivityLabelId: SEED_LABEL_IDS.confidentialAllEmployees,
  },
  newTeam: {
    namingConvention: 'PTR-<%= request.team.name %>',
    namingConventionWithTags: 'PTR-{Team name}',
    defaultName: 'Partner name',
    defaultDescription: 'Shared workspace with a partner',
    teamPrivacy: 'private',
    addRequesterAsTeamOwner: true,
    channels: [{ displayName: 'Shared files', description: 'What we exchange with the partner.' }],
  },
};
