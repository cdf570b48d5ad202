'use strict';
// Each test file's time, when STEWARD_TEST_TIMING names a file (scripts/test.js sets it for
// `--timing`): the Jest runtime (runtime.js) marks a file's start and end, and the worker appends one
// JSON line for it: its wall time, the worker's own CPU (the file's Stewards in-process, Jest's
// module loading) and the CPU of the child processes it started and waited for (Stewards,
// tools, browsers). A file whose wall time far exceeds its CPU waits on real time.
const { appendFileSync, readFileSync } = require('node:fs');

const output = process.env.STEWARD_TEST_TIMING;

/**
 * CPU seconds (user + system) spent by this process's children that have ended and been waited
 * for, descendants included (Linux's cutime and cstime); undefined elsewhere.
 */
function childrenCpu() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the command's name: state is field 3, so cutime and cstime (16 and 17) are at 13 and 14.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}

/** Marks a test file's start; the function returned records its end. Does nothing unless timed. */
function startFile(testPath, project) {
  if (!output) return () => {};
  const wall = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const children = childrenCpu() ?? 0;
  return () => {
    const used = process.cpuUsage(cpu);
    const line = {
      file: testPath,
      project,
      wall: Number(process.hrtime.bigint() - wall) / 1e9,
      cpu: (used.user + used.system) / 1e6,
      children: (childrenCpu() ?? 0) - children,
    };
    appendFileSync(output, `${JSON.stringify(line)}\n`);
  };
}

module.exports = { childrenCpu, startFile };
