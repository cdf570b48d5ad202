#!/usr/bin/env node
/**
 * `npm run dev`: compiles src/ into dist/ on every change (TypeScript's watch mode, in this process)
 * and restarts Steward after each compilation without errors; its JSON log lines are printed by
 * pino-pretty, readable. A compilation with errors keeps the last good Steward running.
 * Ctrl-C stops both. Arguments after `--` go to Steward (`npm run dev -- …`).
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');
const pretty = require('pino-pretty');
const { sourceHash } = require('./build');

const ROOT = path.resolve(__dirname, '..');
const MAIN = path.join(ROOT, 'dist', 'main.js');
/** TypeScript's "Found N errors. Watching for file changes." messages (singular and plural). */
const WATCHING = new Set([6193, 6194]);

const output = pretty({
  colorize: process.stdout.isTTY,
  ignore: 'pid,hostname,service',
  translateTime: 'HH:MM:ss.l',
});
let child;
let stopping = false;

function startSteward() {
  child = spawn(process.execPath, [MAIN, ...process.argv.slice(2)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout.pipe(output, { end: false });
}

/** Stops the running Steward (SIGTERM, then SIGKILL after 5 s); resolves once it has exited. */
function stopSteward() {
  const running = child;
  child = undefined;
  if (!running || running.exitCode !== null || running.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => running.kill('SIGKILL'), 5000);
    running.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    running.kill('SIGTERM');
  });
}

let restarting = Promise.resolve();
function compiled(errorCount) {
  if (errorCount > 0 || stopping) return;
  // What dist/ was compiled from, so that `npm start` and the tools know it is current.
  fs.writeFileSync(path.join(ROOT, 'dist', '.source-hash'), `${sourceHash()}\n`);
  restarting = restarting.then(stopSteward).then(() => {
    if (!stopping) startSteward();
  });
}

const host = ts.createWatchCompilerHost(
  path.join(ROOT, 'tsconfig.build.json'),
  {},
  ts.sys,
  ts.createEmitAndSemanticDiagnosticsBuilderProgram,
  (diagnostic) => process.stderr.write(ts.formatDiagnosticsWithColorAndContext([diagnostic], formatHost)),
  (diagnostic, _newLine, _options, errorCount) => {
    process.stderr.write(`${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}\n`);
    if (WATCHING.has(diagnostic.code)) compiled(errorCount ?? 0);
  },
);
const formatHost = {
  getCanonicalFileName: (name) => name,
  getCurrentDirectory: () => ROOT,
  getNewLine: () => '\n',
};
const watch = ts.createWatchProgram(host);

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    stopping = true;
    watch.close();
    void restarting.then(stopSteward).then(() => process.exit(0));
  });
}
