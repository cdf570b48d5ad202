import type { Migration, MigrationProvider } from 'kysely';
import * as foundation from './0001_foundation';
import * as provisioning from './0002_provisioning';
import * as teamMetadata from './0003_team_metadata';
import * as metadataIndex from './0004_metadata_index';
import * as auditRecords from './0005_audit_records';
import * as webhooks from './0006_webhooks';
import * as botState from './0007_bot_state';
import * as auditCounts from './0008_audit_counts';
import * as refusalCounts from './0009_refusal_counts';
import * as graphBudget from './0010_graph_budget';
import * as approvalStages from './0011_approval_stages';
import * as lifecycle from './0012_lifecycle';
import * as lifecycleStanding from './0013_lifecycle_standing';
import * as rateLimitLeases from './0014_rate_limit_leases';
import * as stewardMetaChanges from './0015_steward_meta_changes';
import * as budgetClaims from './0016_budget_claims';
import * as sensitivityLabels from './0017_sensitivity_labels';
import * as joinRequests from './0018_join_requests';
import * as templateVersions from './0019_template_versions';
import * as platformFiles from './0020_platform_files';
import * as platformPlanner from './0021_platform_planner';
import * as onePendingPerTeam from './0022_one_pending_per_team';
import * as auditCountsAppendOnly from './0023_audit_counts_append_only';
import * as hookSecretsSealed from './0024_hook_secrets_sealed';
import * as guestReviewOnce from './0025_guest_review_once';
import * as hookScopes from './0026_hook_scopes';
import * as hookCreatorKind from './0027_hook_creator_kind';
import * as workspaceTypes from './0028_workspace_types';

/** Versioned migrations, applied in name order; never edit one that has shipped, add the next. */
export const migrations: Record<string, Migration> = {
  '0001_foundation': foundation,
  '0002_provisioning': provisioning,
  '0003_team_metadata': teamMetadata,
  '0004_metadata_index': metadataIndex,
  '0005_audit_records': auditRecords,
  '0006_webhooks': webhooks,
  '0007_bot_state': botState,
  '0008_audit_counts': auditCounts,
  '0009_refusal_counts': refusalCounts,
  '0010_graph_budget': graphBudget,
  '0011_approval_stages': approvalStages,
  '0012_lifecycle': lifecycle,
  '0013_lifecycle_standing': lifecycleStanding,
  '0014_rate_limit_leases': rateLimitLeases,
  '0015_steward_meta_changes': stewardMetaChanges,
  '0016_budget_claims': budgetClaims,
  '0017_sensitivity_labels': sensitivityLabels,
  '0018_join_requests': joinRequests,
  '0019_template_versions': templateVersions,
  '0020_platform_files': platformFiles,
  '0021_platform_planner': platformPlanner,
  '0022_one_pending_per_team': onePendingPerTeam,
  '0023_audit_counts_append_only': auditCountsAppendOnly,
  '0024_hook_secrets_sealed': hookSecretsSealed,
  '0025_guest_review_once': guestReviewOnce,
  '0026_hook_scopes': hookScopes,
  '0027_hook_creator_kind': hookCreatorKind,
  '0028_workspace_types': workspaceTypes,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
