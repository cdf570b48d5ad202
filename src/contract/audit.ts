import { z } from 'zod';
import { model, odataCollection } from './registry';

/** The fields every audit record carries on the wire. */
export const AUDIT_RECORD_FIELDS = [
  'id',
  'date',
  'tenant',
  'actor',
  'action',
  'target',
  'outcome',
  'request-id',
  'details',
] as const;

export const AuditTrail = model(
  'AuditTrail',
  z.object({
    code: z.string().describe('The trail’s code, as used in `/audit_trails/{code}/records`.'),
    category: z.string(),
    description: z.string().optional(),
    fields: z.array(z.string()).describe('The fields each record of the trail carries.'),
  }),
);
export const AuditTrails = model('AuditTrails', odataCollection(AuditTrail));
export type AuditTrails = z.output<typeof AuditTrails>;

export const AuditTrailRecord = model(
  'AuditTrailRecord',
  z.object({
    id: z.string(),
    date: z.string().describe('When it happened (ISO 8601, UTC).'),
    tenant: z.object({ id: z.string() }),
    actor: z.object({
      id: z.string().describe('Object id of the user or app; `steward` for Steward’s own workers.'),
      type: z.enum(['user', 'app', 'system', 'anonymous']),
      displayName: z.string().optional(),
    }),
    action: z.string().describe('What was done, e.g. `template_saved`, `team_archived`, `access_denied`.'),
    target: z.object({ type: z.string(), id: z.string(), displayName: z.string().optional() }),
    outcome: z.enum(['success', 'failure', 'denied']),
    'request-id': z.string().nullable().describe('The API request that made the change; null for jobs.'),
    details: z.record(z.string(), z.unknown()).nullable(),
  }),
);
export type AuditTrailRecord = z.output<typeof AuditTrailRecord>;
export const AuditTrailRecords = model('AuditTrailRecords', odataCollection(AuditTrailRecord));

/** Checked at load: the wire model and the fields a trail announces stay the same list. */
const declared = Object.keys(AuditTrailRecord.shape).sort().join();
if (declared !== [...AUDIT_RECORD_FIELDS].sort().join()) {
  throw new Error('AuditTrailRecord and AUDIT_RECORD_FIELDS disagree');
}
