import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { LOOPBACK, onLoopback } from '../../src/cli/loopbackListen';
import { playgroundEnv, playgroundUnavailable } from '../e2e/support/playground';
import { freePort } from '../support/ports';

const PLAYGROUND = path.resolve(__dirname, '..', '..', 'dist', 'cli', 'playground.js');

/** Whether a connection to host:port is accepted. */
function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

describe('a listen that names no host goes to loopback (loopbackListen.ts)', () => {
  it('adds 127.0.0.1 to a port, a port and backlog, or options without a host', () => {
    const callback = () => undefined;
    expect(onLoopback([56150, callback])).toEqual([56150, LOOPBACK, callback]);
    expect(onLoopback(['56150'])).toEqual(['56150', LOOPBACK]);
    expect(onLoopback([56150, 511, callback])).toEqual([56150, LOOPBACK, 511, callback]);
    expect(onLoopback([{ port: 1 }, callback])).toEqual([{ port: 1, host: LOOPBACK }, callback]);
    expect(onLoopback([callback])).toEqual([0, LOOPBACK, callback]);
  });

  it('leaves a host, a path or a handle as they are', () => {
    expect(onLoopback([80, '0.0.0.0'])).toEqual([80, '0.0.0.0']);
    expect(onLoopback([{ port: 80, host: '::' }])).toEqual([{ port: 80, host: '::' }]);
    expect(onLoopback([{ path: '/tmp/s.sock' }])).toEqual([{ path: '/tmp/s.sock' }]);
    expect(onLoopback(['/tmp/s.sock'])).toEqual(['/tmp/s.sock']);
  });
});

const unavailable = playgroundUnavailable();
if (unavailable && process.env.CI === 'true') throw new Error(`the Agents Playground: ${unavailable}`);
const withPlayground = unavailable ? describe.skip : describe;
if (unavailable) console.warn(`Skipping \`npm run playground\`'s test: ${unavailable}`);

withPlayground('npm run playground', () => {
  let dir: string;
  let child: ChildProcess | undefined;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'steward-playground-'));
  });
  afterEach(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  // 127.0.0.2 is this machine too: a server on every interface answers there, one on 127.0.0.1 does not.
  it('answers on 127.0.0.1 only, and finds Steward on the port .env gives it', async () => {
    writeFileSync(path.join(dir, '.env'), 'STEWARD_PORT=4117\n');
    const port = await freePort();
    child = spawn(process.execPath, [PLAYGROUND, '--port', String(port)], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: playgroundEnv(dir, path.join(dir, 'playground.log')),
    });
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the playground did not listen: ${output}`)), 60_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString('utf8');
        if (output.includes(`Listening on ${port}`)) {
          clearTimeout(timer);
          resolve();
        }
      };
      child!.stdout!.on('data', read);
      child!.stderr!.on('data', read);
      child!.once('exit', (code) => reject(new Error(`the playground exited (${code}): ${output}`)));
    });
    expect(output).toContain('with the bot at http://127.0.0.1:4117/api/messages');
    expect(await connects('127.0.0.1', port)).toBe(true);
    expect(await connects('127.0.0.2', port)).toBe(false);
  });
});
