import { z } from 'zod';
import { model } from './registry';

export const ReportsCategory = model(
  'ReportsCategory',
  z.object({
    id: z.string().describe('The category id, as in a Report’s `category_id`.'),
    title: z.string(),
    description: z.string(),
  }),
  'A heading reports are listed under.',
);
export type ReportsCategory = z.output<typeof ReportsCategory>;

export const Report = model(
  'Report',
  z.object({
    id: z.string().describe('The report id, as in `/reports/{resource_type}/{resource_id}`.'),
    type: z.enum(['dashboard', 'question']).describe('A dashboard (several charts) or a question (one).'),
    title: z.string(),
    description: z.string(),
    logo: z.string().describe('A small picture for lists (an image URL or data URI).'),
    parameters: z
      .array(z.string())
      .describe('The query parameters `getReportUrl` accepts for this report (`from`, `to`, `template_id`).'),
    category_id: z.string(),
  }),
  'A report computed from Steward’s store.',
);
export type Report = z.output<typeof Report>;

export const ReportUrl = model(
  'ReportUrl',
  z.object({
    url: z
      .string()
      .describe(
        'Where to view the report: a signed Steward page valid for 10 minutes, or a Metabase signed embedding URL.',
      ),
  }),
  'A short-lived link to a report.',
);
export type ReportUrl = z.output<typeof ReportUrl>;
