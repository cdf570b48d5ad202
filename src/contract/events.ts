/** Every event Steward emits: the event codes webhooks subscribe to. */
export const EVENT_TYPES = [
  'team_created',
  'team_provisioning_completed',
  'team_provisioning_failed',
  'team_creation_approval_requested',
  'team_creation_approved',
  'team_creation_rejected',
  'team_creation_approval_reminder',
  'team_creation_approval_escalated',
  'team_archived',
  'team_unarchived',
  'team_deleted',
  'team_expiring',
  'team_renewed',
  'team_kept_active',
  'team_expired',
  'team_inactive',
  'team_ownerless',
  'team_guest_review_due',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
