import type { DirectoryReader } from '../domain/directory';

/**
 * The collaboration platform Steward governs: Microsoft Graph in production, the embedded
 * simulated tenant otherwise. Services depend on this port, never on an adapter.
 */
export interface Platform {
  readonly kind: 'embedded' | 'graph';
  readonly directory: DirectoryReader;
}
