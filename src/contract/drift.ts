import { z } from 'zod';
import { Job } from './jobs';
import { model, odataCollection } from './registry';

/**
 * Template versions and drift (extensions, docs/guides/drift.md): every change of a template makes a version,
 * a team remembers the version it was made from, and drift is what the template's current version
 * asks for that a team lacks or contradicts.
 */

/** One difference between two versions of a template, at a path of names (never ids). */
export const TemplateChange = model(
  'TemplateChange',
  z.object({
    change: z.enum(['added', 'removed', 'changed']),
    /** Where, by names: `newTeam.channels["Deliverables"]`, `templateConfiguration.name`. */
    path: z.string(),
    before: z.unknown().optional(),
    after: z.unknown().optional(),
  }),
);
export type TemplateChange = z.output<typeof TemplateChange>;

export const TemplateVersion = model(
  'TemplateVersion',
  z.object({
    templateId: z.string(),
    version: z.number().int().positive(),
    createdDateTime: z.string(),
    /** Who saved it, from their token; null for versions older than versioning. */
    createdBy: z.object({ id: z.string(), displayName: z.string().nullable() }).nullable(),
    /** What changed from the previous version, in a sentence. */
    summary: z.string(),
    changes: z.array(TemplateChange),
  }),
  'A version of a template (an extension): who saved it, when, and what changed from the previous one.',
);
export type TemplateVersion = z.output<typeof TemplateVersion>;

export const TemplateVersions = model('TemplateVersions', odataCollection(TemplateVersion));

/** The kinds of template part drift compares; more are added as templates gain parts. */
export const DRIFT_KINDS = [
  'channel',
  'tab',
  'permanentOwner',
  'permanentMember',
  'sensitivityLabel',
  'visibility',
  'channelFile',
  'planBucket',
  'tag',
  'app',
  'teamSetting',
] as const;
export const DriftKind = z.enum(DRIFT_KINDS);
export type DriftKind = z.output<typeof DriftKind>;

export const DriftDifference = model(
  'DriftDifference',
  z.object({
    /** Stable for the same difference of the same team: what `drift/apply` chooses by. */
    id: z.string(),
    kind: DriftKind,
    /** The part's name as people read it (a channel's, a tab's, a person's). */
    name: z.string(),
    /** What the template asks for and what the team has, in a sentence. */
    detail: z.string(),
    /** True when Steward can bring the team in line with it (always by adding, never removing). */
    applicable: z.boolean(),
    /** Why Steward cannot, when it cannot. */
    reason: z.string().optional(),
  }),
);
export type DriftDifference = z.output<typeof DriftDifference>;

export const TeamDrift = model(
  'TeamDrift',
  z.object({
    teamId: z.string(),
    displayName: z.string(),
    templateId: z.string(),
    templateName: z.string(),
    /** The version the team was made from; null when it was made before versions were kept. */
    madeFromVersion: z.number().int().nullable(),
    currentVersion: z.number().int(),
    differences: z.array(DriftDifference),
  }),
  "How a team stands against its template's current version (an extension).",
);
export type TeamDrift = z.output<typeof TeamDrift>;

export const TemplateDriftTeam = model(
  'TemplateDriftTeam',
  z.object({
    teamId: z.string(),
    displayName: z.string(),
    madeFromVersion: z.number().int().nullable(),
    /** Differences in all, and those Steward can apply. */
    differences: z.number().int().nonnegative(),
    applicable: z.number().int().nonnegative(),
    /** Differences per kind. */
    kinds: z.record(z.string(), z.number().int().nonnegative()),
  }),
);
export type TemplateDriftTeam = z.output<typeof TemplateDriftTeam>;

export const TemplateDriftTeams = model('TemplateDriftTeams', odataCollection(TemplateDriftTeam));

/** `POST /teams/{teamId}/drift/apply`: every applicable difference, or those chosen by id. */
export const TeamDriftApplyRequest = model(
  'TeamDriftApplyRequest',
  z.strictObject({
    differences: z
      .array(z.string().min(1).max(400))
      .min(1)
      .max(500)
      .optional()
      .describe('The ids of the differences to apply (from GET /teams/{teamId}/drift); all when absent.'),
  }),
);
export type TeamDriftApplyRequest = z.output<typeof TeamDriftApplyRequest>;

/** `POST /catalog/templates/{template_id}/drift/apply`: a preview (`dryRun`) or jobs. */
export const TemplateDriftApplyRequest = model(
  'TemplateDriftApplyRequest',
  z.strictObject({
    dryRun: z.boolean().default(false).describe('Preview the teams and differences; make no job.'),
  }),
);
export type TemplateDriftApplyRequest = z.output<typeof TemplateDriftApplyRequest>;

export const TemplateDriftApplyResult = model(
  'TemplateDriftApplyResult',
  z.object({
    dryRun: z.boolean(),
    /** Each drifting team with what would be (or is being) applied, and how. */
    teams: z.array(
      z.object({
        teamId: z.string(),
        displayName: z.string(),
        differences: z.array(DriftDifference),
        /** `job`: a job applies them; `askOwners`: its owners are asked first; `nothing`: none applicable. */
        outcome: z.enum(['job', 'askOwners', 'nothing']),
        jobId: z.string().optional(),
      }),
    ),
  }),
);
export type TemplateDriftApplyResult = z.output<typeof TemplateDriftApplyResult>;

/** An owner's answer to the card asking them (an extension of the bot's calls). */
export const DriftOwnerAnswer = model(
  'DriftOwnerAnswer',
  z.strictObject({ answer: z.enum(['add', 'notNow']) }),
);
export type DriftOwnerAnswer = z.output<typeof DriftOwnerAnswer>;

export const DriftOwnerAnswerResult = model(
  'DriftOwnerAnswerResult',
  z.object({ answer: z.enum(['add', 'notNow']), job: Job.nullable() }),
  "An owner's answer, and the job it queued (for `add`).",
);
export type DriftOwnerAnswerResult = z.output<typeof DriftOwnerAnswerResult>;
