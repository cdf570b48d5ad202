/**
 * The tables, as Kysely sees them. Booleans are integers (0/1) and JSON is text on both
 * databases, so one query works on SQLite and PostgreSQL alike.
 */
export interface Database {
  steward_meta: { key: string; value: string };
  directory_users: DirectoryUserRow;
  directory_groups: DirectoryGroupRow;
  directory_group_members: { group_id: string; user_id: string };
  directory_labels: DirectoryLabelRow;
  directory_apps: { id: string; display_name: string; app_roles: string };
  catalog_templates: CatalogTemplateRow;
  rate_limits: { key: string; points: number; expire: number | null };
}

export interface DirectoryUserRow {
  id: string;
  display_name: string;
  given_name: string | null;
  surname: string | null;
  mail: string | null;
  user_principal_name: string;
  job_title: string | null;
  department: string | null;
  company_name: string | null;
  country: string | null;
  city: string | null;
  usage_location: string | null;
  preferred_language: string | null;
  /** JSON array of app roles minted into this person's tokens in embedded mode. */
  app_roles: string;
  /** Lower-cased copies for prefix search and case-insensitive look-ups. */
  display_name_lower: string;
  given_name_lower: string;
  surname_lower: string;
  mail_lower: string;
  upn_lower: string;
}

export interface DirectoryGroupRow {
  id: string;
  display_name: string;
  description: string;
  mail_nickname: string;
}

export interface DirectoryLabelRow {
  id: string;
  name: string;
  description: string;
  color: string;
  sensitivity: number;
  tooltip: string;
  is_active: number;
  parent_id: string | null;
  /** JSON array of group ids allowed to apply the label, or null for everyone. */
  scope_group_ids: string | null;
  sort_order: number;
}

export interface CatalogTemplateRow {
  id: string;
  name: string;
  enabled: number;
  /** The whole CatalogTemplate as JSON (defaults applied, flags as booleans). */
  document: string;
  revision: number;
  created_at: string;
  updated_at: string;
}
