import type { ErrorDetail } from '../errors';
import { LifecyclePolicy } from '../../contract/lifecycle';

/** The tenant default until governance sets one: nothing expires or is archived; ownerless teams are reported. */
export const DEFAULT_LIFECYCLE_POLICY: LifecyclePolicy = LifecyclePolicy.parse({});

/** The policy that governs a team: its template's when the template has one, else the tenant's. */
export function resolveLifecyclePolicy(
  templatePolicy: LifecyclePolicy | undefined,
  tenantPolicy: LifecyclePolicy,
): { policy: LifecyclePolicy; source: 'template' | 'tenant' } {
  return templatePolicy
    ? { policy: templatePolicy, source: 'template' }
    : { policy: tenantPolicy, source: 'tenant' };
}

/**
 * What makes a policy unable to work as written (its shape was checked by its schema): renewal
 * notices on or after the expiry itself, the same notice twice. `target` prefixes the fields.
 */
export function lifecyclePolicyProblems(policy: LifecyclePolicy, target: string): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const { days, renewalNoticeDays } = policy.expiration;
  renewalNoticeDays.forEach((notice, index) => {
    if (notice >= days) {
      details.push({
        code: 'noticeAfterCreation',
        target: `${target}.expiration.renewalNoticeDays[${index}]`,
        message: `A notice ${notice} days before expiry comes before the team exists: teams expire after ${days} days.`,
      });
    }
    if (renewalNoticeDays.indexOf(notice) !== index) {
      details.push({
        code: 'duplicateNotice',
        target: `${target}.expiration.renewalNoticeDays[${index}]`,
        message: `The notice ${notice} days before expiry is listed twice.`,
      });
    }
  });
  return details;
}
