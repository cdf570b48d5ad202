import type { LifecycleDashboardRows, LifecycleTeamRow, ReportSection, ReportView } from './model';

/** The lists of the lifecycle dashboard: their table id, title and the column their date goes in. */
const LISTS = [
  { key: 'expiringSoon', id: 'expiring-soon', title: 'Expiring in the next 30 days', date: 'Expires on' },
  { key: 'expired', id: 'expired', title: 'Expired, not renewed', date: 'Expired on' },
  { key: 'inactive', id: 'inactive', title: 'Inactive', date: 'Inactive since' },
  { key: 'ownerless', id: 'ownerless', title: 'Short of owners', date: 'Since' },
  { key: 'guestReviewsOverdue', id: 'guest-reviews-overdue', title: 'Guest reviews overdue', date: 'Due on' },
] as const;

/**
 * The lifecycle dashboard: how many teams are expiring within 30 days, expired, inactive, short of
 * owners and overdue for a guest review (as of each team's last evaluation, archived teams aside),
 * the first teams of each by date, and renewals per month from the audit trail.
 */
export function lifecycleView(rows: LifecycleDashboardRows, listed: number): ReportView {
  const renewals = rows.renewalsPerMonth.reduce((sum, m) => sum + m.count, 0);
  const standing = LISTS.map((list) => ({ label: list.title, value: rows[list.key].count }));
  return {
    figures: [
      { id: 'teams-evaluated', label: 'Teams evaluated, not archived', value: rows.teamsEvaluated },
      ...LISTS.map((list) => ({ id: list.id, label: list.title, value: rows[list.key].count })),
      { id: 'renewals', label: 'Renewals', value: renewals },
    ],
    sections: [
      {
        title: `Where teams stand on ${rows.today}`,
        chart: { kind: 'bars', title: 'Teams needing attention', bars: standing },
        table: {
          id: 'lifecycle-standing',
          columns: ['Measure', 'Teams'],
          rows: standing.map((s) => [s.label, s.value]),
        },
      },
      ...LISTS.map((list) => teamList(list, rows[list.key], listed)),
      {
        title: 'Renewals per month',
        chart: {
          kind: 'bars',
          title: 'Renewals per month',
          bars: rows.renewalsPerMonth.map((m) => ({ label: m.month, value: m.count })),
        },
        table: {
          id: 'renewals-per-month',
          columns: ['Month', 'Renewals'],
          rows: rows.renewalsPerMonth.map((m) => [m.month, m.count]),
        },
      },
    ],
  };
}

function teamList(
  list: (typeof LISTS)[number],
  section: { count: number; teams: LifecycleTeamRow[] },
  listed: number,
): ReportSection {
  const more = section.count > section.teams.length;
  return {
    title: more ? `${list.title}: the first ${listed} of ${section.count}, by date` : list.title,
    table: {
      id: list.id,
      columns: ['Team', 'Team id', list.date],
      rows: section.teams.map((t) => [t.displayName, t.teamId, t.on]),
    },
  };
}
