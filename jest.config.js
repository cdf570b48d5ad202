/**
 * Jest runs the TypeScript sources directly; `npm run typecheck` does the type checking. The suites
 * are three projects (`npm test` runs them all, `npm run test:unit` and friends one each):
 *
 * - `unit`: pure modules (lib, contract, domain, config, the bot's cards, the client,
 *   lint and docs checks): no database and no Steward; at most a loopback fake or a short child
 *   process.
 * - `system`: whole processes and outside tools (the Agents Playground and Chromium, the cluster and
 *   nginx, crash and heap tests, shutdown, the Agents Toolkit): they measure time and memory, and
 *   run one at a time.
 * - `integration`: the rest: the API, the worker, the bot and the store over real HTTP and real
 *   databases.
 */
/** Test files (paths under test/, as regular expressions) of the system project. */
const SYSTEM = [
  'e2e/.*',
  'cluster/(cluster|nginx)',
  'services/jobs/crash\\w*',
  'heap',
  'shutdown',
  'manifest/toolkit\\w*',
];
/** Test files of the unit project. */
const UNIT = [
  '(lib|contract|domain|config|client|lint|docs|scripts)/.*',
  'bot/cards/.*',
  'bot/i18n/catalog',
  // Approval cards' retry timing, over botbuilder's MemoryStorage
  'bot/approvals/approverDeliveries',
  // The understanding engine: pure text in, shapes out
  'bot/understanding/(understand|people|intents|grammar)',
  // The card renderers' own tests, beside the features' conversations
  'bot/\\w+/(approvalCards|lifecycleCardRenderers|lifecycleResponseCards|galleryCard|progressCard|requestCards|requestFormCard)',
  'manifest/(?!toolkit)\\w+',
  'cluster/proxy',
  // The Node.js version check every program runs first
  'runtime',
  'support/contract',
];
/** A regular expression matching the test files named by `paths`. */
const files = (paths) => `/test/(${paths.join('|')})\\.test\\.ts$`;

/** What every project shares. */
const common = {
  testEnvironment: '<rootDir>/test/support/environment.ts',
  // V8's compiled code of each module kept from one test file to the next in a worker (runtime.js)
  runtime: '<rootDir>/test/support/runtime.js',
  roots: ['<rootDir>/test'],
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
  setupFiles: ['<rootDir>/test/support/setupEachFile.ts'],
  setupFilesAfterEnv: ['<rootDir>/test/support/afterEachFile.ts'],
};

module.exports = {
  globalSetup: '<rootDir>/test/support/globalSetup.ts',
  testTimeout: 30000,
  // The longest files first, by their seconds in a whole run (test/support/fileSeconds.json).
  testSequencer: '<rootDir>/test/support/sequencer.js',
  // Coverage: `STEWARD_TEST_COVERAGE=1 npm test` has V8 count it and scripts/coverage.js report it
  // against its floor (Jest's own `--coverage` keeps the debugger on, which triples the CPU).
  projects: [
    { ...common, displayName: 'unit', testRegex: files(UNIT) },
    {
      ...common,
      displayName: 'integration',
      testRegex: '/test/.*\\.test\\.ts$',
      testPathIgnorePatterns: ['/node_modules/', files(UNIT), files(SYSTEM)],
    },
    { ...common, displayName: 'system', testRegex: files(SYSTEM) },
  ],
};
