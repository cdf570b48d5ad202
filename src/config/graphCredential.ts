import { setting } from './setting';
import { ConfigError, type Read } from './values';

/** How Steward proves itself to Entra ID for Graph: exactly one of the three. */
export type GraphCredential =
  | { clientSecret: string }
  | { certificatePath: string }
  | { managedIdentity: true };

/**
 * `STEWARD_GRAPH_CLIENT_SECRET`, or `STEWARD_GRAPH_CERTIFICATE_PATH` (a PEM file holding the
 * certificate and its private key), or `STEWARD_GRAPH_MANAGED_IDENTITY=true` (Azure's managed
 * identity whose client id is `STEWARD_GRAPH_CLIENT_ID`). Certificates and managed identities keep
 * secrets out of the settings; Microsoft recommends them over client secrets.
 */
export function graphCredential(read: Read): GraphCredential {
  const secret = setting(read, 'STEWARD_GRAPH_CLIENT_SECRET');
  const certificatePath = setting(read, 'STEWARD_GRAPH_CERTIFICATE_PATH');
  const managed = setting(read, 'STEWARD_GRAPH_MANAGED_IDENTITY');
  const given = [secret, certificatePath, managed || undefined].filter((v) => v !== undefined).length;
  if (given !== 1) {
    throw new ConfigError(
      'STEWARD_GRAPH_CLIENT_SECRET',
      `set exactly one of STEWARD_GRAPH_CLIENT_SECRET, STEWARD_GRAPH_CERTIFICATE_PATH or STEWARD_GRAPH_MANAGED_IDENTITY=true when STEWARD_PLATFORM=graph (${given} set)`,
    );
  }
  if (secret) return { clientSecret: secret };
  if (certificatePath) return { certificatePath };
  return { managedIdentity: true };
}
