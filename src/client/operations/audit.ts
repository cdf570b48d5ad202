import type { AuditTrailRecords, AuditTrails } from '../models';
import type { CallOptions } from '../options';
import { apiPath } from '../url';
import { bodyOf, type Send } from './send';

/** Which page of an audit trail's records to read. */
export interface AuditTrailRecordsQuery {
  /** Page size, 1–1000 (server default 100). */
  top?: number;
  /** The token of the next page (from `@odata.nextLink`; `nextPage` follows it for you). */
  skiptoken?: string;
  /** Only records at or after this instant (a `Date` or an ISO 8601 date / date-time). */
  from?: Date | string;
  /** Only records before this instant. */
  to?: Date | string;
}

/** The audit trails and their records. */
export function auditOperations(send: Send) {
  return {
    /** Lists the audit trails and the fields their records carry (`GET /audit_trails/events`). */
    async getAuditTrails(options?: CallOptions): Promise<AuditTrails> {
      const path = '/audit_trails/events';
      return bodyOf(send, { operationId: 'getAuditTrails', method: 'GET', path }, options);
    },

    /** Reads a page of a trail's records, newest first (`GET /audit_trails/{code}/records`). */
    async getAuditTrailRecords(
      code: string,
      query: AuditTrailRecordsQuery = {},
      options?: CallOptions,
    ): Promise<AuditTrailRecords> {
      const path = apiPath(
        '/audit_trails/{code}/records',
        { code },
        { $top: query.top, $skiptoken: query.skiptoken, from: query.from, to: query.to },
      );
      return bodyOf(send, { operationId: 'getAuditTrailRecords', method: 'GET', path }, options);
    },
  };
}

/** The audit operations of the client. */
export type AuditOperations = ReturnType<typeof auditOperations>;
