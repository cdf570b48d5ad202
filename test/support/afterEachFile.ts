import { takeCoverage } from 'node:v8';

// Runs in each test file's realm once its framework is installed (jest.config.js
// `setupFilesAfterEnv`).

// When V8 counts coverage (NODE_V8_COVERAGE, `STEWARD_TEST_COVERAGE=1 npm test`), the counts of
// this file are written once it ends: a Jest worker is stopped 500 ms after it is asked to exit,
// too soon for the counts V8 writes at exit. Without NODE_V8_COVERAGE this does nothing.
afterAll(() => takeCoverage());
