import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

// `STEWARD_TEST_COVERAGE=1 npm test` counts only what the suites run in Jest's workers
// (scripts/coverage.js). Node.js hands NODE_V8_COVERAGE to every child process whatever `env` it is
// given, so test/support/environment.ts takes it out of the worker's own environment. Without that,
// under coverage this fails, and every Steward, tool and browser a suite starts counts its code too.
test('a process a test starts does not count coverage, whatever env it is given', async () => {
  const print = ['-e', 'process.stdout.write(String(process.env.NODE_V8_COVERAGE))'];
  const inherited = await promisify(execFile)(process.execPath, print);
  const named = await promisify(execFile)(process.execPath, print, { env: { ...process.env, HOME: '/' } });
  expect(inherited.stdout).toBe('undefined');
  expect(named.stdout).toBe('undefined');
});
