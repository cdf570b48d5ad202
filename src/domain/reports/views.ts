import { formatDuration } from './charts';
import type {
  MissingLabels,
  ApprovalOutcomeRow,
  ApprovalWaitRow,
  LeadTimeRow,
  ReportSection,
  ReportView,
  RequesterRow,
  TeamInventoryItem,
  TemplateMonthCount,
} from './model';
import { duration, sum } from './cells';

export { archivedTeamsView, orphanedTeamsView } from './inventoryViews';

/**
 * What each report shows, built from the numbers the store and the platform computed: key figures,
 * and sections of a chart with the table it draws. Pure functions, so a page's numbers are exactly
 * the rows they were given.
 */

/** Teams created per template and month: stacked columns by month, one series per template. */
export function teamsCreatedView(rows: TemplateMonthCount[]): ReportView {
  const months = [...new Set(rows.map((r) => r.month))].sort();
  const templates = [...new Map(rows.map((r) => [r.templateId, r.templateName])).entries()].sort((a, b) =>
    a[1].localeCompare(b[1]),
  );
  const count = (templateId: string, month: string) =>
    rows.find((r) => r.templateId === templateId && r.month === month)?.count ?? 0;
  return {
    figures: [
      { id: 'teams-created', label: 'Teams created', value: sum(rows.map((r) => r.count)) },
      { id: 'templates-used', label: 'Templates used', value: templates.length },
    ],
    sections: [
      {
        title: 'Teams created per month, by template',
        chart: {
          kind: 'stacked',
          title: 'Teams created per month, by template',
          categories: months,
          series: templates.map(([id, name]) => ({ name, values: months.map((m) => count(id, m)) })),
        },
        table: {
          id: 'teams-created',
          columns: ['Month', 'Template', 'Template id', 'Teams created'],
          rows: [...rows]
            .sort((a, b) => a.month.localeCompare(b.month) || a.templateName.localeCompare(b.templateName))
            .map((r) => [r.month, r.templateName, r.templateId, r.count]),
        },
      },
    ],
  };
}

/** Request → completed lead time per template, with the part spent waiting for approval. */
export function leadTimeView(lead: LeadTimeRow[], waits: ApprovalWaitRow[]): ReportView {
  const completed = sum(lead.map((r) => r.completed));
  const decided = sum(waits.map((r) => r.decided));
  const weighted = (rows: Array<{ avgSeconds: number }>, weight: (i: number) => number, total: number) =>
    total > 0 ? sum(rows.map((r, i) => r.avgSeconds * weight(i))) / total : 0;
  return {
    figures: [
      { id: 'completed', label: 'Completed requests', value: completed },
      {
        id: 'average-lead-time',
        label: 'Average lead time',
        value: duration(weighted(lead, (i) => lead[i]!.completed, completed)),
      },
      { id: 'approvals-decided', label: 'Approvals decided', value: decided },
      {
        id: 'average-approval-wait',
        label: 'Average wait for approval',
        value: duration(weighted(waits, (i) => waits[i]!.decided, decided)),
      },
    ],
    sections: [
      {
        title: 'Average lead time per template (request → completed)',
        chart: {
          kind: 'bars',
          title: 'Average lead time per template',
          bars: lead.map((r) => ({ label: r.templateName, value: r.avgSeconds })),
          format: formatDuration,
        },
        table: {
          id: 'lead-time',
          columns: ['Template', 'Template id', 'Completed', 'Average', 'Fastest', 'Slowest'],
          rows: lead.map((r) => [
            r.templateName,
            r.templateId,
            r.completed,
            duration(r.avgSeconds),
            duration(r.minSeconds),
            duration(r.maxSeconds),
          ]),
        },
      },
      {
        title: 'Time waiting for approval per template (requested → decided)',
        chart: {
          kind: 'bars',
          title: 'Average wait for approval per template',
          bars: waits.map((r) => ({ label: r.templateName, value: r.avgSeconds })),
          format: formatDuration,
        },
        table: {
          id: 'approval-wait',
          columns: ['Template', 'Template id', 'Decided', 'Average wait', 'Longest wait'],
          rows: waits.map((r) => [
            r.templateName,
            r.templateId,
            r.decided,
            duration(r.avgSeconds),
            duration(r.maxSeconds),
          ]),
        },
      },
    ],
  };
}

/** Approved, rejected and pending approval requests per template. */
export function approvalOutcomesView(rows: ApprovalOutcomeRow[]): ReportView {
  return {
    figures: [
      { id: 'approved', label: 'Approved', value: sum(rows.map((r) => r.approved)) },
      { id: 'rejected', label: 'Rejected', value: sum(rows.map((r) => r.rejected)) },
      { id: 'pending', label: 'Pending', value: sum(rows.map((r) => r.pending)) },
    ],
    sections: [approvalOutcomesSection(rows)],
  };
}

function approvalOutcomesSection(rows: ApprovalOutcomeRow[]): ReportSection {
  return {
    title: 'Approval outcomes per template',
    chart: {
      kind: 'stacked',
      title: 'Approval outcomes per template',
      categories: rows.map((r) => r.templateName),
      series: [
        { name: 'Approved', values: rows.map((r) => r.approved) },
        { name: 'Rejected', values: rows.map((r) => r.rejected) },
        { name: 'Pending', values: rows.map((r) => r.pending) },
      ],
    },
    table: {
      id: 'approval-outcomes',
      columns: ['Template', 'Template id', 'Approved', 'Rejected', 'Pending'],
      rows: rows.map((r) => [r.templateName, r.templateId, r.approved, r.rejected, r.pending]),
    },
  };
}

/** The people who requested the most teams. */
export function topRequestersView(rows: RequesterRow[]): ReportView {
  return {
    figures: [
      { id: 'requesters', label: 'Requesters listed', value: rows.length },
      { id: 'requests', label: 'Their requests', value: sum(rows.map((r) => r.requested)) },
    ],
    sections: [
      {
        title: 'Top requesters',
        chart: {
          kind: 'bars',
          title: 'Provisioning requests per person',
          bars: rows.map((r) => ({ label: r.displayName, value: r.requested })),
        },
        table: {
          id: 'top-requesters',
          columns: ['Person', 'Object id', 'Requested', 'Completed', 'Failed or rejected', 'Open'],
          rows: rows.map((r) => [r.displayName, r.requesterId, r.requested, r.completed, r.failed, r.open]),
        },
      },
    ],
  };
}

/** The governance dashboard: creation per month, approval outcomes and team lifecycle together. */
export function overviewView(
  created: TemplateMonthCount[],
  outcomes: ApprovalOutcomeRow[],
  inventory: TeamInventoryItem[],
  missingLabels: MissingLabels = { rows: [], total: 0 },
): ReportView {
  const months = [...new Set(created.map((r) => r.month))].sort();
  const perMonth = months.map((m) => ({
    label: m,
    value: sum(created.filter((r) => r.month === m).map((r) => r.count)),
  }));
  const archived = inventory.filter((t) => t.isArchived).length;
  const orphaned = inventory.filter((t) => t.ownerCount < 2).length;
  const lifecycle = [
    { label: 'Teams', value: inventory.length },
    { label: 'Archived', value: archived },
    { label: 'Fewer than two owners', value: orphaned },
  ];
  return {
    figures: [
      { id: 'teams-created', label: 'Teams created', value: sum(perMonth.map((m) => m.value)) },
      { id: 'approved', label: 'Approved', value: sum(outcomes.map((r) => r.approved)) },
      { id: 'rejected', label: 'Rejected', value: sum(outcomes.map((r) => r.rejected)) },
      { id: 'pending', label: 'Pending approval', value: sum(outcomes.map((r) => r.pending)) },
      { id: 'archived', label: 'Archived teams', value: archived },
      { id: 'orphaned', label: 'Teams with fewer than two owners', value: orphaned },
      {
        id: 'missing-labels',
        label: "Teams without their template's sensitivity label",
        value: missingLabels.total,
      },
    ],
    sections: [
      {
        title: 'Teams created per month',
        chart: { kind: 'bars', title: 'Teams created per month', bars: perMonth },
        table: {
          id: 'created-per-month',
          columns: ['Month', 'Teams created'],
          rows: perMonth.map((m) => [m.label, m.value]),
        },
      },
      approvalOutcomesSection(outcomes),
      {
        title: 'Team lifecycle',
        chart: { kind: 'bars', title: 'Team lifecycle', bars: lifecycle },
        table: {
          id: 'lifecycle',
          columns: ['Measure', 'Teams'],
          rows: lifecycle.map((l) => [l.label, l.value]),
        },
      },
      {
        title: "Teams without their template's sensitivity label",
        table: {
          id: 'missing-labels',
          columns: ['Team', 'Team id', 'Template', 'Label', 'Since', 'Why'],
          rows: missingLabels.rows.map((t) => [
            t.display_name,
            t.team_id,
            t.template_id,
            t.label_id,
            t.updated_at.slice(0, 10),
            t.reason ?? '',
          ]),
        },
      },
    ],
  };
}
