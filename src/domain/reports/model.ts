import { formatNumber, type ChartSpec } from './charts';

/**
 * The data the reports are computed from (rows the store and the platform produce) and the view
 * model of a report page (figures, and sections of a chart with its table).
 */

/** One team of the tenant as the lifecycle reports see it. */
export interface TeamInventoryItem {
  id: string;
  displayName: string;
  isArchived: boolean;
  /** Members with the owner role. */
  ownerCount: number;
  createdDateTime: string;
}

/** Teams made without their template's sensitivity label: the first ones listed, and how many in all. */
export interface MissingLabels {
  rows: ReadonlyArray<{
    team_id: string;
    display_name: string;
    template_id: string;
    label_id: string;
    reason: string | null;
    updated_at: string;
  }>;
  total: number;
}

/** Teams created from one template in one month (`YYYY-MM`). */
export interface TemplateMonthCount {
  templateId: string;
  templateName: string;
  month: string;
  count: number;
}

/** Request → completed durations of one template's completed provisioning jobs, in seconds. */
export interface LeadTimeRow {
  templateId: string;
  templateName: string;
  completed: number;
  avgSeconds: number;
  minSeconds: number;
  maxSeconds: number;
}

/** Time approval requests of one template waited for their decision, in seconds. */
export interface ApprovalWaitRow {
  templateId: string;
  templateName: string;
  decided: number;
  avgSeconds: number;
  maxSeconds: number;
}

/** Decisions on one template's approval requests. */
export interface ApprovalOutcomeRow {
  templateId: string;
  templateName: string;
  approved: number;
  rejected: number;
  pending: number;
}

/** One person's provisioning requests and how they ended. */
export interface RequesterRow {
  requesterId: string;
  displayName: string;
  requested: number;
  completed: number;
  failed: number;
  /** Waiting for approval, queued or running. */
  open: number;
}

/** A table cell: text, a number, or a formatted measure with its exact value (`data-value`). */
export type Cell = string | number | { text: string; value: number };

/** A table, identified on the page by `data-table="<id>"`. */
export interface ReportTable {
  id: string;
  columns: string[];
  rows: Cell[][];
}

/** A chart and the table of the numbers it draws. */
export interface ReportSection {
  title: string;
  chart?: ChartSpec;
  table: ReportTable;
}

/** Everything a report page shows below its title. */
export interface ReportView {
  /** Headline numbers, identified on the page by `data-figure="<id>"`. */
  figures: Array<{ id: string; label: string; value: Cell }>;
  sections: ReportSection[];
}

/** Text of a figure or cell, for places that print it plainly. */
export function cellText(cell: Cell): string {
  return typeof cell === 'object' ? cell.text : typeof cell === 'number' ? formatNumber(cell) : cell;
}

/** A team the lifecycle report lists, with the date that puts it there. */
export interface LifecycleTeamRow {
  teamId: string;
  displayName: string;
  /** Expiry, inactivity, guest review due date, or since when it has been short of owners. */
  on: string;
}

/** What the lifecycle dashboard shows: counts over every team evaluated, the first teams of each, renewals. */
export interface LifecycleDashboardRows {
  today: string;
  teamsEvaluated: number;
  expiringSoon: { count: number; teams: LifecycleTeamRow[] };
  expired: { count: number; teams: LifecycleTeamRow[] };
  inactive: { count: number; teams: LifecycleTeamRow[] };
  ownerless: { count: number; teams: LifecycleTeamRow[] };
  guestReviewsOverdue: { count: number; teams: LifecycleTeamRow[] };
  /** Renewals recorded in the `lifecycle` trail per month (`YYYY-MM`). */
  renewalsPerMonth: Array<{ month: string; count: number }>;
}
