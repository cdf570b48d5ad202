import { parseArgs } from 'node:util';
import { type IntegerSetting, SETTINGS } from './settings';

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

  --api N            API processes (STEWARD_CLUSTER_API, default ${SETTINGS.STEWARD_CLUSTER_API.default})
  --workers N        job worker processes (STEWARD_CLUSTER_WORKERS, default ${SETTINGS.STEWARD_CLUSTER_WORKERS.default})
  --bots N           bot processes (STEWARD_CLUSTER_BOTS, default ${SETTINGS.STEWARD_CLUSTER_BOTS.default})
  --port P           the entry's port (STEWARD_PORT, default ${SETTINGS.PORT.default}; 0 = any free port)
  --host H           the entry's address (STEWARD_HOST, default ${SETTINGS.STEWARD_HOST.default})
  --backend-port P   first port of the processes behind the entry, on 127.0.0.1
                     (STEWARD_CLUSTER_BACKEND_PORT, default: ${SETTINGS.STEWARD_CLUSTER_BACKEND_PORT.defaultText})
  --max-restarts N   restarts of one process before the cluster stops (STEWARD_CLUSTER_MAX_RESTARTS, default ${SETTINGS.STEWARD_CLUSTER_MAX_RESTARTS.default})

Every other STEWARD_* setting is passed to the processes; STEWARD_DATABASE_URL=postgres://… is required.`;

type Env = Readonly<Record<string, string | undefined>>;

/** The launcher's whole-number variables. */
type ClusterNumber =
  | 'STEWARD_CLUSTER_API'
  | 'STEWARD_CLUSTER_WORKERS'
  | 'STEWARD_CLUSTER_BOTS'
  | 'STEWARD_CLUSTER_BACKEND_PORT'
  | 'STEWARD_CLUSTER_MAX_RESTARTS'
  | 'STEWARD_PORT';

/**
 * Reads the launcher's flags, falling back to its variables: flags win. Throws
 * `ClusterOptionsError` naming the flag for a bad value; returns undefined for `--help`.
 */
export function parseClusterOptions(
  argv: readonly string[],
  env: Env = process.env,
): ClusterOptions | undefined {
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
  /** A whole number: the flag, else the variable, else the default; bounds and default as `SETTINGS` describes the variable. */
  const int = (flag: string, variable: ClusterNumber, fallback?: number) => {
    const { min, max, default: described } = SETTINGS[variable] as IntegerSetting;
    const value = pick(flag, variable);
    if (value === undefined) return fallback ?? described;
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      throw new ClusterOptionsError(
        `--${flag} (${variable}): expected a whole number from ${min} to ${max}, got "${value}"`,
      );
    }
    return Number(value);
  };
  const options: ClusterOptions = {
    api: int('api', 'STEWARD_CLUSTER_API')!,
    workers: int('workers', 'STEWARD_CLUSTER_WORKERS')!,
    bots: int('bots', 'STEWARD_CLUSTER_BOTS')!,
    host: pick('host', 'STEWARD_HOST') ?? SETTINGS.STEWARD_HOST.default,
    // The entry's port: the flag or STEWARD_PORT, else PORT's default (a cluster ignores PORT).
    port: int('port', 'STEWARD_PORT', SETTINGS.PORT.default)!,
    backendPort: int('backend-port', 'STEWARD_CLUSTER_BACKEND_PORT'),
    maxRestarts: int('max-restarts', 'STEWARD_CLUSTER_MAX_RESTARTS')!,
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
