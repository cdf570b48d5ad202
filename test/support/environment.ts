import { TestEnvironment } from 'jest-environment-node';
import type { EnvironmentContext, JestEnvironmentConfig } from '@jest/environment';

/**
 * Jest's Node.js environment, less one variable of the worker's own process.
 *
 * `STEWARD_TEST_COVERAGE=1 npm test` has V8 count what the suites run in-process (NODE_V8_COVERAGE,
 * scripts/coverage.js). Node.js hands that variable to every child process, whatever `env` the
 * spawn names (child_process copies it from the real `process.env`, which a test file's realm
 * cannot reach). The Stewards, tools and browsers the suites start would then count too: slower,
 * and V8's new space then outgrows `--max-semi-space-size` (heap.test.ts measures it). V8 took
 * the directory when the worker started and still writes the worker's own counts there.
 */
export default class StewardEnvironment extends TestEnvironment {
  constructor(config: JestEnvironmentConfig, context: EnvironmentContext) {
    delete process.env.NODE_V8_COVERAGE;
    super(config, context);
  }
}
