import { cloud } from './cloud';
import { setting } from './setting';
import type { Read } from './values';

/**
 * What the command-line tools take from the process environment besides Steward's configuration:
 * the environment a child process inherits, and the odd setting a tool reads on its own. Only
 * src/config reads the environment (eslint.config.js), so that every setting is described once.
 */

type Env = Readonly<Record<string, string | undefined>>;

/** A blank value counts as unset, as for every setting. */
function readerOf(env: Env): Read {
  return (name: string): string | undefined => env[name]?.trim() || undefined;
}

/** The environment a child process starts with: this process's (the same settings), `overrides` over it. */
export function inheritedEnv(
  overrides: NodeJS.ProcessEnv = {},
  env: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  return { ...env, ...overrides };
}

/**
 * STEWARD_TRUSTED_PROXIES as this process has it, with `address` added: an API process behind the
 * cluster's entry proxy trusts the entry besides the proxies the operator named.
 */
export function trustedProxiesWith(address: string, env: Env = process.env): string {
  return [env.STEWARD_TRUSTED_PROXIES, address].filter(Boolean).join(',');
}

/** Graph's v1.0 root for the admin commands: STEWARD_GRAPH_BASE_URL, else the cloud's (`cloud.ts`). */
export function graphBaseUrlSetting(env: Env = process.env): string {
  const read = readerOf(env);
  return setting(read, 'STEWARD_GRAPH_BASE_URL') ?? cloud(read).graphBaseUrl;
}

/**
 * The Microsoft 365 Agents Playground's environment: ours, its config file, and its log file unless
 * one is set already (`M365_AGENTS_PLAYGROUND_LOGFILE` is the Playground's own variable, not
 * Steward's).
 */
export function playgroundEnv(
  configPath: string,
  logFile: string,
  env: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  return {
    ...env,
    M365_AGENTS_PLAYGROUND_CONFIG_PATH: configPath,
    M365_AGENTS_PLAYGROUND_LOGFILE: env.M365_AGENTS_PLAYGROUND_LOGFILE ?? logFile,
    APPLICATION_INSIGHTS_NO_STATSBEAT: 'true',
  };
}

/**
 * Where `steward-mcp` (the stdio bridge) finds Steward and the caller's token: `STEWARD_URL` and
 * `STEWARD_TOKEN`, read by the bridge alone (they are not settings of a Steward process).
 */
export function mcpBridgeEnv(env: Env = process.env): { url?: string; token?: string } {
  const read = readerOf(env);
  return { url: read('STEWARD_URL'), token: read('STEWARD_TOKEN') };
}
