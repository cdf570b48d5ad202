import { z } from 'zod';
import { model, multiLine, odataCollection } from './registry';

/** The longest message a person may send with a request to join a team. */
export const JOIN_MESSAGE_MAX_LENGTH = 500;
/** The longest comment an owner may give with a decision. */
export const JOIN_COMMENT_MAX_LENGTH = 1000;

const PersonRef = z.object({ id: z.string(), displayName: z.string() });

export const DirectoryTeam = model(
  'DirectoryTeam',
  z.object({
    id: z.string(),
    displayName: z.string(),
    description: z.string().nullable(),
    visibility: z.enum(['public', 'private']),
    template: z
      .object({ id: z.string(), name: z.string() })
      .nullable()
      .describe('The template the team was made from, when Steward made it.'),
    owners: z.array(PersonRef).describe("The team's owners, by name."),
    memberCount: z.number().int().nonnegative().describe('Members and owners together.'),
    webUrl: z.string().describe('Opens the team in Microsoft Teams.'),
    access: z
      .enum(['member', 'direct', 'request'])
      .describe(
        'How the caller gets in: already a `member` (or owner); `direct`: a public team whose template lets people join ' +
          'without approval; `request`: the owners decide.',
      ),
  }),
  'A team of the directory, as the caller may see it (an extension).',
);
export type DirectoryTeam = z.output<typeof DirectoryTeam>;

export const DirectoryTeams = model(
  'DirectoryTeams',
  odataCollection(DirectoryTeam),
  'Teams of the directory the caller may see, most alike the search first (an extension).',
);
export type DirectoryTeams = z.output<typeof DirectoryTeams>;

export const SimilarTeam = model(
  'SimilarTeam',
  DirectoryTeam.extend({
    reason: z
      .enum(['name', 'purpose'])
      .describe('Alike by `name`, or by `purpose` (the same template, a description of the same words).'),
  }),
  'An existing team alike a requested one: a warning, never a refusal (an extension).',
);
export type SimilarTeam = z.output<typeof SimilarTeam>;

export const JoinRequestPayload = model(
  'JoinRequestPayload',
  z.strictObject({
    message: multiLine(z.string().trim().max(JOIN_MESSAGE_MAX_LENGTH))
      .optional()
      .describe("The asker's words to the owners."),
  }),
);
export type JoinRequestPayload = z.output<typeof JoinRequestPayload>;

export const JoinRequestStatus = z
  .enum(['pending', 'approved', 'declined', 'joined', 'failed'])
  .describe(
    '`pending`: the owners have not decided; `approved`: the member is being added; `joined`: added; ' +
      '`declined`; `failed`: the platform refused to add them (see `failedReason`).',
  );
export type JoinRequestStatus = z.output<typeof JoinRequestStatus>;

export const JoinRequest = model(
  'JoinRequest',
  z.object({
    id: z.string(),
    team: PersonRef.describe('The team (id and name).'),
    requester: PersonRef,
    message: z.string().nullable(),
    status: JoinRequestStatus,
    direct: z.boolean().describe('True when the team let the requester in without approval.'),
    decision: z
      .object({
        decision: z.enum(['approve', 'decline']),
        by: PersonRef,
        comment: z.string().nullable(),
        decidedDateTime: z.string(),
      })
      .nullable(),
    jobId: z.string().nullable().describe('The job that adds the member, once approved.'),
    failedReason: z.string().nullable(),
    createdDateTime: z.string(),
    lastModifiedDateTime: z.string(),
  }),
  'A request to join a team, and what became of it (an extension).',
);
export type JoinRequest = z.output<typeof JoinRequest>;

export const JoinRequests = model(
  'JoinRequests',
  odataCollection(JoinRequest),
  'Requests to join teams, newest first (an extension).',
);
export type JoinRequests = z.output<typeof JoinRequests>;

export const JoinRequestDecision = model(
  'JoinRequestDecision',
  z.strictObject({
    decision: z.enum(['approve', 'decline']),
    comment: multiLine(z.string().trim().max(JOIN_COMMENT_MAX_LENGTH))
      .optional()
      .describe('Told to the requester.'),
  }),
);
export type JoinRequestDecision = z.output<typeof JoinRequestDecision>;
