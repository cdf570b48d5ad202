/** Sensitivity labels as people know them. */

/** What naming a label needs of it. */
export interface NamedLabel {
  id: string;
  name: string;
  /** The parent label's id; null for a top-level label. */
  parent: string | null;
}

/** The deepest nesting followed (Microsoft Purview nests labels one level; a loop ends here). */
const MAX_DEPTH = 4;

/**
 * A label's name under its parents', as Microsoft 365 shows a sub-label: "Confidential / All
 * Employees". A sub-label's own name is often shared by several parents ("All Employees" under
 * Confidential and under Highly Confidential), so alone it does not say which label it is. A parent
 * not among `labels` is left out.
 */
export function labelFullName(label: NamedLabel, labels: readonly NamedLabel[]): string {
  const byId = new Map(labels.map((candidate) => [candidate.id, candidate]));
  const names = [label.name];
  let parent = label.parent ? byId.get(label.parent) : undefined;
  while (parent && names.length < MAX_DEPTH) {
    names.unshift(parent.name);
    parent = parent.parent ? byId.get(parent.parent) : undefined;
  }
  return names.join(' / ');
}
