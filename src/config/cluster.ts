import { parseArgs } from 'node:util';

/** How many processes of each role `npm run start:cluster` runs, and where it listens (its flags, else `STEWARD_CLUSTER_*`). */
export interface ClusterOptions {
  /** API processes behind the entry (at least 1). */
  api: number;
  /** Job worker processes. */
  workers: number;
  /** Bot processes; `/api/messages` and `/api/notifications` go to them. */
  bots: number;
  /** Address of the entry (the reverse proxy); the processes behind it always listen on 127.0.0.1. */
  host: string;
  /** Port of the entry; 0 picks a free one. */
  port: number;
  /** First port of the processes behind the entry (one each, consecutive); undefined: free ports. */
  backendPort?: number;
  /** Restarts of one process slot before the cluster gives up and stops. */
  maxRestarts: number;
  /** How long one process may take to answer `/readyz` after it starts, ms. */
  readyTimeoutMs: number;
}

/** A bad flag or variable of the cluster launcher. */
export class ClusterOptionsError extends Error {
  override readonly name = 'ClusterOptionsError';
}

export const CLUSTER_USAGE = `Starts Steward as several processes on one PostgreSQL database behind one entry port.

  npm run start:cluster -- [--api N] [--workers N] [--bots N] [--port P] [--backend-port P]

  --api N            API processes (STEWARD_CLUSTER_API, default 2)
  --workers N        job worker processes (STEWARD_CLUSTER_WORKERS, default 2)
  --bots N           bot processes (STEWARD_CLUSTER_BOTS, default 0)
  --port P           the entry's port (STEWARD_PORT, default 3978; 0 = any free port)
  --host H           the entry's address (STEWARD_HOST, default 127.0.0.1)
  --backend-port P   first port of the processes behind the entry, on 127.0.0.1
                     (STEWARD_CLUSTER_BACKEND_PORT, default: free ports)
  --max-restarts N   restarts of one process before the cluster stops (STEWARD_CLUSTER_MAX_RESTARTS, default 5)

Every other STEWARD_* setting is passed to the processes; STEWARD_DATABASE_URL=postgres://… is required.`;

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Reads the launcher's flags, falling back to its variables: flags win. Throws
 * `ClusterOptionsError` naming the flag for a bad value; returns undefined for `--help`.
 */
export function parseClusterOptions(argv: readonly string[], env: Env): ClusterOptions | undefined {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: [...argv],
      options: {
        api: { type: 'string' },
        workers: { type: 'string' },
        bots: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        'backend-port': { type: 'string' },
        'max-restarts': { type: 'string' },
        help: { type: 'boolean', default: false },
      },
    }).values;
  } catch (error) {
    throw new ClusterOptionsError((error as Error).message);
  }
  if (values.help) return undefined;
  const pick = (flag: string, variable: string): string | undefined => {
    const value = values[flag];
    if (typeof value === 'string') return value.trim();
    const fromEnv = env[variable]?.trim();
    return fromEnv === '' ? undefined : fromEnv;
  };
  const int = (flag: string, variable: string, fallback: number | undefined, min: number, max: number) => {
    const value = pick(flag, variable);
    if (value === undefined) return fallback;
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      throw new ClusterOptionsError(
        `--${flag} (${variable}): expected a whole number from ${min} to ${max}, got "${value}"`,
      );
    }
    return Number(value);
  };
  const options: ClusterOptions = {
    api: int('api', 'STEWARD_CLUSTER_API', 2, 1, 32)!,
    workers: int('workers', 'STEWARD_CLUSTER_WORKERS', 2, 0, 32)!,
    bots: int('bots', 'STEWARD_CLUSTER_BOTS', 0, 0, 32)!,
    host: pick('host', 'STEWARD_HOST') ?? '127.0.0.1',
    port: int('port', 'STEWARD_PORT', 3978, 0, 65535)!,
    backendPort: int('backend-port', 'STEWARD_CLUSTER_BACKEND_PORT', undefined, 1, 65535),
    maxRestarts: int('max-restarts', 'STEWARD_CLUSTER_MAX_RESTARTS', 5, 0, 1000)!,
    readyTimeoutMs: 60_000,
  };
  const processes = options.api + options.workers + options.bots;
  if (options.backendPort !== undefined && options.backendPort + processes - 1 > 65535) {
    throw new ClusterOptionsError(
      `--backend-port: ${processes} ports from ${options.backendPort} pass 65535`,
    );
  }
  return options;
}
