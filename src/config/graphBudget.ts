import { type GraphBudgetSettings, type GraphLimits, PUBLISHED_GRAPH_LIMITS } from '../domain/graphBudget';
import { ConfigError, integer, positiveNumber, type Read } from './values';

/** Each limit's setting; the defaults are Microsoft's published limits (`PUBLISHED_GRAPH_LIMITS`). */
const LIMIT_SETTINGS: Record<keyof GraphLimits, string> = {
  createTeamPerSecond: 'STEWARD_GRAPH_LIMIT_CREATE_TEAM_RPS',
  cloneTeamPerSecond: 'STEWARD_GRAPH_LIMIT_CLONE_TEAM_RPS',
  channelOrTabPerSecond: 'STEWARD_GRAPH_LIMIT_CHANNEL_TAB_RPS',
  otherPerSecond: 'STEWARD_GRAPH_LIMIT_OTHER_RPS',
  perTeamPerSecond: 'STEWARD_GRAPH_LIMIT_PER_TEAM_RPS',
  perChannelPerSecond: 'STEWARD_GRAPH_LIMIT_PER_CHANNEL_RPS',
  memberAdditionsPerMinute: 'STEWARD_GRAPH_LIMIT_MEMBER_ADDS_PER_MINUTE',
};

/**
 * The tenant-wide Graph budget's settings. Each limit defaults to Microsoft's published one and may
 * be set on its own; `STEWARD_GRAPH_LIMIT_SCALE` multiplies all of them (a tenant given lower
 * limits, or a simulator scaled down); `STEWARD_GRAPH_BUDGET_HEADROOM` is the share of each rate
 * spent (default 0.9); `STEWARD_GRAPH_BUDGET_MAX_WAIT_MS` the longest a call waits in-process for
 * its turn before its job is delayed instead (default 10 000).
 */
export function readGraphBudget(read: Read): GraphBudgetSettings {
  const scale = positiveNumber('STEWARD_GRAPH_LIMIT_SCALE', read('STEWARD_GRAPH_LIMIT_SCALE'), 1);
  const limits = {} as GraphLimits;
  for (const [field, name] of Object.entries(LIMIT_SETTINGS) as Array<[keyof GraphLimits, string]>) {
    limits[field] = positiveNumber(name, read(name), PUBLISHED_GRAPH_LIMITS[field]) * scale;
  }
  const headroom = positiveNumber(
    'STEWARD_GRAPH_BUDGET_HEADROOM',
    read('STEWARD_GRAPH_BUDGET_HEADROOM'),
    0.9,
  );
  if (headroom > 1) {
    throw new ConfigError('STEWARD_GRAPH_BUDGET_HEADROOM', `expected a share from 0 to 1, got "${headroom}"`);
  }
  const maxWaitMs = integer(
    'STEWARD_GRAPH_BUDGET_MAX_WAIT_MS',
    read('STEWARD_GRAPH_BUDGET_MAX_WAIT_MS'),
    10_000,
    0,
    600_000,
  );
  return { limits, headroom, maxWaitMs };
}
