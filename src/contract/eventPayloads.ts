import { z } from 'zod';
import { EVENT_TYPES, type EventType } from './events';
import { model } from './registry';

/**
 * What each event's delivery carries: the JSON body a hook receives. Every payload is open (a
 * later version may add fields), so receivers read the fields named here and ignore the others.
 * The OpenAPI document lists them in its `webhooks` section, and the Power Platform connector's
 * triggers declare them as their notification content.
 */

const Person = z.looseObject({ id: z.string(), displayName: z.string().nullish() });
const Team = z.looseObject({
  id: z.string().describe('The team’s id.'),
  displayName: z.string().nullish(),
  webUrl: z.string().nullish(),
});
const Template = z.looseObject({
  id: z.string().describe('The template’s id.'),
  name: z.string().nullish(),
  translations: z
    .record(z.string(), z.looseObject({ name: z.string() }))
    .optional()
    .describe('Its name in other languages than its own, by language tag (an extension), when it has any.'),
  version: z.number().int().nullish(),
});
const Stage = z.looseObject({
  id: z.string().describe('The stage’s approval request id (`approveTeamCreation` takes it).'),
  name: z.string(),
  number: z.number().int(),
  count: z.number().int(),
  decision: z.enum(['any', 'all']),
  status: z.string(),
  approvers: z.array(z.looseObject({ id: z.string(), name: z.string().nullish() })),
});

/** What every delivery starts with. */
const base = <T extends EventType>(code: T) => ({
  event: z.literal(code).describe('The event code.'),
  deliveryId: z.string().describe('`X-Steward-Delivery`: the same on every attempt of this delivery.'),
  tenant: z.looseObject({ id: z.string() }),
});

/** A team request's events: who asked, from which template, and where its approval stands. */
const request = {
  requester: Person.describe('Who asked for the team.'),
  template: Template,
  request: z.looseObject({
    team: z.looseObject({
      name: z.string(),
      description: z.string().nullish(),
      welcomeMessage: z.string().nullish(),
    }),
    membership: z.unknown().optional(),
  }),
  provisioning: z.looseObject({ id: z.string().describe('The request’s job id (`getJob`).') }),
  approval: z
    .looseObject({
      id: z.string().describe('The approval request of the stage concerned.'),
      approver: z.looseObject({ id: z.string(), message: z.string().nullish() }).optional(),
      stage: Stage.optional(),
    })
    .optional(),
  team: Team.optional().describe('The team, once made.'),
  metadata: z.record(z.string(), z.unknown()).optional(),
};

const teamJob = { team: Team, requester: Person, provisioning: z.looseObject({ id: z.string() }) };
const lifecycle = {
  team: Team,
  lifecycle: z.looseObject({
    action: z.string().nullish(),
    reason: z.string().nullish(),
    dueOn: z.string().nullish(),
    state: z.string().nullish(),
    expiresOn: z.string().nullish(),
    lastActivityDate: z.string().nullish(),
    ownerCount: z.number().int().optional(),
    guestCount: z.number().int().optional(),
    ownerIds: z.array(z.string()).optional(),
    guestIds: z.array(z.string()).optional(),
  }),
};
const answered = { team: Team, requester: Person, lifecycle: z.looseObject({}) };
const joinRequest = z.looseObject({
  id: z.string(),
  direct: z.boolean().optional(),
  message: z.string().nullish(),
  decision: z.string().optional(),
  comment: z.string().nullish(),
});
const drift = {
  team: Team,
  template: Template,
  requester: Person.optional(),
  job: z.looseObject({ id: z.string() }).optional(),
  applied: z
    .array(z.looseObject({ id: z.string(), kind: z.string(), name: z.string().nullish() }))
    .optional(),
  remaining: z.unknown().optional(),
};
const reason = { reason: z.string().describe('Why it ended so.') };

/** The fields after the common ones, per event. */
const FIELDS: { [T in EventType]: z.ZodRawShape } = {
  team_created: request,
  team_provisioning_completed: request,
  team_provisioning_failed: { ...request, ...reason },
  team_creation_approval_requested: request,
  team_creation_approved: request,
  team_creation_rejected: { ...request, reason: reason.reason.optional() },
  team_creation_approval_reminder: { ...request, reminded: z.array(z.unknown()).optional() },
  team_creation_approval_escalated: { ...request, escalation: z.looseObject({}).optional() },
  team_archived: teamJob,
  team_unarchived: teamJob,
  team_deleted: { team: Team, requester: Person, lifecycle: z.looseObject({}).optional() },
  team_expiring: lifecycle,
  team_renewed: answered,
  team_kept_active: answered,
  team_expired: lifecycle,
  team_inactive: lifecycle,
  team_ownerless: lifecycle,
  team_guest_review_due: lifecycle,
  team_join_requested: { team: Team, requester: Person, owners: z.array(Person), joinRequest },
  team_join_decided: { team: Team, requester: Person, decidedBy: Person, joinRequest },
  team_member_joined: { team: Team, requester: Person, joinRequest },
  team_drift_owners_asked: { team: Team, template: Template, owners: z.array(Person) },
  team_drift_applied: drift,
  team_drift_apply_failed: { ...drift, ...reason },
};

/** The name of an event's payload model: `components.schemas` in OpenAPI, `definitions` in the connector. */
export function eventPayloadModel(code: EventType): string {
  return `WebhookEvent_${code}`;
}

/** Each event's payload schema, by event code. */
export const EVENT_PAYLOADS = Object.fromEntries(
  EVENT_TYPES.map((code) => [
    code,
    model(
      eventPayloadModel(code),
      z.looseObject({ ...base(code), ...FIELDS[code] }),
      `What a hook subscribed to \`${code}\` receives.`,
    ),
  ]),
) as Record<string, z.ZodType> as { [T in EventType]: z.ZodType };
