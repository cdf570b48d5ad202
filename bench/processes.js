'use strict';
// Child processes of the benchmarks: starting a server entry of `bench/servers` and reading what
// the kernel says about a process (memory, CPU) while it is loaded.
const { spawn } = require('node:child_process');
const { readdirSync, readFileSync } = require('node:fs');
const path = require('node:path');

/**
 * Runs `bench/servers/<script>` and resolves, once it prints its first line (JSON: where it listens,
 * its pid, …), with that object plus `label`, `stop()` and `exited()`. `env` is added to this
 * process's environment. BENCH_SERVER_ARGS passes node flags to the servers only, e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/prof`; BENCH_NODE, the node binary the servers run on (default:
 * this process's).
 */
function startServer(script, { args = [], env = {}, label = script } = {}) {
  const nodeArgs = (process.env.BENCH_SERVER_ARGS || '').split(' ').filter(Boolean);
  const entry = path.join(__dirname, 'servers', script);
  // BENCH_NODE runs the servers on another Node.js than the runner's (bench/ab.js --baseline-node).
  const child = spawn(process.env.BENCH_NODE || process.execPath, [...nodeArgs, entry, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => fail(new Error(`${label} did not start within 60 s`)), 60_000);
    const onExit = (code, signal) => fail(new Error(`${label} exited (${code ?? signal}) before listening`));
    const fail = (error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    child.once('exit', onExit);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', function onData(chunk) {
      output += chunk;
      const end = output.indexOf('\n');
      if (end < 0) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      child.stdout.off('data', onData);
      child.stdout.resume(); // anything printed later is drained so the child never blocks on it
      const stop = () =>
        new Promise((done) => {
          if (exited()) return done();
          child.once('exit', () => done());
          child.kill('SIGTERM');
        });
      try {
        resolve({ ...JSON.parse(output.slice(0, end)), label, stop, exited });
      } catch (error) {
        fail(error);
      }
    });
  });
}

/** Resident set size of a process in bytes (Linux), or null where /proc is not available. */
function rssOf(pid) {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Seconds of CPU a process has used, all its threads, user and system (Linux), or null. */
function cpuOf(pid) {
  try {
    // Fields 14 and 15 of /proc/<pid>/stat, after the parenthesised command name, in clock ticks
    // (USER_HZ, 100 on Linux).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/**
 * Nanoseconds of CPU a process's threads have run (Linux's schedstat), or null where /proc is not
 * available: exact where `cpuOf` counts 10 ms ticks, so a short measure is not a few ticks' luck.
 */
function cpuNsOf(pid) {
  let tasks;
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return null;
  }
  let sum = 0;
  for (const task of tasks) {
    try {
      sum += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // a thread that ended between the listing and the read
    }
  }
  return sum;
}

module.exports = { startServer, rssOf, cpuOf, cpuNsOf };
