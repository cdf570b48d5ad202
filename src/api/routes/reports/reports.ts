import { z } from 'zod';
import { Report, ReportsCategory, ReportUrl } from '../../../contract';
import type { ReportService } from '../../../services/reports/reports';
import { defineRoute, type Route } from '../../route';

const tag = 'Reports';
const ReportPath = z.object({
  resource_type: z.enum(['dashboard', 'question']).describe('A dashboard or a question.'),
  resource_id: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'A report id is 1–64 lower-case letters, digits or "-".')
    .describe('The report id, from `getReports`.'),
});
const ReportUrlQuery = z.strictObject({
  from: z.iso
    .date()
    .optional()
    .describe('Only data from this day on (YYYY-MM-DD, UTC), for reports that take it.'),
  to: z.iso.date().optional().describe('Only data up to this day, inclusive (YYYY-MM-DD, UTC).'),
  template_id: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'A template id is 1–128 letters, digits, ".", "_" or "-".')
    .optional()
    .describe('Only requests for this template, for reports that take it.'),
});

/** The report catalogue and short-lived URLs to view each report. */
export function reportRoutes(reports: ReportService): Route[] {
  return [
    defineRoute({
      operationId: 'getReports',
      method: 'get',
      path: '/reports',
      tag,
      summary: 'List the reports',
      responses: { 200: { description: 'Every report.', schema: z.array(Report) } },
      handle: async () => ({ status: 200, body: reports.list() }),
    }),
    defineRoute({
      operationId: 'getReportsCategories',
      method: 'get',
      path: '/reports/categories',
      tag,
      summary: 'List the categories reports are grouped under',
      responses: { 200: { description: 'Every category.', schema: z.array(ReportsCategory) } },
      handle: async () => ({ status: 200, body: reports.categories() }),
    }),
    defineRoute({
      operationId: 'getReportUrl',
      method: 'get',
      path: '/reports/{resource_type}/{resource_id}',
      tag,
      summary: 'Get a short-lived URL to view a report',
      description:
        'A page served by Steward (HTML with SVG charts, computed when opened) whose URL is signed for this ' +
        'tenant and report and works for 10 minutes; a tampered or expired URL is 401. With Metabase ' +
        'configured, a Metabase signed embedding URL instead. A parameter the report does not take is 400.',
      params: ReportPath,
      query: ReportUrlQuery,
      responses: { 200: { description: 'The URL.', schema: ReportUrl } },
      handle: async ({ params, query, baseUrl }) => ({
        status: 200,
        body: await reports.url(params.resource_type, params.resource_id, query, baseUrl),
      }),
    }),
  ];
}
