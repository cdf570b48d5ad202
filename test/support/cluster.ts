import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const CLUSTER = path.join(__dirname, '..', '..', 'dist', 'cli', 'cluster.js');

/** A process of a running cluster, as its `cluster ready` log line names it. */
export interface ClusterProcess {
  name: string;
  role: 'api' | 'worker' | 'bot';
  pid: number;
  url: string;
}

/** `npm run start:cluster` running as a child of the test. */
export interface RunningCluster {
  /** The entry (reverse proxy). */
  url: string;
  processes: ClusterProcess[];
  /** Every log line so far, parsed. */
  logs(): Array<Record<string, unknown>>;
  /** SIGTERM; resolves with the exit code (null if it had to be killed after 30 s). */
  stop(): Promise<number | null>;
  /** SIGKILL the launcher and every process it reported; for clean-up after a failure. */
  kill(): void;
}

/** Whether a process still exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Starts the cluster script with `args` and `env` added to this process's environment. */
export function startCluster(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 90_000,
): Promise<RunningCluster> {
  const child: ChildProcess = spawn(process.execPath, [CLUSTER, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Array<Record<string, unknown>> = [];
  let stderr = '';
  let partial = '';
  const processes: ClusterProcess[] = [];
  // Every pid the cluster reported, restarted processes included, for kill().
  const pids = new Set<number>();
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-20_000);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const kill = () => {
    for (const pid of [child.pid, ...pids]) {
      if (pid && alive(pid)) process.kill(pid, 'SIGKILL');
    }
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      kill();
      reject(new Error(`the cluster was not ready within ${timeoutMs / 1000} s\n${stderr}`));
    }, timeoutMs);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the cluster exited (${code}) before it was ready\n${stderr}`));
    });
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      partial += chunk;
      const complete = partial.split('\n');
      partial = complete.pop()!;
      for (const line of complete) {
        let entry: Record<string, unknown>;
        try {
          entry = JSON.parse(line) as Record<string, unknown>;
        } catch {
          continue; // not a log line
        }
        lines.push(entry);
        if (entry.msg === 'process ready' && typeof entry.pid === 'number') pids.add(entry.pid);
        if (entry.msg !== 'cluster ready') continue;
        clearTimeout(timer);
        processes.push(...(entry.processes as ClusterProcess[]));
        resolve({
          url: String(entry.url),
          processes,
          logs: () => lines,
          stop: async () => {
            if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
            child.kill('SIGTERM');
            const deadline = setTimeout(kill, 30_000);
            const code = await exited;
            clearTimeout(deadline);
            return code;
          },
          kill,
        });
      }
    });
  });
}

/** A request a webhook receiver got. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on loopback that records every request and answers 200. */
export class WebhookReceiver {
  readonly received: Received[] = [];
  private server?: Server;
  url = '';

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        this.received.push({
          path: req.url ?? '/',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('ok');
      });
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
