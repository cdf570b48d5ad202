import { z } from 'zod';
import { channelName, tabConfigurationInput } from './channels';
import { ApprovalPolicy } from './approvalPolicy';
import { LifecyclePolicy } from './lifecycle';
import { Flag, model, multiLine, odataCollection } from './registry';
import { TEAM_NAME_MAX_LENGTH } from './limits';
import { channelFiles, channelFolders, TemplateTeamSettings } from './workspace';
import { TemplateApp, TemplatePlanner, TemplateTag } from './teamTools';
import { TemplateCommunicationSite, TemplateGroup, WorkspaceType } from './workspaceTypes';

/** A user reference inside a template; `id` may be an object id, a UPN or a mail on input. */
export const PermanentMember = model(
  'PermanentMember',
  z.strictObject({ id: z.string().trim().min(1).max(320), name: z.string().max(256).optional() }),
);
export type PermanentMember = z.output<typeof PermanentMember>;

export const PermanentMembership = model(
  'PermanentMembership',
  z.strictObject({
    members: z.array(PermanentMember).max(500).default([]),
    owners: z.array(PermanentMember).max(100).default([]),
  }),
);
export type PermanentMembership = z.output<typeof PermanentMembership>;

export const PermanentMembershipRole = z.enum(['owners', 'members']);
export type PermanentMembershipRole = z.output<typeof PermanentMembershipRole>;

const AudienceTargeting = z.strictObject({
  enabled: Flag.default(false),
  rules: multiLine(z.string().max(2000)).default(''),
  rulesWithTags: multiLine(z.string().max(8000)).optional(),
});

/** A template's name and description in one more language (either may be left to the template's own). */
const TemplateTranslation = z.strictObject({
  name: z.string().trim().min(1).max(256).optional(),
  description: multiLine(z.string().max(1024)).optional(),
});

/** A language tag of BCP 47's simple shape (`fr`, `fr-CA`), the key of a template's translations. */
const languageTag = z
  .string()
  .max(35)
  .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$/, 'a language tag such as fr or fr-CA');

export const TemplateConfiguration = model(
  'TemplateConfiguration',
  z.strictObject({
    id: z.string().optional(),
    name: z.string().trim().min(1).max(256),
    workspaceType: WorkspaceType.default('team'),
    description: multiLine(z.string().max(1024)).default(''),
    pictureUrl: z.string().max(2048).nullable().default(null),
    language: z.string().max(35).default('en-US'),
    enabled: Flag.default(true),
    system: Flag.default(false),
    singleton: Flag.default(false),
    domId: z.string().max(256).nullable().default(null),
    approval: ApprovalPolicy.default({ requireApproval: false, approvalTeam: [], allowSelfApproval: false }),
    permanentMembership: PermanentMembership.default({ members: [], owners: [] }),
    audienceTargeting: AudienceTargeting.default({ enabled: false, rules: '' }),
    sensitivityLabelId: z.string().max(128).nullable().default(null),
    minimumOwners: z.number().int().min(0).max(100).default(0),
    minimumMembers: z.number().int().min(0).max(500).default(0),
    allowDirectJoin: Flag.default(false).describe(
      'Whether people may join a public team made from this template without its owners’ approval (an extension).',
    ),
    askOwnersBeforeApplying: Flag.default(false).describe(
      "Ask each team's owners before bringing their team in line with a new version of the template (an extension).",
    ),
    lifecycle: LifecyclePolicy.optional().describe(
      'The lifecycle policy of teams made from this template (an extension); the tenant default when absent.',
    ),
    translations: z
      .record(languageTag, TemplateTranslation)
      .refine((entries) => Object.keys(entries).length <= 20, 'at most 20 languages')
      .optional()
      .describe(
        'The template’s name and description in other languages than its own, by language tag (an extension): ' +
          'the bot shows people the ones of their language.',
      ),
  }),
);

export const ClonedTeam = model(
  'ClonedTeam',
  z.strictObject({
    teamId: z.string().trim().min(1).max(256),
    teamName: z.string().max(TEAM_NAME_MAX_LENGTH).optional(),
    includeApps: Flag.default(false),
    includeTabs: Flag.default(false),
    includeSettings: Flag.default(false),
    includeChannels: Flag.default(false),
    includeMembers: Flag.default(false),
  }),
);

const convention = z.string().max(1024).optional();
/** Conventions of multi-line text (a description, a welcome message). */
const textConvention = multiLine(z.string().max(1024)).optional();

export const TemplateChannel = model(
  'TemplateChannel',
  z.strictObject({
    displayName: channelName,
    description: multiLine(z.string().max(1024)).optional(),
    membershipType: z
      .enum(['standard', 'private', 'shared'])
      .default('standard')
      .describe("`shared` (an extension): a shared channel, its owner the team's first owner."),
    folders: channelFolders.optional(),
    files: channelFiles.optional(),
  }),
);

export const TemplateTab = model(
  'TemplateTab',
  z.strictObject({
    channel: channelName,
    displayName: z.string().trim().min(1).max(128),
    teamsAppId: z.string().trim().min(1).max(256),
    configuration: tabConfigurationInput.default({}),
  }),
);

export const NewTeam = model(
  'NewTeam',
  z.strictObject({
    namingConvention: convention,
    namingConventionWithTags: convention,
    emailConvention: convention,
    emailConventionWithTags: convention,
    descriptionConvention: textConvention,
    descriptionConventionWithTags: textConvention,
    welcomeMessageConvention: textConvention,
    welcomeMessageConventionWithTags: textConvention,
    defaultName: z.string().max(TEAM_NAME_MAX_LENGTH).optional(),
    defaultDescription: multiLine(z.string().max(1024)).optional(),
    defaultWelcomeMessage: multiLine(z.string().max(4000)).optional(),
    teamPrivacy: z.enum(['public', 'private']).default('private'),
    addRequesterAsTeamOwner: Flag.default(true),
    channels: z.array(TemplateChannel).max(50).default([]),
    tabs: z.array(TemplateTab).max(100).default([]),
    settings: TemplateTeamSettings.optional().describe(
      "The team's member, guest, messaging and fun settings, named as on Microsoft Graph's team resource (an extension); what is left out keeps the platform's default.",
    ),
    planner: TemplatePlanner.optional(),
    tags: z.array(TemplateTag).max(25).optional(),
    apps: z.array(TemplateApp).max(25).optional(),
  }),
);

export const CatalogTemplate = model(
  'CatalogTemplate',
  z.strictObject({
    templateConfiguration: TemplateConfiguration,
    clonedTeam: ClonedTeam.nullable().default(null),
    newTeam: NewTeam.default({
      teamPrivacy: 'private',
      addRequesterAsTeamOwner: true,
      channels: [],
      tabs: [],
    }),
    newGroup: TemplateGroup.optional().describe(
      "A `group` template's own fields (an extension); any other type refuses them.",
    ),
    newCommunicationSite: TemplateCommunicationSite.optional().describe(
      "A `communicationSite` template's own fields (an extension); any other type refuses them.",
    ),
  }),
  'A template of the catalog: a team by default, or another workspace type (`templateConfiguration.workspaceType`).',
);
/** A template as stored and returned: defaults applied, flags as booleans. */
export type CatalogTemplate = z.output<typeof CatalogTemplate>;
/** A template as a client may send it. */
export type CatalogTemplateInput = z.input<typeof CatalogTemplate>;

export const CatalogTemplates = model('CatalogTemplates', odataCollection(CatalogTemplate));
export type CatalogTemplates = z.output<typeof CatalogTemplates>;

export const UnavailableTemplate = model(
  'UnavailableTemplate',
  z.strictObject({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    workspaceType: WorkspaceType,
    audience: z
      .string()
      .nullable()
      .describe(
        "Who the template is for, in the catalog's plain words (its rules with tags); null when unsaid.",
      ),
  }),
  'An enabled template whose audience rules leave the caller out: its name, and who it is for.',
);
export type UnavailableTemplate = z.output<typeof UnavailableTemplate>;
export const UnavailableTemplates = model('UnavailableTemplates', odataCollection(UnavailableTemplate));
export type UnavailableTemplates = z.output<typeof UnavailableTemplates>;
