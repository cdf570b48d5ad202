import { setting } from './setting';
import { ConfigError, type Read } from './values';

export interface ListenAddress {
  host: string;
  port: number;
  publicUrl?: string;
}

/** Addresses only this machine can reach: links built from them would work nowhere else. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare);
}

/**
 * Where Steward listens and where people reach it. `STEWARD_PORT`, else `PORT` (what App Service
 * and most container platforms set), else 3978. Listening beyond loopback needs
 * `STEWARD_PUBLIC_URL`: the address Steward listens on (`0.0.0.0`, a container's) is not where
 * anyone reaches it, and links, `@odata.nextLink` and the bot's own webhook would point there.
 */
export function listenAddress(read: Read): ListenAddress {
  const port = listenPort(read);
  const host = setting(read, 'STEWARD_HOST');
  const publicUrl = setting(read, 'STEWARD_PUBLIC_URL');
  if (publicUrl === undefined) {
    if (!isLoopback(host))
      throw new ConfigError(
        'STEWARD_PUBLIC_URL',
        `is required when STEWARD_HOST is not a loopback address ("${host}"): set it to the https address people and Teams reach Steward at`,
      );
    return { host, port };
  }
  return { host, port, publicUrl: publicUrl.replace(/\/+$/, '') };
}

/** The port Steward listens on: `STEWARD_PORT`, else `PORT`, else 3978. */
export function listenPort(read: Read): number {
  return setting(read, 'STEWARD_PORT') ?? setting(read, 'PORT');
}
