import type { CatalogTemplate, DriftDifference } from '../../contract';
import type { DriftComparer, TeamFact, TeamState } from './teamState';
import { channelFiles, channels, tabs } from './structureComparers';
import { label, people, visibility } from './peopleComparers';
import { apps, planBuckets, tags } from './toolComparers';
import { settings } from './settingComparers';

export type { DriftComparer, TeamFact, TeamState } from './teamState';
export { channelKey, channelsWithItems, tabChannels } from './structureComparers';
export { bucketKey, planTitle } from './toolComparers';
export { settingChange } from './settingComparers';

/**
 * Drift: what a template asks for that a team lacks or contradicts. One comparer per kind of
 * template part, in `DRIFT_COMPARERS`; a new kind of part (a folder, a plan bucket, a setting)
 * plugs in with its kind in `contract/drift.ts`, a comparer in the `*Comparers.ts` file of its
 * family (listed here) and an applier in `services/drift/appliers.ts`. Comparers look only at
 * what the template names: a channel the owners added, a tab they pinned, a person they invited
 * are theirs, and never a difference.
 */

/** Every kind of template part drift compares, in the order differences are listed and applied. */
export const DRIFT_COMPARERS: readonly DriftComparer[] = [
  channels,
  channelFiles,
  tabs,
  people('owners'),
  people('members'),
  label,
  visibility,
  planBuckets,
  tags,
  apps,
  settings,
];

/** The comparers with something to compare in `template`, and the facts they need read. */
export function comparersFor(
  template: CatalogTemplate,
  comparers: readonly DriftComparer[] = DRIFT_COMPARERS,
): { comparers: DriftComparer[]; reads: Set<TeamFact> } {
  const chosen = comparers.filter((c) => c.appliesTo(template));
  return { comparers: chosen, reads: new Set(chosen.flatMap((c) => c.reads)) };
}

/** The team's differences from the template, kind after kind. */
export function compareTeam(
  template: CatalogTemplate,
  team: TeamState,
  comparers: readonly DriftComparer[] = DRIFT_COMPARERS,
): DriftDifference[] {
  return comparers.flatMap((c) => c.compare(template, team));
}

/** How many differences of each kind. */
export function countByKind(differences: readonly DriftDifference[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const d of differences) counts[d.kind] = (counts[d.kind] ?? 0) + 1;
  return counts;
}
