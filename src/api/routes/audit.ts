import { z } from 'zod';
import { AUDIT_RECORD_FIELDS } from '../../contract/audit';
import { AuditTrailRecords, AuditTrails } from '../../contract';
import type { AuditLog } from '../../services/audit/audit';
import type { StoredAuditRecord } from '../../domain/audit';
import { odataCollection } from '../odata';
import { API_BASE, defineRoute, type Route } from '../route';

const DEFAULT_PAGE = 100;
const dateTime = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()])
  .transform((value) => new Date(value))
  .refine((date) => !Number.isNaN(date.getTime()), 'Not a valid date.');

const RecordsQuery = z.strictObject({
  $top: z.coerce.number().int().min(1).max(1000).default(DEFAULT_PAGE).describe('Page size (1–1000).'),
  $skiptoken: z.string().max(200).optional().describe('The token of the next page, from `@odata.nextLink`.'),
  from: dateTime.optional().describe('Only records at or after this date / date-time (ISO 8601).'),
  to: dateTime.optional().describe('Only records before this date / date-time (ISO 8601).'),
});

function toWire(record: StoredAuditRecord) {
  return {
    id: record.id,
    date: record.date,
    tenant: { id: record.tenantId },
    actor: record.actor,
    action: record.action,
    target: record.target,
    outcome: record.outcome,
    'request-id': record.requestId,
    details: record.details,
  };
}

/** The audit trails and their records, newest first. */
export function auditRoutes(audit: AuditLog): Route[] {
  return [
    defineRoute({
      operationId: 'getAuditTrails',
      method: 'get',
      path: '/audit_trails/events',
      tag: 'Audit',
      summary: 'List the audit trails and the fields their records carry',
      responses: { 200: { description: 'The trails.', schema: AuditTrails } },
      handle: async ({ baseUrl }) => ({
        status: 200,
        body: odataCollection(
          baseUrl,
          'auditTrails',
          audit.trails().map((trail) => ({ ...trail, fields: [...AUDIT_RECORD_FIELDS] })),
        ),
      }),
    }),
    defineRoute({
      operationId: 'getAuditTrailRecords',
      method: 'get',
      path: '/audit_trails/{code}/records',
      tag: 'Audit',
      summary: 'Page through the records of an audit trail, newest first',
      params: z.object({
        code: z
          .string()
          .regex(/^[a-z][a-z0-9_]{0,63}$/, 'A trail code: lower-case letters, digits and underscores.')
          .describe('The trail’s code, from `/audit_trails/events`.'),
      }),
      query: RecordsQuery,
      responses: { 200: { description: 'A page of records.', schema: AuditTrailRecords } },
      handle: async ({ params, query, baseUrl }) => {
        const page = await audit.records(params.code, {
          top: query.$top,
          skiptoken: query.$skiptoken,
          from: query.from,
          to: query.to,
        });
        let nextLink: string | undefined;
        if (page.next) {
          // Written out by hand so the link keeps OData's `$` names readable (the values need no escaping).
          let next = `$top=${query.$top}&$skiptoken=${page.next}`;
          if (query.from) next += `&from=${query.from.toISOString()}`;
          if (query.to) next += `&to=${query.to.toISOString()}`;
          nextLink = `${baseUrl}${API_BASE}/audit_trails/${encodeURIComponent(params.code)}/records?${next}`;
        }
        return {
          status: 200,
          body: odataCollection(baseUrl, 'auditTrailRecords', page.records.map(toWire), {
            count: page.total,
            nextLink,
          }),
        };
      },
    }),
  ];
}
