'use strict';
// The Graph simulator (`test/support/fakeGraph/main.ts`) as its own process, for the benchmarks
// that run Steward on `STEWARD_PLATFORM=graph`: compiled once, started with its settings, stopped
// with its counts; and Steward's settings to reach it.
const { execFileSync, spawn } = require('node:child_process');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const SIMULATOR = path.join(ROOT, 'dist-simulator/test/support/fakeGraph');

/** Compiles the simulator, as `npm run graph-simulator` does. */
function compileSimulator() {
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.simulator.json'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
}

/**
 * Starts the simulator process at `scale` (its limits and latencies), with `env` added to its
 * environment (FAKE_GRAPH_USERS, FAKE_GRAPH_TIMELINE, FAKE_GRAPH_TEAMS, …); resolves with its
 * config line, `stop()` resolving its counts.
 */
function startSimulator(scale, env = {}) {
  const child = spawn(process.execPath, [path.join(SIMULATOR, 'main.js')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, FAKE_GRAPH_SCALE: String(scale), ...env },
  });
  const lines = [];
  let buffer = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    buffer += chunk;
    for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
      lines.push(JSON.parse(buffer.slice(0, end)));
      buffer = buffer.slice(end + 1);
    }
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      if (lines.length === 0) return;
      clearInterval(timer);
      resolve({
        ...lines[0],
        exited: () => child.exitCode !== null,
        stop: async () => {
          child.kill('SIGTERM');
          await exited;
          return lines[1];
        },
      });
    }, 20);
    exited.then(() => {
      clearInterval(timer);
      reject(new Error('the Graph simulator exited before it started'));
    });
  });
}

/** Steward's settings for the simulator `config` line, its limits and waits at `scale`. */
function graphEnv(config, scale, certFile) {
  return {
    STEWARD_PLATFORM: 'graph',
    // Beyond the embedded default the demo's defaults are chosen explicitly: the benchmarks' tokens
    // are embedded ones of the demo tenant, and their requests use the demo catalog.
    STEWARD_AUTH_MODE: 'embedded',
    STEWARD_SEED_DEMO_DATA: 'true',
    STEWARD_TENANT_ID: require('../dist/config').DEFAULT_TENANT_ID,
    STEWARD_GRAPH_TENANT_ID: config.tenantId,
    STEWARD_GRAPH_CLIENT_ID: config.clientId,
    STEWARD_GRAPH_CLIENT_SECRET: config.clientSecret,
    STEWARD_GRAPH_BASE_URL: config.baseUrl,
    STEWARD_GRAPH_AUTHORITY_HOST: config.authorityHost,
    STEWARD_TEAMS_APP_ID: config.teamsAppId,
    STEWARD_BOT_SERVICE_URL: config.botServiceUrl,
    STEWARD_GRAPH_LIMIT_SCALE: String(scale),
    STEWARD_GRAPH_TIME_SCALE: String(scale),
    // The longest in-process wait for a budget turn (10 s by default) stands against the budget's
    // intervals, which the scale makes 1 ÷ scale times longer: it grows with them.
    STEWARD_GRAPH_BUDGET_MAX_WAIT_MS: String(Math.round(10_000 / scale)),
    // The simulator's bot registration (`main.ts`), so the welcome goes out as the bot.
    MicrosoftAppId: 'b0b0b0b0-0000-0000-0000-00000000b0b0',
    MicrosoftAppPassword: 'bot-secret',
    MicrosoftAppTenantId: config.tenantId,
    NODE_EXTRA_CA_CERTS: certFile,
  };
}

module.exports = { compileSimulator, graphEnv, SIMULATOR, startSimulator };
