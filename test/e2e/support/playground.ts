import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { request } from 'undici';
import {
  personalChatId,
  type PlaygroundPerson,
  playgroundUser,
  type PlaygroundUser,
  renderPlaygroundConfig,
} from '../../../src/cli/playgroundConfig';
import { freePort } from '../../support/ports';
import { ChatStream } from './chatStream';

/** The playground's command-line entry point, or undefined when the package is not installed. */
export function playgroundCli(): string | undefined {
  try {
    return require.resolve('@microsoft/m365agentsplayground/cli.js');
  } catch {
    return undefined;
  }
}

/**
 * Why the playground cannot run on this machine (not installed, or its CLI does not start), or
 * undefined when it can. Asks only `--version`: no port, no network.
 */
export function playgroundUnavailable(): string | undefined {
  const cli = playgroundCli();
  if (!cli) return 'the npm package @microsoft/m365agentsplayground is not installed';
  const run = spawnSync(process.execPath, [cli, '--version'], { encoding: 'utf8', timeout: 20_000 });
  if (run.status !== 0 || !/^\d+\.\d+\.\d+/.test(run.stdout.trim())) {
    return `its CLI does not start here (${run.error?.message ?? run.stderr.trim() ?? `exit ${run.status}`})`;
  }
  return undefined;
}

/** Options of {@link startPlayground}. */
export interface PlaygroundOptions {
  /** Who the playground's current user is. */
  person: PlaygroundPerson;
  /** The bot's messaging endpoint, e.g. http://127.0.0.1:3978/api/messages. */
  botEndpoint: string;
  /** A folder of this test's own: config, log and any recording go there. */
  dir: string;
  /** How long to wait for it to answer, ms. */
  readyTimeoutMs?: number;
  /**
   * The playground's time zone (IANA), which it sends as each activity's `localTimezone`; the
   * machine's when omitted. (Its `locale` is always `en-US`: this playground version fixes it.)
   */
  timeZone?: string;
}

/** The answer of an `Action.Execute` through the playground (the bot's invoke response body). */
export interface InvokeAnswer {
  type?: string;
  value?: unknown;
}

/** A running playground, driven over its HTTP endpoints, and what its page would show. */
export interface Playground {
  person: PlaygroundPerson;
  user: PlaygroundUser;
  url: string;
  conversationId: string;
  /** The page's view: every message pushed over the websocket. */
  stream: ChatStream;
  /** What the playground did when its page opened: the bot gets installationUpdate and conversationUpdate. */
  install(): Promise<void>;
  /** Types `text` into the personal chat; resolves to the message id. */
  say(text: string): Promise<string>;
  /** Clicks an `Action.Execute` on the card of message `replyToId`; `data` includes the card's inputs. */
  execute(
    replyToId: string,
    verb: string,
    data: Record<string, unknown>,
    title?: string,
  ): Promise<InvokeAnswer>;
  /** The playground's own log so far. */
  log(): string;
  /** Stops the process (SIGTERM, then SIGKILL) and closes the websocket. */
  close(): Promise<void>;
}

/**
 * Starts the Microsoft 365 Agents Playground CLI as a child process: headless, on a free loopback
 * port, with `person` as its current user, its log in `dir`, telemetry off, pointed at
 * `botEndpoint`; resolves once `/_debug/ping` answers and its page's websocket is connected.
 */
export async function startPlayground(options: PlaygroundOptions): Promise<Playground> {
  const cli = playgroundCli();
  if (!cli) throw new Error('@microsoft/m365agentsplayground is not installed');
  const dir = path.join(options.dir, options.person);
  mkdirSync(dir, { recursive: true });
  const configPath = path.join(dir, '.m365agentsplayground.yml');
  writeFileSync(configPath, renderPlaygroundConfig(options.person));
  const logPath = path.join(dir, 'm365agentsplayground.log');
  // The port is chosen free; should another process bind it first, the Playground listens on
  // another, which the service URL it was given would not name: it starts again on a new port.
  let started: { child: ChildProcess; url: string; output: () => string } | undefined;
  for (let attempt = 1; !started; attempt++) {
    const url = `http://127.0.0.1:${await freePort()}`;
    const child = spawnPlayground(cli, url, dir, configPath, logPath, options);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      await waitUntilReady(child, url, options.readyTimeoutMs ?? 30_000, () => output);
      started = { child, url, output: () => output };
    } catch (error) {
      await stop(child);
      if (!(error instanceof PortTaken) || attempt >= 3) throw error;
    }
  }
  const { child, url } = started;
  const stream = await ChatStream.open(url).catch(async (error: unknown) => {
    await stop(child);
    throw error;
  });
  const user = playgroundUser(options.person);
  const conversationId = personalChatId(options.person);
  const post = async (route: string, body: unknown): Promise<unknown> => {
    const res = await request(`${url}${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`POST ${route} answered ${res.statusCode}: ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  const chat = encodeURIComponent(conversationId);
  return {
    person: options.person,
    user,
    url,
    conversationId,
    stream,
    install: async () => {
      await post(`/_debug/conversation/${chat}/installation`, {});
    },
    say: async (text) => {
      const answer = (await post(`/_conversation/v1/conversations/${chat}/messages`, {
        from: { id: user.id },
        text,
        textFormat: 'plain',
      })) as { messageId: string };
      return answer.messageId;
    },
    execute: async (replyToId, verb, data, title) =>
      (await post('/_conversation/v1/invoke', {
        name: 'adaptiveCard/action',
        from: { id: user.id },
        conversation: { id: conversationId },
        replyToId,
        value: { action: { type: 'Action.Execute', title, verb, data } },
      })) as InvokeAnswer,
    log: () => {
      try {
        return readFileSync(logPath, 'utf8');
      } catch {
        return started.output();
      }
    },
    close: async () => {
      stream.close();
      await stop(child);
    },
  };
}

/**
 * The playground CLI's environment, nothing of this process's but its PATH: `dir` its home, no
 * browser opened, its log in `logPath`, no telemetry.
 */
export function playgroundEnv(dir: string, logPath: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    TEAMSAPPTESTER_BROWSER: 'none',
    M365_AGENTS_PLAYGROUND_LOGFILE: logPath,
    APPLICATION_INSIGHTS_NO_STATSBEAT: 'true',
  };
}

/** The Playground's CLI listening on `url`'s port, its service URL there, pointed at the bot. */
function spawnPlayground(
  cli: string,
  url: string,
  dir: string,
  configPath: string,
  logPath: string,
  options: PlaygroundOptions,
): ChildProcess {
  // On loopback only, as `npm run playground` starts it (src/cli/loopbackListen.ts).
  const loopback = path.resolve(__dirname, '..', '..', '..', 'dist', 'cli', 'loopbackListen.js');
  const args = ['--require', loopback, cli, '-e', options.botEndpoint, '-c', 'msteams'];
  args.push('-p', new URL(url).port);
  args.push('--service-url', `${url}/_connector`, '--disable-telemetry');
  return spawn(process.execPath, args, {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...playgroundEnv(dir, logPath),
      M365_AGENTS_PLAYGROUND_CONFIG_PATH: configPath,
      NO_PROXY: '*',
      ...(options.timeZone ? { TZ: options.timeZone } : {}),
    },
  });
}

/** The Playground listened on another port than the one it was given. */
class PortTaken extends Error {}

async function waitUntilReady(child: ChildProcess, url: string, timeoutMs: number, output: () => string) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const listening = /Listening on (\d+)/.exec(output());
    if (listening && url !== `http://127.0.0.1:${listening[1]}`) {
      throw new PortTaken(`the playground took port ${listening[1]} instead of ${url}`);
    }
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the playground exited (${child.exitCode ?? child.signalCode}): ${output()}`);
    }
    try {
      const res = await request(`${url}/_debug/ping`, { headersTimeout: 2000, bodyTimeout: 2000 });
      if ((await res.body.text()) === 'pong') return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the playground did not answer on ${url} within ${timeoutMs} ms: ${output()}`);
}

/** Ends a child: SIGTERM, then SIGKILL after 3 s; resolves once it has exited. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}
