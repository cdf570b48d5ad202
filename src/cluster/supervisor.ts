import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import type { Logger } from 'pino';
import { backoffMs } from '../lib/backoff';
import { sleep } from '../lib/sleep';
import type { Backend } from './proxy';

/** The Steward roles a cluster runs as separate processes. */
export type ClusterRole = 'api' | 'worker' | 'bot';

/** How one process slot is started. */
export interface SlotSpec {
  name: string;
  role: ClusterRole;
  port: number;
  /** The whole environment of the process. */
  env: NodeJS.ProcessEnv;
}

/** What every slot shares: the program, limits, and whom to tell when a slot gives up. */
export interface SupervisorOptions {
  /** The compiled `main.js` of Steward. */
  entry: string;
  log: Logger;
  maxRestarts: number;
  readyTimeoutMs: number;
  /** How long a process may take to stop after SIGTERM before it is killed, ms. */
  stopTimeoutMs: number;
  /** Called once when a slot has exited more often than `maxRestarts` allows. */
  onGiveUp: (slot: ProcessSlot) => void;
}

/**
 * One Steward process of the cluster, kept running: started, watched until `/readyz` answers,
 * restarted (with a growing pause, a bounded number of times) when it exits unexpectedly.
 */
export class ProcessSlot implements Backend {
  ready = false;
  restarts = 0;
  private child?: ChildProcess;
  private stopping = false;
  /** Restarts are the supervisor's job only once the first start succeeded; before, start() fails. */
  private supervised = false;

  constructor(
    readonly spec: SlotSpec,
    private readonly options: SupervisorOptions,
  ) {}

  get name(): string {
    return this.spec.name;
  }
  get port(): number {
    return this.spec.port;
  }
  get pid(): number | undefined {
    return this.child?.pid;
  }
  get url(): string {
    return `http://127.0.0.1:${this.spec.port}`;
  }

  /** Starts the process and resolves once it is ready; rejects if it exits or times out first. */
  async start(): Promise<void> {
    const child = spawn(process.execPath, [this.options.entry], {
      env: this.spec.env,
      stdio: ['ignore', 'inherit', 'inherit'],
      // Its own process group: Ctrl-C in a terminal reaches the launcher, which stops the processes in order.
      detached: true,
    });
    this.child = child;
    child.once('exit', (code, signal) => this.exited(child, code, signal));
    await this.untilReady(child);
    this.ready = true;
    this.supervised = true;
    this.options.log.info(
      { process: this.name, role: this.spec.role, pid: child.pid, port: this.port },
      'process ready',
    );
  }

  /** SIGTERM, then SIGKILL after the stop timeout; resolves once the process has exited. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.ready = false;
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => {
      this.options.log.warn(
        { process: this.name, pid: child.pid },
        'process did not stop in time; killing it',
      );
      child.kill('SIGKILL');
    }, this.options.stopTimeoutMs);
    await exited;
    clearTimeout(timer);
  }

  /** SIGKILL without waiting: the last resort when the cluster itself is exiting. */
  kill(): void {
    this.stopping = true;
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }

  private exited(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    this.ready = false;
    if (this.stopping || !this.supervised || child !== this.child) return;
    if (this.restarts >= this.options.maxRestarts) {
      this.options.log.error(
        { process: this.name, pid: child.pid, code, signal, restarts: this.restarts },
        'process exited too often; giving up',
      );
      this.options.onGiveUp(this);
      return;
    }
    this.restarts += 1;
    const pauseMs = backoffMs({ baseMs: 250, capMs: 10_000 }, this.restarts - 1);
    this.options.log.warn(
      { process: this.name, pid: child.pid, code, signal, restart: this.restarts, pauseMs },
      'process exited unexpectedly; restarting it',
    );
    void sleep(pauseMs).then(async () => {
      if (this.stopping) return;
      try {
        await this.start();
      } catch (error) {
        // Its exit handler has already decided what comes next (another restart, or giving up).
        this.options.log.warn({ process: this.name, err: error }, 'restarted process did not become ready');
      }
    });
  }

  /** Polls `/readyz` until it answers 200; fails when the process exits or the deadline passes. */
  private async untilReady(child: ChildProcess): Promise<void> {
    const deadline = Date.now() + this.options.readyTimeoutMs;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`${this.name} exited (${child.exitCode ?? child.signalCode}) before it was ready`);
      }
      if (this.stopping) throw new Error(`${this.name} was stopped before it was ready`);
      if ((await statusOf(`${this.url}/readyz`)) === 200) return;
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`${this.name} was not ready within ${this.options.readyTimeoutMs / 1000} s`);
      }
      await sleep(100);
    }
  }
}

/** The status of a GET, or 0 when nothing answers. */
function statusOf(url: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false, timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
  });
}
