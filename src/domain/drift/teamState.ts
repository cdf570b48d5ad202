import type { CatalogTemplate, DriftDifference, DriftKind, TemplateTeamSettings } from '../../contract';

/** What a comparer may read of the team; the service reads only what the comparers that apply need. */
export type TeamFact = 'channels' | 'tabs' | 'members' | 'label' | 'plan' | 'tags' | 'apps' | 'files';

/** A team as the platform shows it, as far as drift needs it. */
export interface TeamState {
  visibility: 'public' | 'private';
  /** Every channel, General included. */
  channels: ReadonlyArray<{ id: string; displayName: string; membershipType: string }>;
  /** The tabs of the channels the template's tabs name, by the channel's lower-cased name. */
  tabs: ReadonlyMap<string, ReadonlyArray<{ displayName: string; teamsAppId: string }>>;
  members: ReadonlyArray<{ userId: string; displayName: string; owner: boolean }>;
  /** The sensitivity label Steward knows the team has (null: none applied by Steward). */
  labelId: string | null;
  /** Labels' names as people know them ("Confidential / All Employees"), by id, where read. */
  labelNames?: ReadonlyMap<string, string>;
  /**
   * Of the template's channels with folders or files, by key, the paths (lower-cased) of those the
   * channel's files folder has; a channel absent here has none yet (it is missing, or SharePoint is
   * still making its folder).
   */
  items?: ReadonlyMap<string, ReadonlySet<string>>;
  /** The team's name (a template's plan is titled after it when it has no title of its own). */
  displayName?: string;
  /** The template's plan as the team has it (by title), with its buckets' names; null when it has none. */
  plan?: { title: string; buckets: readonly string[] } | null;
  /** The names of the team's tags. */
  tags?: readonly string[];
  /** The catalog ids of the apps installed in the team. */
  apps?: readonly string[];
  /** The team's settings, as the platform shows them. */
  settings?: TemplateTeamSettings;
}

export interface DriftComparer {
  readonly kind: DriftKind;
  /** What it reads of the team. */
  readonly reads: readonly TeamFact[];
  /** True when the template has anything of this kind to compare (else nothing is read for it). */
  appliesTo(template: CatalogTemplate): boolean;
  compare(template: CatalogTemplate, team: TeamState): DriftDifference[];
}
