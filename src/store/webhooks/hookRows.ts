import type { EventType } from '../../contract/events';
import type { HookDeliveryStatus, HookScope } from '../../contract';
import type { HookDeliveryRow, HookRow } from '../schema';

/**
 * A hook as stored, secret included: only the service that signs deliveries reads `secret`, sealed
 * (`secretSealed`) or, written by an earlier version, plaintext until sealed.
 */
export interface StoredHook {
  id: string;
  name: string;
  description: string | null;
  active: boolean;
  events: EventType[];
  url: string;
  contentType: 'json';
  secret: string | null;
  secretSealed: boolean;
  /** Whose events it receives; `templateId` for a `template` hook. */
  scope: HookScope;
  templateId: string | null;
  consecutiveFailures: number;
  createdBy: string;
  /** Whether its maker is a person or an application; null for a hook made before that was kept. */
  creatorKind: 'user' | 'app' | null;
  createdAt: string;
  updatedAt: string;
}

/** One entry of a hook's delivery log. */
export interface StoredDelivery {
  id: string;
  hookId: string;
  eventId: string;
  eventType: EventType;
  status: HookDeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  responseMs: number | null;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
}

/** A hook's row as the service reads it. */
export function toHook(row: HookRow): StoredHook {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    active: Number(row.active) === 1,
    events: JSON.parse(row.events) as EventType[],
    url: row.url,
    contentType: 'json',
    secret: row.secret,
    secretSealed: Number(row.secret_sealed) === 1,
    scope: row.scope as HookScope,
    templateId: row.template_id,
    consecutiveFailures: Number(row.consecutive_failures),
    createdBy: row.created_by,
    creatorKind: row.creator_kind === 'user' || row.creator_kind === 'app' ? row.creator_kind : null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** A delivery log entry's row as the service reads it. */
export function toDelivery(row: HookDeliveryRow): StoredDelivery {
  return {
    id: row.id,
    hookId: row.hook_id,
    eventId: row.event_id,
    eventType: row.event_type as EventType,
    status: row.status as HookDeliveryStatus,
    attempts: Number(row.attempts),
    lastStatusCode: row.last_status_code === null ? null : Number(row.last_status_code),
    lastError: row.last_error,
    responseMs: row.response_ms === null ? null : Number(row.response_ms),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    completedAt: row.completed_at,
  };
}
