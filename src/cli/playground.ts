import './compileCache';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadDotEnv, stewardPort } from '../config';
import { playgroundEnv } from '../config/processEnv';
import {
  findPlaygroundPerson,
  PLAYGROUND_CONFIG_FILE,
  PLAYGROUND_PEOPLE,
  playgroundPort,
  playgroundUser,
  renderPlaygroundConfig,
} from './playgroundConfig';

const USAGE = `Opens a local chat with Steward in the Microsoft 365 Agents Playground (no Microsoft 365 tenant).

  npm run playground [-- --as <person>] [--port <port>] [--bot <messaging endpoint>]

--as      who chats: ${PLAYGROUND_PEOPLE.join(', ')} (first name, UPN or object id; default alex).
          Run one playground per person, each in its own terminal and browser tab.
--port    the playground's port (default ${playgroundPort('alex')} for Alex, +1 for each next person).
--bot     Steward's bot endpoint (default http://127.0.0.1:<port>/api/messages, with the port Steward
          listens on: STEWARD_PORT, else PORT, from the environment or .env, else 3978).

Start Steward first (npm start). Set TEAMSAPPTESTER_BROWSER=none to keep the playground from
opening a browser. Its log goes to devTools/.`;

/** `npm run playground`: runs the Agents Playground CLI with the config of the chosen person. */
function main(): void {
  loadDotEnv();
  const { values } = parseArgs({
    options: {
      as: { type: 'string', default: 'alex' },
      port: { type: 'string' },
      bot: { type: 'string', default: `http://127.0.0.1:${stewardPort()}/api/messages` },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const person = findPlaygroundPerson(values.as);
  if (!person) {
    process.stderr.write(`No playground person "${values.as}".\n\n${USAGE}\n`);
    process.exit(2);
  }
  const port = values.port === undefined ? playgroundPort(person) : Number(values.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    process.stderr.write('--port takes a port number.\n');
    process.exit(2);
  }
  const root = path.resolve(__dirname, '..', '..');
  const devTools = path.join(root, 'devTools');
  mkdirSync(devTools, { recursive: true });
  // Alex uses the file at the root; the others get the same file with themselves as current user.
  let configPath = path.join(root, PLAYGROUND_CONFIG_FILE);
  if (person !== 'alex') {
    configPath = path.join(devTools, `${person}${PLAYGROUND_CONFIG_FILE}`);
    writeFileSync(configPath, renderPlaygroundConfig(person));
  }
  const cli = require.resolve('@microsoft/m365agentsplayground/cli.js');
  // Its server would listen on every interface: the preload keeps it on loopback (loopbackListen.ts).
  const loopback = path.join(__dirname, 'loopbackListen.js');
  const args = ['--require', loopback, cli, '--app-endpoint', values.bot!, '--channel-id', 'msteams'];
  args.push('--port', String(port));
  args.push('--disable-telemetry');
  process.stdout.write(
    `Chatting as ${playgroundUser(person).name} on http://127.0.0.1:${port} with the bot at ${values.bot}\n`,
  );
  const child = spawn(process.execPath, args, {
    cwd: root,
    stdio: 'inherit',
    env: playgroundEnv(configPath, path.join(devTools, `m365agentsplayground-${person}.log`)),
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

main();
