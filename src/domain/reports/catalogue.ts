/**
 * The reports Steward computes from its store, and the categories they are listed under. Pure data:
 * the numbers come from `src/store/reports.ts` and the platform's team inventory when a page is
 * viewed, never from here.
 */

/** A report is a whole dashboard (several charts) or a single question (one chart and its table). */
export type ReportType = 'dashboard' | 'question';

/** The parameters a report URL may carry (`getReportUrl`'s query); each report declares the ones it reads. */
export const REPORT_PARAMETERS = ['from', 'to', 'template_id'] as const;
export type ReportParameter = (typeof REPORT_PARAMETERS)[number];

/** The values of a report's parameters: `from` / `to` are ISO dates (inclusive), `template_id` a template. */
export type ReportParameters = Partial<Record<ReportParameter, string>>;

/** A heading reports are grouped under. */
export interface ReportCategory {
  id: string;
  title: string;
  description: string;
}

/** One report of the catalogue. */
export interface ReportDefinition {
  id: string;
  type: ReportType;
  title: string;
  description: string;
  /** A small picture for lists (an SVG data URI, so it works offline). */
  logo: string;
  parameters: readonly ReportParameter[];
  categoryId: string;
  /**
   * The Metabase dashboard or question id this report maps to in Metabase mode, unless
   * `METABASE_RESOURCE_IDS` says otherwise: 1, 2, … in catalogue order, as when the bundled
   * definitions are imported into an empty Metabase.
   */
  metabaseId: number;
}

export const REPORT_CATEGORIES: readonly ReportCategory[] = [
  {
    id: 'provisioning',
    title: 'Provisioning',
    description: 'How many teams are created, from which templates, and how long requests take.',
  },
  {
    id: 'approvals',
    title: 'Approvals',
    description: 'What approvers decide on requests for templates that need approval.',
  },
  {
    id: 'lifecycle',
    title: 'Team lifecycle',
    description:
      'Expiring, expired, inactive and ownerless teams, overdue guest reviews and renewals; archived teams, and teams at risk because they have fewer than two owners.',
  },
  {
    id: 'adoption',
    title: 'Adoption',
    description: 'Who uses self-service provisioning the most.',
  },
];

const RANGE = ['from', 'to'] as const;
const RANGE_AND_TEMPLATE = ['from', 'to', 'template_id'] as const;

export const REPORTS: readonly ReportDefinition[] = [
  {
    id: 'governance-overview',
    type: 'dashboard',
    title: 'Governance overview',
    description: 'Teams created per month, approval outcomes, archived and orphaned teams at a glance.',
    logo: logo('GOV', '#5B5FC7'),
    parameters: RANGE,
    categoryId: 'provisioning',
    metabaseId: 1,
  },
  {
    id: 'teams-created',
    type: 'dashboard',
    title: 'Teams created per template and month',
    description: 'Completed provisioning requests, by the month the team was created and by template.',
    logo: logo('NEW', '#0078D4'),
    parameters: RANGE_AND_TEMPLATE,
    categoryId: 'provisioning',
    metabaseId: 2,
  },
  {
    id: 'provisioning-lead-time',
    type: 'question',
    title: 'Provisioning lead time',
    description:
      'Time from request to completed team per template, and how much of it was spent waiting for approval.',
    logo: logo('TIME', '#008272'),
    parameters: RANGE_AND_TEMPLATE,
    categoryId: 'provisioning',
    metabaseId: 3,
  },
  {
    id: 'approval-outcomes',
    type: 'question',
    title: 'Approval outcomes per template',
    description: 'Approved, rejected and pending approval requests for each template.',
    logo: logo('APR', '#8764B8'),
    parameters: RANGE_AND_TEMPLATE,
    categoryId: 'approvals',
    metabaseId: 4,
  },
  {
    id: 'archived-teams',
    type: 'question',
    title: 'Archived teams',
    description: 'Every archived team of the tenant.',
    logo: logo('ARC', '#69797E'),
    parameters: [],
    categoryId: 'lifecycle',
    metabaseId: 5,
  },
  {
    id: 'orphaned-teams',
    type: 'question',
    title: 'Orphaned teams',
    description: 'Teams with fewer than two owners: one departure away from nobody managing them.',
    logo: logo('OWN', '#D13438'),
    parameters: [],
    categoryId: 'lifecycle',
    metabaseId: 6,
  },
  {
    id: 'top-requesters',
    type: 'question',
    title: 'Top requesters',
    description: 'The people who requested the most teams, with how their requests ended.',
    logo: logo('TOP', '#CA5010'),
    parameters: RANGE,
    categoryId: 'adoption',
    metabaseId: 7,
  },
  {
    id: 'lifecycle-overview',
    type: 'dashboard',
    title: 'Lifecycle governance',
    description:
      'Teams expiring in the next 30 days, expired, inactive and short of owners, guest reviews overdue ' +
      "(as of each team's last lifecycle evaluation), and renewals per month (`from` and `to` apply to these).",
    logo: logo('LIFE', '#498205'),
    parameters: RANGE,
    categoryId: 'lifecycle',
    metabaseId: 8,
  },
];

/** The report with this type and id, if the catalogue has it. */
export function findReport(type: ReportType, id: string): ReportDefinition | undefined {
  return REPORTS.find((report) => report.type === type && report.id === id);
}

/** A square badge with a short caption, as an SVG data URI (captions are constants above). */
function logo(caption: string, color: string): string {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">' +
    `<rect width="64" height="64" rx="12" fill="${color}"/>` +
    '<text x="32" y="39" font-family="Segoe UI,Arial,sans-serif" font-size="17" font-weight="600" ' +
    `fill="#FFFFFF" text-anchor="middle">${caption}</text></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}
