import type { ColumnType, Generated, Kysely, Transaction } from 'kysely';

/**
 * The tables, as Kysely sees them. Booleans are integers (0/1) and JSON is text on both
 * databases, so one query works on SQLite and PostgreSQL alike (except metadata documents, which
 * PostgreSQL holds as jsonb to index them).
 */
export interface Database {
  steward_meta: { key: string; value: string };
  directory_users: DirectoryUserRow;
  directory_groups: DirectoryGroupRow;
  directory_group_members: { group_id: string; user_id: string };
  directory_labels: DirectoryLabelRow;
  directory_apps: { id: string; display_name: string; app_roles: string };
  catalog_templates: CatalogTemplateRow;
  /** Every saved version of every template (migration 0019). */
  template_versions: TemplateVersionRow;
  /** The template (and its version) each team was made from, and its last drift read (migration 0019). */
  team_templates: TeamTemplateRow;
  /** A caller's budget in its window (`store/rateLimits.ts`); `expire` is bigint (a string from pg). */
  rate_limits: {
    key: string;
    points: number;
    expire: number | string | null;
    holder: string | null;
    last_lease: number | null;
  };
  /** A Graph budget bucket: its theoretical arrival time, ms since the epoch (bigint: a string from pg). */
  graph_budget: { key: string; tat: number | string; interval_ms: number | string };
  platform_teams: PlatformTeamRow;
  platform_channels: PlatformChannelRow;
  platform_tabs: PlatformTabRow;
  platform_channel_items: PlatformChannelItemRow;
  platform_members: { id: string; team_id: string; user_id: string; role: string; created_at: string };
  platform_messages: { id: string; team_id: string; channel_id: string; body: string; created_at: string };
  /** The embedded tenant's plans, tags and installed apps (migration `0021_platform_planner`). */
  platform_plans: { id: string; team_id: string; title: string; created_at: string };
  platform_plan_buckets: {
    id: string;
    team_id: string;
    plan_id: string;
    name: string;
    order_hint: string;
    created_at: string;
  };
  platform_plan_tasks: PlatformPlanTaskRow;
  platform_tags: {
    id: string;
    team_id: string;
    display_name: string;
    description: string | null;
    created_at: string;
  };
  platform_tag_members: { tag_id: string; team_id: string; user_id: string };
  platform_installed_apps: { team_id: string; teams_app_id: string; created_at: string };
  jobs: JobRow;
  /** A provisioning job's delegated grant, sealed (`domain/delegation.ts`); deleted once used or expired. */
  delegated_grants: { job_id: string; user_id: string; sealed: string; expires_at: string };
  /** What became of the sensitivity label of each team made from a template with one. */
  team_labels: TeamLabelRow;
  approvals: ApprovalRow;
  /** `document` is text on SQLite and jsonb on PostgreSQL (read back already parsed). */
  team_metadata: {
    team_id: string;
    namespace: string;
    document: ColumnType<string | Record<string, unknown>, string, string>;
    updated_at: string;
  };
  /** SQLite only: every leaf of every metadata document, for containment queries. */
  team_metadata_values: { team_id: string; namespace: string; path: string; value: string };
  outbox_events: { seq: Generated<number>; id: string; type: string; payload: string; created_at: string };
  audit_records: AuditRecordRow;
  /** Records per trail and UTC day (`YYYY-MM-DD`), split over a few shard rows; see migration 0008. */
  audit_counts: { trail: string; day: string; shard: number; count: number | string | bigint };
  /** Refused calls counted per source, reason and minute: the security trail's records (migration 0009). */
  refusal_counts: RefusalCountRow;
  /** The bot's key-value state (botbuilder `Storage`); `value` is JSON. */
  bot_state: { key: string; value: string; etag: string; updated_at: string };
  hooks: HookRow;
  hook_deliveries: HookDeliveryRow;
  /** What lifecycle governance remembers of each team it has seen (migration 0012). */
  team_lifecycle: TeamLifecycleRow;
  /** Requests to join a team and what became of them (migration 0018). */
  join_requests: JoinRequestRow;
}

export interface JoinRequestRow {
  id: string;
  team_id: string;
  team_name: string;
  requester_id: string;
  requester_name: string;
  message: string | null;
  /** `pending`, `approved`, `declined`, `joined` or `failed`. */
  status: string;
  /** 1 when the team let the requester in without approval. */
  direct: number;
  /** `approve` or `decline`, once decided. */
  decision: string | null;
  decided_by: string | null;
  decided_by_name: string | null;
  comment: string | null;
  decided_at: string | null;
  job_id: string | null;
  failed_reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface TeamLifecycleRow {
  team_id: string;
  renewals: number;
  renewed_on: string | null;
  renewed_by: string | null;
  /** JSON array of `expiresOn:days` keys. */
  notices_sent: string;
  expired_for: string | null;
  inactive_for: string | null;
  ownerless_since: string | null;
  ownerless_escalated_on: string | null;
  guest_reviewed_on: string | null;
  guest_review_due_for: string | null;
  /** The last guest review's day and removed guests, hashed, and its answer as JSON (migration 0025). */
  guest_review_key: string | null;
  guest_review: string | null;
  /** The day of the last activity the platform's report gave (YYYY-MM-DD). */
  last_activity_on: string | null;
  evaluated_on: string | null;
  /** The team's standing at its last evaluation (migration 0013), for the lifecycle report. */
  display_name: string | null;
  is_archived: number | null;
  expires_on: string | null;
  inactive_on: string | null;
  guest_review_due_on: string | null;
  updated_at: string;
}

export interface HookRow {
  id: string;
  name: string;
  description: string | null;
  active: number;
  /** JSON array of event codes. */
  events: string;
  url: string;
  content_type: string;
  /**
   * The signing secret, sealed by the service (`domain/seal.ts`) when `secret_sealed` is 1; 0 marks
   * a plaintext secret of an earlier version, which a process seals (migration 0024). Never leaves
   * the service except as an HMAC.
   */
  secret: string | null;
  secret_sealed: number;
  /** `tenant`, `template` or `mine` (migration 0026): whose events the hook receives. */
  scope: string;
  /** The template of a `template` hook. */
  template_id: string | null;
  consecutive_failures: number;
  created_by: string;
  /** `user` or `app`: who `created_by` is (migration 0027); null when it was not known. */
  creator_kind: string | null;
  created_at: string;
  updated_at: string;
}

export interface HookDeliveryRow {
  /** The delivery id (`X-Steward-Delivery`), also the id of the job that carries it. */
  id: string;
  hook_id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  /** Milliseconds the last attempt took, to the end of the (capped) response. */
  response_ms: number | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

export interface AuditRecordRow {
  seq: Generated<number>;
  id: string;
  trail: string;
  created_at: string;
  tenant_id: string;
  /** JSON of the AuditActor. */
  actor: string;
  action: string;
  /** JSON of the AuditTarget. */
  target: string;
  outcome: string;
  request_id: string | null;
  /** JSON object, or null. */
  details: string | null;
}

export interface RefusalCountRow {
  seq: Generated<number>;
  id: string;
  tenant_id: string;
  /** The UTC minute the refusals fell in (ISO, seconds zero). */
  minute: string;
  source: string;
  status: number;
  actor_id: string;
  reason: string;
  /** The first refusal of the row; `last_at` the latest. */
  created_at: string;
  last_at: string;
  count: number | string | bigint;
  /** JSON of the AuditActor, of the AuditTarget (the first refused operation), and of the details. */
  actor: string;
  action: string;
  target: string;
  request_id: string | null;
  details: string;
}

export interface PlatformTeamRow {
  id: string;
  provisioning_key: string | null;
  display_name: string;
  description: string | null;
  visibility: string;
  mail_nickname: string;
  classification: string | null;
  specialization: string | null;
  internal_id: string | null;
  sensitivity_label_id: string | null;
  /** JSON of the settings objects (memberSettings, guestSettings, …). */
  settings: string;
  is_archived: number;
  site_read_only: number;
  created_at: string;
  /** The simulated tenant's last activity in the team (ISO); null: none since its creation. */
  last_activity_at?: string | null;
}

export interface PlatformChannelRow {
  id: string;
  team_id: string;
  display_name: string;
  description: string | null;
  membership_type: string;
  is_primary: number;
  created_at: string;
}

/** A folder or starter file in a channel's files folder (embedded tenant; migration 0020). */
export interface PlatformChannelItemRow {
  channel_id: string;
  /** The path lower-cased: SharePoint compares names without case. */
  path_key: string;
  team_id: string;
  path: string;
  kind: 'folder' | 'file';
  content: string | null;
  created_at: string;
}

/** A task of an embedded plan; `checklist` is JSON (`[{ id, title, isChecked }]`). */
export interface PlatformPlanTaskRow {
  id: string;
  team_id: string;
  plan_id: string;
  bucket_id: string | null;
  title: string;
  due_date_time: string | null;
  checklist: string;
  /** The task details' version, Planner's etag: it changes with every write of the checklist. */
  details_version: number;
  created_at: string;
}

export interface PlatformTabRow {
  id: string;
  team_id: string;
  channel_id: string;
  display_name: string;
  teams_app_id: string;
  /** JSON of the tab's configuration. */
  configuration: string;
  sort_order: number;
  created_at: string;
}

export interface JobRow {
  id: string;
  type: string;
  status: string;
  queued: number;
  progress: number;
  /** JSON array of log lines. */
  log: string;
  /** JSON of the job's data (the request, approval, team). */
  data: string;
  /** JSON of the steps done so far, so a resumed job skips them. */
  checkpoint: string;
  failed_reason: string | null;
  attempts: number;
  /** Epoch milliseconds from which a worker may run the job. */
  run_at: number;
  lease_owner: string | null;
  lease_until: number | null;
  requester_id: string;
  team_id: string | null;
  template_id: string | null;
  idempotency_key: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  /**
   * The Graph budget bucket the job's next call waits for (`class:createTeam`, …), when known: a
   * claim takes the job only while that bucket has a turn free soon.
   */
  budget_key: string | null;
}

export interface ApprovalRow {
  id: string;
  job_id: string;
  template_id: string;
  /** JSON array of approver object ids. */
  approvers: string;
  status: string;
  decided_by: string | null;
  decided_at: string | null;
  message: string | null;
  /** JSON of the approver's amendments. */
  updates: string | null;
  created_at: string;
  /** The stage's place in its policy (0 first) and its name. */
  stage_index: number;
  stage_name: string | null;
  /** `any` or `all`. */
  decision: string;
  /** JSON of each approver's vote on an `all` stage: `{ [id]: { status, message, at } }`. */
  votes: string;
  reminded_at: string | null;
  escalated_at: string | null;
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
  /** The person's manager (object id), if any. */
  manager_id?: string | null;
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
  /** The current version (`template_versions`), 1 for a template saved once. */
  version: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface TemplateVersionRow {
  template_id: string;
  version: number;
  created_at: string;
  /** Who saved it (from their token); null for the versions migration 0019 started from. */
  actor_id: string | null;
  actor_name: string | null;
  /** The whole CatalogTemplate as JSON. */
  document: string;
  /** JSON array of TemplateChange from the previous version. */
  changes: string;
  summary: string;
}

export interface TeamTemplateRow {
  team_id: string;
  display_name: string;
  template_id: string;
  /** The version the team was made from; null: made before versions were kept. */
  template_version: number | null;
  job_id: string | null;
  created_at: string;
  /** What the last drift read found: against which version, how many differences, when. */
  drift_version: number | null;
  drift_count: number | null;
  drift_checked_at: string | null;
  /** 1 when the lifecycle evaluator's pass of `outdated_on` (a day) found the team behind its template. */
  outdated?: number | null;
  outdated_on?: string | null;
  /** The version the owners were asked about, and their answer (`add`, `notNow`), by whom, when. */
  owners_asked_version: number | null;
  owners_answer: string | null;
  owners_answered_by: string | null;
  owners_answered_at: string | null;
}

/** Where a repository method runs: on the database, or inside the caller's transaction. */
export type Db = Kysely<Database> | Transaction<Database>;

export interface TeamLabelRow {
  team_id: string;
  display_name: string;
  template_id: string;
  label_id: string;
  status: 'applied' | 'missing';
  reason: string | null;
  applied_by: string | null;
  job_id: string;
  updated_at: string;
}
