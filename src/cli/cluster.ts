import './compileCache';
import type { Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import type { Logger } from 'pino';
import { BackendPool, createEntryProxy } from '../cluster/proxy';
import {
  CLUSTER_USAGE,
  type ClusterOptions,
  ClusterOptionsError,
  parseClusterOptions,
} from '../config/cluster';
import { type ClusterRole, ProcessSlot } from '../cluster/supervisor';
import { type Config, ConfigError, loadConfig, loadDotEnv, redactUrl } from '../config';
import { inheritedEnv, trustedProxiesWith } from '../config/processEnv';
import { createLogger } from '../logger';
import { migrate, openStore } from '../store/database';

const MAIN = path.join(__dirname, '..', 'main.js');

/**
 * `npm run start:cluster`: N API, M worker and B bot processes of Steward on one PostgreSQL
 * database, on loopback ports behind one entry port (a small reverse proxy in this process).
 * Migrations run here once; the first API process seeds an empty store before the others start.
 */
async function main(): Promise<void> {
  let options: ClusterOptions | undefined;
  let config: Config;
  try {
    loadDotEnv();
    options = parseClusterOptions(process.argv.slice(2));
    if (!options) {
      process.stdout.write(`${CLUSTER_USAGE}\n`);
      return;
    }
    // The settings every process will read, checked once here so that a mistake stops one process.
    // The entry's address is what the outside reaches: a bot behind it is exposed on that address.
    config = loadConfig(
      inheritedEnv({
        STEWARD_ROLE: options.bots > 0 ? 'bot' : 'api',
        STEWARD_HOST: options.host,
        STEWARD_PORT: '0',
      }),
    );
  } catch (error) {
    if (!(error instanceof ClusterOptionsError || error instanceof ConfigError)) throw error;
    process.stderr.write(`start:cluster: ${error.message}\n${CLUSTER_USAGE}\n`);
    process.exit(2);
  }
  if (config.database.kind !== 'postgres') {
    process.stderr.write(
      'start:cluster: the processes of a cluster share their store, which must be PostgreSQL: set ' +
        'STEWARD_DATABASE_URL=postgres://user:password@host:5432/database. SQLite serves one process: use `npm start`.\n',
    );
    process.exit(2);
  }
  const log = createLogger(config.logLevel).child({ component: 'cluster' });

  const store = openStore(config.database);
  try {
    const applied = await migrate(store.db);
    log.info({ store: redactUrl(config.database.url), migrations: applied }, 'store migrated');
  } finally {
    await store.close();
  }

  const cluster = new Cluster(options, config, log);
  process.once('SIGTERM', () => void cluster.shutdown('SIGTERM', 0));
  process.once('SIGINT', () => void cluster.shutdown('SIGINT', 0));
  // Never leave processes behind, even if this one fails.
  process.on('exit', () => cluster.killAll());
  await cluster.start();
}

/** The entry proxy and the supervised processes behind it. */
class Cluster {
  private readonly slots: ProcessSlot[] = [];
  private readonly pools = { api: new BackendPool('api'), bot: new BackendPool('bot') };
  private entry?: Server;
  private stopping?: Promise<void>;

  constructor(
    private readonly options: ClusterOptions,
    private readonly config: Config,
    private readonly log: Logger,
  ) {}

  /** Starts the entry, then the processes; logs `cluster ready` with every URL once all answer. */
  async start(): Promise<void> {
    const { options } = this;
    const roles: ClusterRole[] = [
      ...Array<ClusterRole>(options.api).fill('api'),
      ...Array<ClusterRole>(options.workers).fill('worker'),
      ...Array<ClusterRole>(options.bots).fill('bot'),
    ];
    const ports =
      options.backendPort === undefined
        ? await freePorts(roles.length)
        : roles.map((_r, i) => options.backendPort! + i);
    // The public URL must be known before the processes start; with port 0 only the listening entry knows it.
    const entryUrl = await this.listen();
    const counters: Record<ClusterRole, number> = { api: 0, worker: 0, bot: 0 };
    roles.forEach((role, i) => {
      counters[role] += 1;
      const slot = this.slot(`${role}-${counters[role]}`, role, ports[i]!, entryUrl);
      this.slots.push(slot);
      if (role !== 'worker') this.pools[role].add(slot);
    });
    try {
      // The first API process seeds an empty store alone; then the others start together.
      const [first, ...rest] = this.slots;
      await first!.start();
      await Promise.all(rest.map((slot) => slot.start()));
    } catch (error) {
      this.log.error({ err: error }, 'the cluster did not start');
      await this.shutdown('start-up failure', 1);
      return;
    }
    this.log.info(
      {
        url: entryUrl,
        publicUrl: this.config.publicUrl ?? entryUrl,
        processes: this.slots.map((s) => ({ name: s.name, role: s.spec.role, pid: s.pid, url: s.url })),
      },
      'cluster ready',
    );
  }

  /** Starts the entry proxy; resolves with its URL. */
  private async listen(): Promise<string> {
    const entry = createEntryProxy({ ...this.pools, log: this.log });
    this.entry = entry;
    await new Promise<void>((resolve, reject) => {
      entry.once('error', reject);
      entry.listen(this.options.port, this.options.host, () => resolve());
    });
    const { port } = entry.address() as AddressInfo;
    const host = ['0.0.0.0', '::'].includes(this.options.host) ? '127.0.0.1' : this.options.host;
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    const { api, workers, bots } = this.options;
    this.log.info({ url, api, workers, bots }, 'entry listening');
    return url;
  }

  /** One supervised process of `role` on `port`, with the settings every process shares. */
  private slot(name: string, role: ClusterRole, port: number, entryUrl: string): ProcessSlot {
    const env: NodeJS.ProcessEnv = inheritedEnv({
      STEWARD_ROLE: role,
      STEWARD_HOST: '127.0.0.1',
      STEWARD_PORT: String(port),
      STEWARD_PUBLIC_URL: this.config.publicUrl ?? entryUrl,
      // Every process signs and accepts the same tokens (embedded mode) and report URLs.
      STEWARD_AUTH_SECRET: this.config.reports.urlSecret,
      // And seal with the launcher's key, not with the run's random auth secret (`entra` mode).
      STEWARD_DELEGATION_KEY: this.config.delegatedGrants.sealSecret,
      STEWARD_DATA_DIR: this.config.dataDir,
    });
    if (role === 'api') {
      // The entry proxy (on loopback) names each client in X-Forwarded-For: trusting it makes the
      // client, not the entry, the source whose refused calls are limited and recorded.
      env.STEWARD_TRUSTED_PROXIES = trustedProxiesWith('127.0.0.1');
    }
    if (role === 'bot') {
      // A bot calls the API through the entry, and leaves the jobs to the workers.
      env.STEWARD_API_URL = this.config.bot.apiUrl ?? entryUrl;
      env.STEWARD_WORKER_CONCURRENCY = '0';
    }
    return new ProcessSlot(
      { name, role, port, env },
      {
        entry: MAIN,
        log: this.log,
        maxRestarts: this.options.maxRestarts,
        readyTimeoutMs: this.options.readyTimeoutMs,
        stopTimeoutMs: this.config.shutdownTimeoutMs + 5000,
        onGiveUp: () => void this.shutdown('a process exited too often', 1),
      },
    );
  }

  /** Stops the entry and every process (SIGTERM, then waits for them), then exits with `code`. */
  shutdown(reason: string, code: number): Promise<void> {
    this.stopping ??= (async () => {
      this.log.info({ reason }, 'stopping the cluster');
      const entry = this.entry;
      const entryClosed = new Promise<void>((resolve) => {
        if (!entry?.listening) return resolve();
        // Keep-alive connections become idle as their last responses finish: keep closing them.
        const sweep = setInterval(() => entry.closeIdleConnections(), 50);
        entry.close(() => {
          clearInterval(sweep);
          resolve();
        });
        entry.closeIdleConnections();
      });
      await Promise.all([entryClosed, ...this.slots.map((slot) => slot.stop())]);
      this.log.info('cluster stopped');
      process.exit(code);
    })();
    return this.stopping;
  }

  /** The last resort when this process exits: SIGKILL whatever still runs. */
  killAll(): void {
    for (const slot of this.slots) slot.kill();
  }
}

/** `count` ports free on 127.0.0.1 now (held together while chosen, so they differ). */
async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<net.Server>((resolve, reject) => {
          const server = net.createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => (server.address() as AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

main().catch((error: unknown) => {
  process.stderr.write(`start:cluster failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
