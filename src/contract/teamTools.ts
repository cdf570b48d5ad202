import { z } from 'zod';
import { channelName } from './channels';
import { model, multiLine } from './registry';

/*
 * What a template builds inside its team beyond channels and tabs (an extension, docs/guides/templates.md): a
 * Planner plan with buckets, tasks and checklists, team tags and installed apps. The bounds are
 * Microsoft's where it documents them, so a template Graph would refuse mid-provisioning is refused
 * when it is saved instead:
 *
 * - a task's checklist holds at most 20 items (Planner's limit; beyond it Graph answers 403
 *   `MaximumChecklistItemsOnTask`, `resources/planner-overview.md`), a checklist item's title at
 *   most 100 characters, a task's title at most 255;
 * - a tag's name is at most 40 characters and a tag is created with at most 25 members
 *   (`api/teamworktag-post.md`; Steward adds the rest one by one).
 *
 * How many buckets, tasks, tags and apps a template holds is Steward's own bound, far under
 * Planner's (a provisioning job makes them one call at a time).
 */

/** Checklist items a Planner task holds at most (Graph: 403 `MaximumChecklistItemsOnTask` beyond). */
export const PLANNER_CHECKLIST_ITEMS = 20;
/** Members a tag is created with at most (`api/teamworktag-post.md`). */
export const TAG_MEMBERS_AT_CREATION = 25;
/** The longest tag name Graph takes (`api/teamworktag-post.md`). */
export const TAG_NAME_MAX_LENGTH = 40;

export const TemplatePlannerTask = model(
  'TemplatePlannerTask',
  z.strictObject({
    title: z.string().trim().min(1).max(255),
    dueInDays: z
      .number()
      .int()
      .min(0)
      .max(3650)
      .optional()
      .describe('Days after the request was made that the task is due; no due date when absent.'),
    checklist: z.array(z.string().trim().min(1).max(100)).max(PLANNER_CHECKLIST_ITEMS).default([]),
  }),
  "A task of a template's Planner plan (an extension).",
);
export type TemplatePlannerTask = z.output<typeof TemplatePlannerTask>;

export const TemplatePlannerBucket = model(
  'TemplatePlannerBucket',
  z.strictObject({
    name: z.string().trim().min(1).max(255),
    tasks: z.array(TemplatePlannerTask).max(50).default([]),
  }),
  "A bucket of a template's Planner plan, with its tasks in order (an extension).",
);
export type TemplatePlannerBucket = z.output<typeof TemplatePlannerBucket>;

export const TemplatePlanner = model(
  'TemplatePlanner',
  z.strictObject({
    title: z
      .string()
      .trim()
      .min(1)
      .max(255)
      .optional()
      .describe("The plan's title; the team's name when absent."),
    buckets: z.array(TemplatePlannerBucket).min(1).max(20),
    tab: z
      .strictObject({
        channel: channelName,
        displayName: z.string().trim().min(1).max(128).default('Planner'),
      })
      .optional()
      .describe(
        "The channel whose tab shows the plan (General or one of the template's channels); no tab when absent.",
      ),
  }),
  'A Planner plan made for the team, its buckets in order (an extension).',
);
export type TemplatePlanner = z.output<typeof TemplatePlanner>;

export const TemplateTag = model(
  'TemplateTag',
  z.strictObject({
    displayName: z.string().trim().min(1).max(TAG_NAME_MAX_LENGTH),
    description: multiLine(z.string().max(1024)).optional(),
    members: z
      .enum(['owners', 'members', 'everyone'])
      .describe(
        "Who of the request's people get the tag: its owners, its members (not owners), or everyone.",
      ),
  }),
  "A team tag, its members drawn from the request's people (an extension).",
);
export type TemplateTag = z.output<typeof TemplateTag>;

export const TemplateApp = model(
  'TemplateApp',
  z.strictObject({
    teamsAppId: z.string().trim().min(1).max(256).describe("The app's id in the organisation's app catalog."),
    displayName: z
      .string()
      .trim()
      .min(1)
      .max(128)
      .optional()
      .describe('A name for the job log and the viewer.'),
  }),
  "An app of the organisation's catalog installed in the team (an extension).",
);
export type TemplateApp = z.output<typeof TemplateApp>;

/** The request's people, with their roles, as a tag's `members` draws them. */
export function tagPeople<P extends { role: 'owner' | 'member' }>(
  people: readonly P[],
  members: TemplateTag['members'],
): P[] {
  if (members === 'everyone') return [...people];
  return people.filter((p) => p.role === (members === 'owners' ? 'owner' : 'member'));
}
