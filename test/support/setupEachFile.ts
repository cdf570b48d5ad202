import { adoptSqliteErrors } from './sqliteErrors';

// Runs in each test file's realm before its tests (jest.config.js `setupFiles`).
adoptSqliteErrors();

// `STEWARD_TEST_COVERAGE=1 npm test` has V8 count what runs in this process (scripts/coverage.js);
// the Stewards, tools and browsers the suites start are not counted, and write nothing.
delete process.env.NODE_V8_COVERAGE;
