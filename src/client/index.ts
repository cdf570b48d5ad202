/** The typed client of the Steward API (see `StewardClient`). */
export { StewardClient, type StewardOperations } from './stewardClient';
export {
  type ApiErrorCode,
  type FailedCall,
  StewardApiError,
  StewardClientError,
  StewardNetworkError,
  StewardResponseError,
} from './errors';
export type {
  CallOptions,
  ProvisioningCallOptions,
  RetryOptions,
  StewardClientOptions,
  TokenSource,
} from './options';
export type { AcceptedJob } from './operations/send';
export { JOBS_A_READ } from './operations/provisioning';
export type { AuditTrailRecordsQuery } from './operations/audit';
export type { UsersQuery } from './operations/directory';
export type * from './models';
export { TEAM_NAME_MAX_LENGTH } from './limits';
export { TurnCharge } from './turnCharge';
