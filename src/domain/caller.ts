import type { AppRole } from '../contract/roles';

/** Who is calling, as established from a verified token. */
export interface Caller {
  /** The user's object id (`oid`), or the app's id for application tokens. */
  readonly id: string;
  readonly tenantId: string;
  readonly kind: 'user' | 'app';
  readonly name?: string;
  /** The user's UPN (`preferred_username`), when present. */
  readonly upn?: string;
  readonly roles: ReadonlySet<AppRole>;
  /** True when, for the operation being served, an admin role exempts the caller from user conditions. */
  readonly privileged: boolean;
  /** The API request being served, for the audit records of what it changes. */
  readonly requestId?: string;
}
