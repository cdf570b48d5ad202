import { setting } from './setting';
import { ConfigError, type Read } from './values';

/** When the lifecycle evaluator runs on its own, and how many teams it reads at once. */
export interface LifecycleSettings {
  /** Minutes after midnight UTC of the daily evaluation, or null when it runs only on request. */
  dailyAtMinute: number | null;
  /** Teams read from the platform and decided in one transaction. */
  pageSize: number;
}

/**
 * `STEWARD_LIFECYCLE_EVALUATION_AT`: `HH:MM` (UTC) of the daily evaluation, default `02:00`; `off`
 * runs it only when asked (`POST /api/v1.0/lifecycle/evaluations`).
 * `STEWARD_LIFECYCLE_PAGE_SIZE`: teams per page, default 200.
 */
export function readLifecycle(read: Read): LifecycleSettings {
  const at = setting(read, 'STEWARD_LIFECYCLE_EVALUATION_AT');
  let dailyAtMinute: number | null = null;
  if (at.toLowerCase() !== 'off') {
    const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(at);
    if (!match)
      throw new ConfigError('STEWARD_LIFECYCLE_EVALUATION_AT', `expected HH:MM (UTC) or off, got "${at}"`);
    dailyAtMinute = Number(match[1]) * 60 + Number(match[2]);
  }
  const pageSize = setting(read, 'STEWARD_LIFECYCLE_PAGE_SIZE');
  return { dailyAtMinute, pageSize };
}
