import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const MAIN = path.resolve(__dirname, '..', '..', 'dist', 'main.js');

export interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

/** `node dist/main.js` as a child process, with its JSON log lines and its exit. */
export interface Process {
  child: ChildProcess;
  logs: LogLine[];
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves with the first log line whose `msg` is `msg` (rejects if the process exits first). */
  waitForLog(msg: string): Promise<LogLine>;
}

export function spawnMain(env: Record<string, string>, cwd?: string): Process {
  const child = spawn(process.execPath, [MAIN], {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: LogLine[] = [];
  let stderr = '';
  let pending = '';
  const waiters: Array<{ msg: string; resolve: (line: LogLine) => void }> = [];
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const text of lines.filter(Boolean)) {
      const line = JSON.parse(text) as LogLine;
      logs.push(line);
      for (const waiter of waiters.filter((w) => w.msg === line.msg)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  return {
    child,
    logs,
    stderr: () => stderr,
    exited,
    waitForLog: (msg) => {
      const seen = logs.find((line) => line.msg === msg);
      if (seen) return Promise.resolve(seen);
      return Promise.race([
        new Promise<LogLine>((resolve) => waiters.push({ msg, resolve })),
        exited.then(({ code }) => {
          throw new Error(`exited with ${code} before logging "${msg}": ${stderr}`);
        }),
      ]);
    },
  };
}
