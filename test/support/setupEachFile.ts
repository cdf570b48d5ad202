import { adoptSqliteErrors } from './sqliteErrors';

// Runs in each test file's realm before its tests (jest.config.js `setupFiles`).
adoptSqliteErrors();
