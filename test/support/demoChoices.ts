import { DEFAULT_TENANT_ID } from '../../src/config';

/**
 * The demo's defaults, chosen explicitly: what a Steward beyond the embedded default (past loopback,
 * Entra ID tokens or Microsoft Graph) must be told (config/index.ts, refuseDemoDefaults). A test's
 * own settings come after these and override them.
 */
export const DEMO_CHOICES = {
  STEWARD_PLATFORM: 'embedded',
  STEWARD_AUTH_MODE: 'embedded',
  STEWARD_SEED_DEMO_DATA: 'true',
  STEWARD_TENANT_ID: DEFAULT_TENANT_ID,
} as const;
