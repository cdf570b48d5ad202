import type { ReportView, TeamInventoryItem } from './model';

/** The views of the teams as the platform lists them: archived ones, and those short of owners. */

/** Archived teams, listed, against the active ones. */
export function archivedTeamsView(inventory: TeamInventoryItem[]): ReportView {
  const archived = inventory.filter((t) => t.isArchived);
  return {
    figures: [
      { id: 'teams', label: 'Teams', value: inventory.length },
      { id: 'archived', label: 'Archived', value: archived.length },
    ],
    sections: [
      {
        title: 'Archived and active teams',
        chart: {
          kind: 'bars',
          title: 'Archived and active teams',
          bars: [
            { label: 'Active', value: inventory.length - archived.length },
            { label: 'Archived', value: archived.length },
          ],
        },
        table: {
          id: 'archived-teams',
          columns: ['Team', 'Team id', 'Created', 'Owners'],
          rows: archived.map((t) => [t.displayName, t.id, t.createdDateTime, t.ownerCount]),
        },
      },
    ],
  };
}

/** Teams with fewer than two owners, by how many they have. */
export function orphanedTeamsView(inventory: TeamInventoryItem[]): ReportView {
  const orphaned = inventory.filter((t) => t.ownerCount < 2);
  const withOwners = (n: number) => orphaned.filter((t) => t.ownerCount === n).length;
  return {
    figures: [
      { id: 'teams', label: 'Teams', value: inventory.length },
      { id: 'orphaned', label: 'Fewer than two owners', value: orphaned.length },
      { id: 'no-owner', label: 'No owner at all', value: withOwners(0) },
    ],
    sections: [
      {
        title: 'Teams with fewer than two owners',
        chart: {
          kind: 'bars',
          title: 'Teams by number of owners (fewer than two)',
          bars: [
            { label: 'No owner', value: withOwners(0) },
            { label: 'One owner', value: withOwners(1) },
          ],
        },
        table: {
          id: 'orphaned-teams',
          columns: ['Team', 'Team id', 'Owners', 'Archived'],
          rows: orphaned.map((t) => [t.displayName, t.id, t.ownerCount, t.isArchived ? 'yes' : 'no']),
        },
      },
    ],
  };
}
