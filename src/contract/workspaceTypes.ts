import { z } from 'zod';
import { Flag, model } from './registry';

/*
 * What kind of workspace a template makes (an extension of the template model): a team (the
 * default, and the only kind Steward provisions today), a Microsoft 365 group without Teams, a
 * SharePoint communication site (no group), or a Viva Engage community (which comes with its own
 * group). A template's `newTeam` holds the fields every type shares (its naming and description
 * conventions, default name and description, whether the requester becomes an owner); each type
 * takes its own fields besides, and the catalog refuses the others (docs/guides/templates.md).
 */

/** The workspace types, in the order the catalog documents them. */
export const WORKSPACE_TYPES = ['team', 'group', 'communicationSite', 'community'] as const;

export const WorkspaceType = z
  .enum(WORKSPACE_TYPES)
  .describe(
    'What the template makes (an extension): `team` (the default), `group` (a Microsoft 365 group: mail, ' +
      'calendar, files, no Teams), `communicationSite` (a SharePoint communication site, no group) or ' +
      '`community` (a Viva Engage community, with its own group). Only `team` can be requested today: ' +
      'a request from a template of another type is refused with 400 `workspaceTypeNotProvisionable`.',
  );
export type WorkspaceType = z.output<typeof WorkspaceType>;

/**
 * The group behaviours Microsoft Graph takes when a Microsoft 365 group is created, and only then
 * (the group resource's `resourceBehaviorOptions`; "Microsoft 365 group behaviors and provisioning
 * options"). `SkipExchangeInstantOn` is left out: Microsoft marks it "for internal use only".
 */
export const GROUP_BEHAVIORS = [
  'AllowOnlyMembersToPost',
  'CalendarMemberReadOnly',
  'ConnectorsDisabled',
  'HideGroupInOutlook',
  'SubscribeMembersToCalendarEventsDisabled',
  'SubscribeNewGroupMembers',
  'WelcomeEmailDisabled',
] as const;

export const TemplateGroup = model(
  'TemplateGroup',
  z.strictObject({
    hiddenMembership: Flag.default(false).describe(
      'Make the group with the visibility `HiddenMembership`: only its members see who its members are. ' +
        'Microsoft Graph sets it at creation only and never changes it after; a private group only ' +
        '(`newTeam.teamPrivacy` is the visibility otherwise).',
    ),
    resourceBehaviorOptions: z
      .array(z.enum(GROUP_BEHAVIORS))
      .max(GROUP_BEHAVIORS.length)
      .refine((options) => new Set(options).size === options.length, 'each behaviour at most once')
      .default([])
      .describe(
        "The group's behaviours, named as Microsoft Graph's group resource names them; set at creation only.",
      ),
  }),
  "What a Microsoft 365 group template takes besides `newTeam`'s shared fields (an extension); its privacy " +
    'is `newTeam.teamPrivacy`, its mail nickname comes from `newTeam.emailConvention` or the name, as for a team.',
);
export type TemplateGroup = z.output<typeof TemplateGroup>;

/** SharePoint's own communication-site designs (SPSiteManager/create's `SiteDesignId`). */
export const SITE_DESIGNS = ['topic', 'showcase', 'blank'] as const;

export const TemplateCommunicationSite = model(
  'TemplateCommunicationSite',
  z.strictObject({
    siteDesign: z
      .union([z.enum(SITE_DESIGNS), z.guid()])
      .default('topic')
      .describe(
        "The site's design: one of SharePoint's own (`topic`, the default; `showcase`; `blank`) or the id " +
          "of a tenant's own site design for communication sites (a GUID).",
      ),
    lcid: z
      .number()
      .int()
      .min(1)
      .max(2_147_483_647)
      .optional()
      .describe(
        "The site's language as a Windows locale id (SPSiteManager/create's `Lcid`: 1033 English, 1036 " +
          "French); fixed once the site exists. The tenant's default language when absent.",
      ),
    timeZoneId: z
      .number()
      .int()
      .min(0)
      .max(2_147_483_647)
      .optional()
      .describe(
        "The site's time zone as SharePoint numbers them (`TimeZoneId`; the ids of `/_api/web/RegionalSettings/TimeZones`: " +
          "2 London, 3 Paris, 13 Pacific Time). The tenant's default time zone when absent.",
      ),
  }),
  "What a communication-site template takes besides `newTeam`'s shared fields (an extension).",
);
export type TemplateCommunicationSite = z.output<typeof TemplateCommunicationSite>;
