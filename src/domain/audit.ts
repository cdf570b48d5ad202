import type { Caller } from './caller';

/**
 * The audit trails: append-only records of every change and every refused call, grouped by area.
 * A trail's `fields` are the fields each of its records carries on the wire (`AUDIT_RECORD_FIELDS`).
 */
export const AUDIT_TRAILS = [
  {
    code: 'team_provisioning',
    category: 'Provisioning',
    description:
      'Provisioning requests and their jobs: queued, started, retried, completed and failed; requests refused for their workspace type.',
  },
  {
    code: 'approvals',
    category: 'Provisioning',
    description: 'Approval requests and the decisions approvers made on them.',
  },
  {
    code: 'catalog',
    category: 'Catalog',
    description: 'Templates saved and permanent membership changed.',
  },
  {
    code: 'teams',
    category: 'Teams',
    description: 'Teams updated, archived, unarchived and deleted; members, channels and tabs added.',
  },
  {
    code: 'lifecycle',
    category: 'Teams',
    description:
      'Lifecycle decisions: renewal notices, renewals, expiry, inactivity, ownerless teams, guest reviews due, permanent owners restored.',
  },
  { code: 'metadata', category: 'Governance data', description: 'Team metadata written.' },
  {
    code: 'webhooks',
    category: 'Integrations',
    description: 'Webhooks created and deleted, deliveries that failed, hooks turned inactive.',
  },
  {
    code: 'security',
    category: 'Security',
    description: 'Calls refused for a missing or bad token (401) or a missing permission (403).',
  },
] as const;

export type AuditTrailCode = (typeof AUDIT_TRAILS)[number]['code'];

export function isAuditTrailCode(code: string): code is AuditTrailCode {
  return AUDIT_TRAILS.some((trail) => trail.code === code);
}

/** Who did it: a person, an app, Steward itself (its job workers), or an unidentified caller. */
export interface AuditActor {
  id: string;
  type: 'user' | 'app' | 'system' | 'anonymous';
  displayName?: string;
}

/** What an action was done to. */
export interface AuditTarget {
  type: string;
  id: string;
  displayName?: string;
}

/** One thing to record. `success` for changes; `failure` for jobs and deliveries that failed; `denied` for refusals (401, 403, a request Steward cannot serve). */
export interface AuditEntry {
  trail: AuditTrailCode;
  action: string;
  actor: AuditActor;
  target: AuditTarget;
  outcome: 'success' | 'failure' | 'denied';
  requestId: string | null;
  details?: Record<string, unknown>;
}

/** A stored audit record, with its position in the trail's order. */
export interface StoredAuditRecord {
  seq: number;
  id: string;
  trail: string;
  date: string;
  tenantId: string;
  actor: AuditActor;
  action: string;
  target: AuditTarget;
  outcome: string;
  requestId: string | null;
  details: Record<string, unknown> | null;
}

/** Steward acting on its own (job workers, webhook deliveries). */
export const SYSTEM_ACTOR: AuditActor = { id: 'steward', type: 'system', displayName: 'Steward' };

/** The actor an authenticated caller is. */
export function actorOf(caller: Pick<Caller, 'id' | 'kind' | 'name'>): AuditActor {
  return {
    id: caller.id,
    type: caller.kind,
    ...(caller.name ? { displayName: caller.name } : {}),
  };
}

/** A record of something `caller` did: their actor and request id, `success` unless `outcome` says otherwise. */
export function callerRecord(
  caller: Pick<Caller, 'id' | 'kind' | 'name' | 'requestId'>,
  entry: Omit<AuditEntry, 'actor' | 'requestId' | 'outcome'> & { outcome?: AuditEntry['outcome'] },
): AuditEntry {
  return { outcome: 'success', ...entry, actor: actorOf(caller), requestId: caller.requestId ?? null };
}
