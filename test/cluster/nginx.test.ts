import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { request } from 'undici';
import { WebhookReceiver } from '../support/cluster';
import { createTestDatabase, type TestDatabase } from '../support/databases';
import { call, oneLimitThrough, provisionOnceThrough, until } from '../support/deploymentChecks';
import { type Process, spawnMain } from '../support/mainProcess';
import { EmbeddedTokenIssuer } from '../../src/services/access/tokens';
import { PEOPLE, TENANT, TEST_SECRET } from '../support/steward';
import { freePort } from '../support/ports';

/**
 * The scale-out topology of compose.yaml without containers: Debian's nginx, with the routes file
 * the image's proxy uses (deploy/nginx/steward-routes.conf), in front of two API processes and a
 * bot process, with two job workers, on PostgreSQL. Checked through nginx: what the cluster test
 * checks through the cluster's own entry, and that the bot is reached and receives its webhooks.
 */
const NGINX = process.env.STEWARD_NGINX ?? '/usr/sbin/nginx';
const ROUTES = path.resolve(__dirname, '..', '..', 'deploy', 'nginx', 'steward-routes.conf');
const hasNginx = existsSync(NGINX);
const issuer = new EmbeddedTokenIssuer(TEST_SECRET, TENANT);
const hasPostgres = Boolean(process.env.STEWARD_TEST_DATABASE_URL);

if (!hasPostgres || (!hasNginx && process.env.CI !== 'true')) {
  process.stderr.write(
    `\n*** test/cluster/nginx SKIPPED: it needs ${hasPostgres ? '' : 'PostgreSQL (STEWARD_TEST_DATABASE_URL) '}` +
      `${hasNginx ? '' : `nginx (${NGINX}; apt-get install nginx-light)`}. ***\n\n`,
  );
}
if (hasPostgres && !hasNginx && process.env.CI === 'true') {
  test('nginx is installed in CI', () => {
    throw new Error(`${NGINX} is missing: .ci/run installs nginx-light`);
  });
}

/** nginx in the foreground, with its own prefix, temp paths and upstreams on loopback ports. */
function startNginx(dir: string, port: number, api: number[], bot: number): ChildProcess {
  for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) {
    mkdirSync(path.join(dir, temp), { recursive: true });
    // Its workers drop to an unprivileged user when nginx starts as root.
    chmodSync(path.join(dir, temp), 0o777);
  }
  const conf = path.join(dir, 'nginx.conf');
  writeFileSync(
    conf,
    `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log stderr warn;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream steward_api { ${api.map((p) => `server 127.0.0.1:${p};`).join(' ')} keepalive 16; }
  upstream steward_bot { server 127.0.0.1:${bot}; keepalive 4; }
  server {
    listen 127.0.0.1:${port};
    include ${ROUTES};
  }
}
`,
  );
  return spawn(NGINX, ['-p', dir, '-c', conf, '-e', 'stderr'], { stdio: ['ignore', 'ignore', 'inherit'] });
}

(hasPostgres && hasNginx ? describe : describe.skip)(
  'nginx in front of API, worker and bot processes',
  () => {
    // Each deployment has a database of its own: rate-limit budgets and hooks live there.
    let db: TestDatabase;
    let sql: Client;
    const databases: Array<{ db: TestDatabase; sql: Client }> = [];
    let dir: string;
    const receiver = new WebhookReceiver();
    const running: Array<Process | ChildProcess> = [];
    const rows = async <T>(text: string) => (await sql.query(text)).rows as T[];

    beforeAll(async () => {
      await receiver.start();
      dir = mkdtempSync(path.join(os.tmpdir(), 'steward-nginx-'));
    });
    afterAll(async () => {
      // nginx's master stops its workers on SIGTERM; SIGKILL would leave them running.
      for (const one of running.splice(0)) {
        if ('child' in one) one.child.kill('SIGKILL');
        else one.kill('SIGTERM');
      }
      for (const one of databases.splice(0)) {
        await one.sql.end();
        await one.db.drop();
      }
      await receiver.close();
      rmSync(dir, { recursive: true, force: true });
    });

    /** The topology with `factor` as rate-limit factor; resolves with nginx's URL once all answer. */
    async function deploy(
      factor: string,
      withBot: boolean,
    ): Promise<{ url: string; stop: () => Promise<void> }> {
      const [entry, api1, api2, bot] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
      db = await createTestDatabase('postgres');
      sql = new Client({ connectionString: db.url });
      await sql.connect();
      databases.push({ db, sql });
      const url = `http://127.0.0.1:${entry}`;
      const env = (role: string, port: number) => ({
        STEWARD_ROLE: role,
        STEWARD_PORT: String(port),
        STEWARD_PUBLIC_URL: url,
        STEWARD_DATABASE_URL: db.url,
        STEWARD_DATA_DIR: db.dataDir,
        STEWARD_AUTH_SECRET: TEST_SECRET,
        STEWARD_RATE_LIMIT_FACTOR: factor,
        STEWARD_JOB_POLL_MS: '200',
        STEWARD_WEBHOOK_ALLOW_LOOPBACK: 'true',
        STEWARD_LOG_LEVEL: 'info',
      });
      const started: Process[] = [];
      const start = async (extra: Record<string, string>) => {
        const one = spawnMain(extra);
        running.push(one);
        started.push(one);
        await one.waitForLog('Steward is listening');
      };
      // The first API process migrates and seeds the store; the others find it ready.
      await start(env('api', api1));
      await Promise.all([
        start(env('api', api2)),
        start({ ...env('worker', 0), STEWARD_WORKER_CONCURRENCY: '4' }),
        start({ ...env('worker', 0), STEWARD_WORKER_CONCURRENCY: '4' }),
      ]);
      const nginx = startNginx(path.join(dir, String(entry)), entry, [api1, api2], bot);
      running.push(nginx);
      await until(
        'nginx to answer',
        async () =>
          (await request(`${url}/readyz`).catch(() => undefined))?.statusCode === 200 ? true : undefined,
        10_000,
      );
      // The bot calls the API through nginx, and its webhook comes back through nginx.
      if (withBot) await start({ ...env('bot', bot), STEWARD_API_URL: url });
      return {
        url,
        stop: async () => {
          for (const one of started) one.child.kill('SIGTERM');
          const codes = await Promise.all(started.map((one) => one.exited));
          expect(codes.map((c) => c.code)).toEqual(started.map(() => 0));
          nginx.kill('SIGTERM');
          await new Promise((resolve) => nginx.once('exit', resolve));
        },
      };
    }

    // The bot's own webhook would add deliveries to the counts: it joins in the next test.
    test('200 teams through nginx: every job once, no duplicate team, each webhook delivered once', async () => {
      const { url, stop } = await deploy('1000', false);
      await provisionOnceThrough(url, rows, receiver);
      const metrics = await request(`${url}/metrics`);
      expect(metrics.statusCode).toBe(404);
      expect(await metrics.body.json()).toEqual({
        error: { code: 'NotFound', message: 'No such resource.' },
      });
      await stop();
    }, 240_000);

    test('through nginx, with the bot: one rate limit across the API processes; the bot is reached and gets its webhooks', async () => {
      const { url, stop } = await deploy('1', true);
      await oneLimitThrough(url);

      // The bot registered its webhook through nginx, at nginx's address.
      const [hook] = await rows<{ id: string; url: string }>(
        "select id, url from hooks where url like '%/api/notifications'",
      );
      expect(hook?.url).toBe(`${url}/api/notifications`);
      // A team requested through nginx: the worker's deliveries to the bot go through nginx too.
      const token = await issuer.mint({ id: PEOPLE.megan });
      const created = await call(`${url}/api/v1.0/teams/provisioning`, 'POST', token, {
        template: { id: 'project' },
        team: { name: 'Through nginx' },
      });
      expect(created.status).toBe(201);
      const delivered = await until(
        "the bot's deliveries",
        async () => {
          const events = await rows<{ event_type: string; status: string }>(
            `select event_type, status from hook_deliveries where hook_id = '${hook!.id}'`,
          );
          const done = events.filter((e) => e.status === 'delivered').map((e) => e.event_type);
          return done.includes('team_provisioning_completed') && done.length === events.length
            ? events
            : undefined;
        },
        30_000,
      );
      expect(delivered.filter((e) => e.status !== 'delivered')).toEqual([]);

      // /api/messages reaches the bot: botbuilder itself refuses an activity that is not one.
      const messages = await request(`${url}/api/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      await messages.body.dump();
      expect(messages.statusCode).toBe(400);
      await stop();
    }, 120_000);
  },
);
