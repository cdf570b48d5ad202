/** Jest runs the TypeScript sources directly; `npm run typecheck` does the type checking. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { diagnostics: false }],
  },
  globalSetup: '<rootDir>/test/support/globalSetup.ts',
  setupFiles: ['<rootDir>/test/support/setupEachFile.ts'],
  testTimeout: 30000,
};
