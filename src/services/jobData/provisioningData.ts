import { z } from 'zod';
import {
  ApprovalStageProgress,
  ClonedTeam,
  PermanentMember,
  PermanentMembership,
  type CatalogTemplate,
  TeamProvisioningRequest,
  TemplateApp,
  TemplateChannel,
  TemplatePlanner,
  TemplateTab,
  TemplateTeamSettings,
  TemplateTag,
} from '../../contract';

const Person = z.looseObject({ id: z.string(), displayName: z.string() });

/** The plan a provisioning job carries out, fixed when the request is accepted (or amended on approval). */
export const ProvisioningPlan = z.looseObject({
  displayName: z.string(),
  description: z.string(),
  welcomeMessage: z.string(),
  mailNickname: z.string(),
  visibility: z.enum(['public', 'private']),
  sensitivityLabelId: z.string().nullable(),
  // Each person with their name, so cards and reports show people, not ids.
  members: z.array(
    z.object({
      id: z.string(),
      role: z.enum(['owner', 'member']),
      displayName: z.string().nullable().optional(),
    }),
  ),
  clone: ClonedTeam.nullable(),
  channels: z.array(TemplateChannel),
  tabs: z.array(TemplateTab),
  /** The template's member, guest, messaging and fun settings (an extension), when it sets any. */
  settings: TemplateTeamSettings.optional(),
  /** The template's plan, tags and apps (an extension; absent from jobs queued before them). */
  planner: TemplatePlanner.optional(),
  tags: z.array(TemplateTag).optional(),
  apps: z.array(TemplateApp).optional(),
});
export type ProvisioningPlan = z.output<typeof ProvisioningPlan>;

/** A provisioning job's data: what was asked, by whom, from which template, and the plan. */
export const ProvisioningData = z.looseObject({
  request: TeamProvisioningRequest,
  template: z.looseObject({
    id: z.string(),
    name: z.string(),
    /** Its name in other languages, by language tag (absent in jobs queued before they were recorded). */
    translations: z.record(z.string(), z.object({ name: z.string() })).optional(),
    approvers: z.array(PermanentMember),
    permanentMembership: PermanentMembership,
    /** The template's version the plan was made from (absent in jobs queued before versions). */
    version: z.number().int().optional(),
  }),
  requester: Person.extend({ mail: z.string().nullable() }),
  plan: ProvisioningPlan,
  approval: z
    .looseObject({
      /** The approval request of the stage waiting for a decision (the last stage once decided). */
      id: z.string(),
      status: z.string(),
      /** That stage's approvers. */
      approvers: z.array(PermanentMember),
      approver: z.object({ id: z.string(), message: z.string().nullable() }).optional(),
      stages: z.array(ApprovalStageProgress).optional(),
      allowSelfApproval: z.boolean().optional(),
      timers: z
        .object({
          reminderAfterHours: z.number().optional(),
          escalateAfterHours: z.number().optional(),
          expireAfterDays: z.number().optional(),
        })
        .optional(),
      escalationTeam: z.array(PermanentMember).optional(),
    })
    .optional(),
  team: Person.extend({ webUrl: z.string() }).optional(),
  /**
   * The team's channel ids by lower-cased name (`general` for General), as the channels step found
   * or made them, so that the tabs and welcome steps do not read the channels again.
   */
  channelIds: z.record(z.string(), z.string()).optional(),
  /** The plan the planner step found or made (`teamToolsSteps.ts`), so a resumed job reads no other. */
  planId: z.string().optional(),
  /** What became of the template's sensitivity label (the settings step), when it has one. */
  label: z
    .object({
      id: z.string(),
      status: z.enum(['applied', 'missing']),
      appliedBy: z.string().optional(),
      reason: z.string().optional(),
    })
    .optional(),
});
export type ProvisioningData = z.output<typeof ProvisioningData>;

/** The scope naming conventions are evaluated in. */
export function conventionScope(
  body: TeamProvisioningRequest,
  template: CatalogTemplate,
  requester: { displayName: string; mail: string | null },
  user: Record<string, unknown>,
) {
  return {
    request: {
      team: {
        name: body.team.name,
        description: body.team.description ?? template.newTeam.defaultDescription ?? '',
        welcomeMessage: body.team.welcomeMessage ?? template.newTeam.defaultWelcomeMessage ?? '',
      },
      template: { name: template.templateConfiguration.name },
      requester: { name: requester.displayName, email: requester.mail ?? '' },
    },
    user,
  };
}
