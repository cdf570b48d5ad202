import { dataDirSecret } from './dataDirSecret';
import type { Config, DelegatedGrantSettings, OnBehalfOfSettings } from './types';
import { setting } from './setting';
import { ConfigError, type Read } from './values';

/**
 * What sealed secrets' key is derived from: `STEWARD_DELEGATION_KEY`, else the auth secret, else (in
 * `entra` mode without one) a secret generated once into the data dir's `seal-key`. Never a key of
 * the process alone: webhook secrets sealed under it must open after a restart.
 */
export function readDelegatedGrants(
  read: Read,
  auth: Config['auth'],
  dataDir: string,
): DelegatedGrantSettings {
  const configured = setting(read, 'STEWARD_DELEGATION_KEY');
  if (configured !== undefined && Buffer.byteLength(configured) < 32)
    throw new ConfigError('STEWARD_DELEGATION_KEY', 'must be at least 32 bytes long');
  const sealSecret =
    configured ??
    (auth.mode === 'embedded' ? auth.secret : setting(read, 'STEWARD_AUTH_SECRET')) ??
    dataDirSecret(dataDir, 'seal-key');
  if (Buffer.byteLength(sealSecret) < 32)
    throw new ConfigError('STEWARD_AUTH_SECRET', 'must be at least 32 bytes long');
  const minutes = setting(read, 'STEWARD_DELEGATION_MAX_MINUTES');
  return { sealSecret, maxSeconds: minutes * 60 };
}

/**
 * The on-behalf-of flow needs the app registration that people's tokens are issued to (the API's,
 * `STEWARD_API_CLIENT_ID`) and its secret (`STEWARD_API_CLIENT_SECRET`); when both are unset and
 * Steward's Graph app has a client secret, that app is taken to be the API's too. People's tokens
 * exist only with Entra ID sign-in (`STEWARD_AUTH_MODE=entra`).
 */
export function readOnBehalfOf(
  read: Read,
  auth: Config['auth'],
  graph: { clientId: string; clientSecret?: string },
): OnBehalfOfSettings {
  const clientId = setting(read, 'STEWARD_API_CLIENT_ID');
  const clientSecret = setting(read, 'STEWARD_API_CLIENT_SECRET');
  if ((clientId === undefined) !== (clientSecret === undefined)) {
    throw new ConfigError(
      clientId === undefined ? 'STEWARD_API_CLIENT_ID' : 'STEWARD_API_CLIENT_SECRET',
      'STEWARD_API_CLIENT_ID and STEWARD_API_CLIENT_SECRET go together',
    );
  }
  if (auth.mode !== 'entra') {
    return {
      unavailable:
        'People sign in to Steward with its own tokens (STEWARD_AUTH_MODE=embedded), which Entra ID cannot exchange for a delegated Microsoft Graph token.',
    };
  }
  if (clientId !== undefined && clientSecret !== undefined) return { clientId, clientSecret };
  if (graph.clientSecret !== undefined) return { clientId: graph.clientId, clientSecret: graph.clientSecret };
  return {
    unavailable:
      "Steward has no credential of the API's app registration to exchange people's sign-ins (STEWARD_API_CLIENT_ID and STEWARD_API_CLIENT_SECRET).",
  };
}
