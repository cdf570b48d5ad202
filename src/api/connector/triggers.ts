import { EVENT_TYPES, type EventType, eventPayloadModel } from '../../contract';
import { type JsonSchema, titleOf } from './swaggerSchema';

/** The operation Power Automate calls to unsubscribe: `DELETE` on the subscription's Location. */
export const UNSUBSCRIBE_OPERATION = 'deleteHookSubscription';

/** What each trigger is called in the designer: "When …". */
const WHEN: { [T in EventType]: string } = {
  team_created: 'When a team is created',
  team_provisioning_completed: 'When a team request is completed',
  team_provisioning_failed: 'When a team request ends without a team',
  team_creation_approval_requested: 'When a team request needs an approval',
  team_creation_approved: 'When a team request is approved',
  team_creation_rejected: 'When a team request is rejected',
  team_creation_approval_reminder: 'When approvers are reminded of a team request',
  team_creation_approval_escalated: 'When a team request’s approval is escalated',
  team_archived: 'When a team is archived',
  team_unarchived: 'When a team is unarchived',
  team_deleted: 'When a team is deleted',
  team_expiring: 'When a team is about to expire',
  team_renewed: 'When a team is renewed',
  team_kept_active: 'When an owner keeps an inactive team',
  team_expired: 'When a team expires',
  team_inactive: 'When a team is found inactive',
  team_ownerless: 'When a team lacks owners',
  team_guest_review_due: 'When a team’s guests are due for review',
  team_join_requested: 'When someone asks to join a team',
  team_join_decided: 'When a request to join a team is decided',
  team_member_joined: 'When a member joins a team',
  team_drift_owners_asked: 'When owners are asked to update a team to its template',
  team_drift_applied: 'When a team is updated to its template',
  team_drift_apply_failed: 'When updating a team to its template fails',
};

/** `team_created` → `onTeamCreated`. */
export function triggerOperationId(code: EventType): string {
  return `on${titleOf(code).replace(/ /g, '')}`;
}

/**
 * The subscription body as the designer shows it: the callback URL is Power Automate's own
 * (`x-ms-notification-url`, hidden), the rest are the subscription's choices.
 */
export function subscriptionBody(definition: JsonSchema): JsonSchema {
  const body = structuredClone(definition);
  const properties = body.properties as Record<string, JsonSchema>;
  const config = properties.config as JsonSchema & { properties: Record<string, JsonSchema> };
  config.properties.url = {
    ...config.properties.url,
    'x-ms-notification-url': true,
    'x-ms-visibility': 'internal',
  };
  config.properties.content_type = { ...config.properties.content_type, 'x-ms-visibility': 'internal' };
  config.properties.secret = { ...config.properties.secret, 'x-ms-visibility': 'advanced' };
  config['x-ms-visibility'] = 'internal';
  properties.name = { ...properties.name, 'x-ms-visibility': 'internal' };
  properties.description = { ...properties.description, 'x-ms-visibility': 'internal' };
  properties.scope = { ...properties.scope, 'x-ms-visibility': 'important' };
  properties.templateId = { ...properties.templateId, 'x-ms-visibility': 'advanced' };
  body.required = ['config'];
  return body;
}

/** One trigger per event: `POST /hooks/{event}` with its payload as the notification's content. */
export function triggerPaths(subscribe: JsonSchema): Record<string, JsonSchema> {
  const paths: Record<string, JsonSchema> = {};
  for (const code of EVENT_TYPES) {
    const parameters = [
      { name: 'body', in: 'body', required: true, 'x-ms-summary': 'Subscription', schema: subscribe },
    ];
    paths[`/hooks/${code}`] = {
      'x-ms-notification-content': {
        description: `The \`${code}\` event.`,
        schema: { $ref: `#/definitions/${eventPayloadModel(code)}` },
      },
      post: {
        operationId: triggerOperationId(code),
        summary: WHEN[code],
        description:
          `Runs the flow on each \`${code}\` event: by default those that name the signed-in person ` +
          '(as requester, approver, owner or asker); integration managers may choose a template’s or the tenant’s.',
        'x-ms-trigger': 'single',
        'x-ms-visibility': 'important',
        parameters,
        responses: {
          '201': {
            description: 'Subscribed',
            headers: { Location: { type: 'string', description: 'Where to unsubscribe.' } },
            schema: { $ref: '#/definitions/Hook' },
          },
          default: { description: 'Refused', schema: { $ref: '#/definitions/ApiError' } },
        },
      },
    };
  }
  return paths;
}
