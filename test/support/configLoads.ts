import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Config, type ConfigError, loadConfig } from '../../src/config';
import { configErrorOf } from './configErrors';
import { DEMO_CHOICES } from './demoChoices';

/** A signing secret long enough for HS256. */
export const CONFIG_SECRET = 'a-secret-that-is-long-enough-for-hs256-0123456789';

/** The demo's four choices made and a signing secret set: the least that loads anywhere. */
export const DEMO_ENV: Record<string, string> = { ...DEMO_CHOICES, STEWARD_AUTH_SECRET: CONFIG_SECRET };

/** Microsoft Graph as the platform, with its tenant and app but no credential. */
export const GRAPH_APP = {
  STEWARD_PLATFORM: 'graph',
  STEWARD_GRAPH_TENANT_ID: '11111111-2222-3333-4444-555555555555',
  STEWARD_GRAPH_CLIENT_ID: '66666666-7777-8888-9999-000000000000',
};

/** Entra ID tokens: where their keys are, who issues them, and for which API. */
export const ENTRA_AUTH = {
  STEWARD_AUTH_MODE: 'entra',
  STEWARD_AUTH_JWKS_URI: 'https://login.example.com/keys',
  STEWARD_AUTH_ISSUER: 'https://login.example.com/t/v2.0',
  STEWARD_AUTH_AUDIENCE: 'api://steward',
};

export type GraphConfig = Extract<Config['platform'], { kind: 'graph' }>;

/** The Graph platform's settings of a configuration that runs on Graph. */
export const graphOf = (config: Config): GraphConfig => config.platform as GraphConfig;

export interface ConfigLoads {
  /** `loadConfig` with the suite's base then `env` (never the process environment), in `cwd`. */
  load(env?: Record<string, string>): Config;
  /** The ConfigError `load(env)` raises; fails the test when it raises nothing or something else. */
  failure(env: Record<string, string>): ConfigError;
  /** The test's own working directory, made before it and removed after it. */
  readonly cwd: string;
}

/**
 * Registers a fresh working directory (`steward-<name>-…` under the system's temporary folder)
 * for each test of the `describe` it is called in, and loads configurations there over `base`.
 */
export function configLoads(name: string, base: Record<string, string> = {}): ConfigLoads {
  let cwd = '';
  beforeEach(() => {
    cwd = mkdtempSync(path.join(os.tmpdir(), `steward-${name}-`));
  });
  afterEach(() => rmSync(cwd, { recursive: true, force: true }));
  const load = (env: Record<string, string> = {}): Config => loadConfig({ ...base, ...env }, cwd);
  return {
    load,
    failure: (env) => configErrorOf(() => load(env), JSON.stringify(env)),
    get cwd() {
      return cwd;
    },
  };
}
