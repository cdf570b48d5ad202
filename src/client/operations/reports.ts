import type { Report, ReportsCategory, ReportUrl } from '../models';
import type { CallOptions } from '../options';
import { apiPath } from '../url';
import { bodyOf, type Send } from './send';

/** Governance reports. */
export function reportOperations(send: Send) {
  return {
    /** Lists the reports (`GET /reports`). */
    async getReports(options?: CallOptions): Promise<Report[]> {
      return bodyOf(send, { operationId: 'getReports', method: 'GET', path: '/reports' }, options);
    },

    /** Lists the categories of reports (`GET /reports/categories`). */
    async getReportsCategories(options?: CallOptions): Promise<ReportsCategory[]> {
      const path = '/reports/categories';
      return bodyOf(send, { operationId: 'getReportsCategories', method: 'GET', path }, options);
    },

    /** Where a report can be seen (`GET /reports/{resource_type}/{resource_id}`). */
    async getReportUrl(
      resourceType: Report['type'],
      resourceId: string,
      options?: CallOptions,
    ): Promise<ReportUrl> {
      const path = apiPath('/reports/{resource_type}/{resource_id}', {
        resource_type: resourceType,
        resource_id: resourceId,
      });
      return bodyOf(send, { operationId: 'getReportUrl', method: 'GET', path }, options);
    },
  };
}

/** The report operations of the client. */
export type ReportOperations = ReturnType<typeof reportOperations>;
