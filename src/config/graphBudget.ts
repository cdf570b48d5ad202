import type { GraphBudgetSettings, GraphLimits } from '../domain/graphBudget';
import { setting } from './setting';
import type { SettingName } from './settings';
import type { Read } from './values';

/** Each limit's setting; their defaults are Microsoft's published limits (`PUBLISHED_GRAPH_LIMITS`). */
const LIMIT_SETTINGS = {
  createTeamPerSecond: 'STEWARD_GRAPH_LIMIT_CREATE_TEAM_RPS',
  cloneTeamPerSecond: 'STEWARD_GRAPH_LIMIT_CLONE_TEAM_RPS',
  channelOrTabPerSecond: 'STEWARD_GRAPH_LIMIT_CHANNEL_TAB_RPS',
  otherPerSecond: 'STEWARD_GRAPH_LIMIT_OTHER_RPS',
  perTeamPerSecond: 'STEWARD_GRAPH_LIMIT_PER_TEAM_RPS',
  perChannelPerSecond: 'STEWARD_GRAPH_LIMIT_PER_CHANNEL_RPS',
  channelCreationsPerTeamPerSecond: 'STEWARD_GRAPH_LIMIT_CHANNEL_CREATIONS_PER_TEAM_RPS',
  memberAdditionsPerMinute: 'STEWARD_GRAPH_LIMIT_MEMBER_ADDS_PER_MINUTE',
} as const satisfies Record<keyof GraphLimits, SettingName>;

/**
 * The tenant-wide Graph budget's settings. Each limit defaults to Microsoft's published one and may
 * be set on its own; `STEWARD_GRAPH_LIMIT_SCALE` multiplies all of them (a tenant given lower
 * limits, or a simulator scaled down); `STEWARD_GRAPH_BUDGET_HEADROOM` is the share of a team's, a
 * channel's or a drive's rate spent (default 0.9), `STEWARD_GRAPH_BUDGET_CLASS_HEADROOM` that of a
 * request class's (default 0.98); `STEWARD_GRAPH_BUDGET_MAX_WAIT_MS` the longest a call waits in-process for
 * its turn before its job is delayed instead (default 10 000).
 */
export function readGraphBudget(read: Read): GraphBudgetSettings {
  const scale = setting(read, 'STEWARD_GRAPH_LIMIT_SCALE');
  const limits = {} as GraphLimits;
  for (const [field, name] of Object.entries(LIMIT_SETTINGS) as Array<
    [keyof GraphLimits, (typeof LIMIT_SETTINGS)[keyof GraphLimits]]
  >) {
    limits[field] = setting(read, name) * scale;
  }
  const headroom = setting(read, 'STEWARD_GRAPH_BUDGET_HEADROOM');
  const classHeadroom = setting(read, 'STEWARD_GRAPH_BUDGET_CLASS_HEADROOM');
  const maxWaitMs = setting(read, 'STEWARD_GRAPH_BUDGET_MAX_WAIT_MS');
  return { limits, headroom, classHeadroom, maxWaitMs };
}
