// Lint rules for the whole package; formatting is Prettier's job (`npm run format`).
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');

/** An import of one of our folders (`src/<name>`) from a folder beside or below it: `../name`, `../../name/x`. */
const ours = (...names) => `^(\\.\\./)+(${names.join('|')})(/|$)`;
/** An import of a package (or one of its paths). */
const pkg = (...names) => `^(${names.join('|')})(/|$)`;
const SQL = pkg('kysely', 'pg', 'better-sqlite3');
const BOT_SDK = pkg('botbuilder[a-z-]*', 'botframework-[a-z-]+', 'adaptivecards-templating');
const HTTP_SERVER = pkg('restify');

/** Every folder of ours directly under src/. */
const ALL = [
  'lib',
  'contract',
  'domain',
  'store',
  'platform',
  'services',
  'api',
  'bot',
  'client',
  'config',
  'compose',
  'cli',
  'cluster',
  'main',
];
/** Every folder of ours but those named: what a layer may not import. */
const except = (...allowed) => ours(...ALL.filter((name) => !allowed.includes(name)));

/**
 * The layers (docs/architecture.md): what each folder may not import. Data flows one way: lib <-
 * contract <- domain <- store, platform <- services <- api; the bot reaches the API only through
 * the client, which shares the contract with the API; lib (generic helpers) imports nothing of
 * ours and anyone may import it; only the composition root (`main.ts`, `compose/`) and the admin
 * commands (`cli/`) know every layer. A folder's own entry replaces its parent's (platform/graph is
 * stricter than platform).
 */
const LAYERS = [
  {
    folder: 'lib',
    why: 'lib holds generic helpers: it imports nothing of ours, and no SQL, HTTP server or bot SDK',
    forbidden: [except(), SQL, BOT_SDK, HTTP_SERVER, pkg('pino')],
  },
  {
    folder: 'contract',
    why: 'the contract is the wire models the API and the client share: it imports src/lib only',
    forbidden: [except('lib'), SQL, BOT_SDK, HTTP_SERVER, pkg('undici', 'pino')],
  },
  {
    folder: 'domain',
    why: 'the domain is pure business rules: it imports src/contract and src/lib only, and no I/O library',
    forbidden: [except('lib', 'contract'), SQL, BOT_SDK, HTTP_SERVER, pkg('undici', 'pino')],
  },
  {
    folder: 'store',
    why: 'the store persists domain types: it imports src/domain, src/contract and src/lib',
    forbidden: [except('lib', 'contract', 'domain', 'config'), BOT_SDK, HTTP_SERVER],
  },
  {
    folder: 'platform',
    why: 'a platform adapter implements the port over domain types (the embedded one keeps its simulated tenant in the store)',
    forbidden: [except('lib', 'contract', 'domain', 'store', 'config'), BOT_SDK, HTTP_SERVER],
  },
  {
    folder: 'platform/graph',
    why: 'the Graph adapter implements the port over Microsoft Graph, never over our store',
    forbidden: [except('lib', 'contract', 'domain', 'config'), BOT_SDK, HTTP_SERVER, SQL],
  },
  {
    folder: 'services',
    why: 'services use domain, store and platform; they know neither HTTP nor the bot',
    forbidden: [except('lib', 'contract', 'domain', 'store', 'platform', 'config'), BOT_SDK, HTTP_SERVER],
  },
  {
    folder: 'api',
    why: 'routes go through services: the API imports services, domain, contract and lib, never store or platform',
    forbidden: [except('lib', 'contract', 'domain', 'services', 'config'), BOT_SDK, SQL],
  },
  {
    folder: 'bot',
    why: 'the bot talks to the API only through src/client (its types and values included) and uses src/lib',
    forbidden: [except('lib', 'client'), SQL, HTTP_SERVER],
  },
  {
    folder: 'client',
    why: 'the client imports nothing of ours but the contract it shares with the API (src/contract) and src/lib',
    forbidden: [except('lib', 'contract'), SQL, BOT_SDK, HTTP_SERVER],
  },
  {
    folder: 'config',
    why: 'configuration reads the environment into plain settings: it imports src/domain, src/contract and src/lib',
    forbidden: [except('lib', 'contract', 'domain')],
  },
  {
    folder: 'cluster',
    why: 'the cluster supervisor and proxy start and route processes; they know no layer of the product',
    forbidden: [except('lib')],
  },
];

/** The services layer's own rule, which the rules below extend (they replace it for their files). */
const SERVICES = LAYERS.find((layer) => layer.folder === 'services');
const layerPatterns = ({ folder, why, forbidden }) =>
  forbidden.map((regex) => ({ regex, message: `Layer ${folder}: ${why}.` }));

/**
 * What one service feature (a folder of src/services) may import of another: the shared folders
 * (made of what several features use, named for what it is), the job engine, and a short list of
 * public service ports. Anything else of another feature is its insides.
 */
const SHARED_SERVICES = ['jobData', 'workspace'];
const SERVICE_PORTS = [
  'jobs/[A-Za-z]+',
  'audit/[A-Za-z]+',
  'access/[A-Za-z]+',
  'webhooks/events',
  'directory/directory',
  'catalog/catalog',
  'labels/sensitivityLabels',
  'teams/metadata',
  'approvals/approvalStages',
  'approvals/approvalPlanning',
];
const FEATURES_WHY =
  'a service feature imports another only through the shared folders (services/jobData, ' +
  'services/workspace), the job engine (services/jobs) and the public ports audit, access, ' +
  'webhooks/events, directory/directory, catalog/catalog, labels/sensitivityLabels, teams/metadata, ' +
  'approvals/approvalStages and approvals/approvalPlanning';
const ENGINE_WHY =
  'services/jobs is the job engine: it imports no service feature (job types register where the ' +
  'program is composed, src/compose/jobTypes.ts), only domain, store, platform, contract, lib and ' +
  'its own files';
/** From a file `depth` folders below src/services, an import of another service folder. */
const serviceFolder = (depth) => `^(\\.\\./){${depth}}[A-Za-z]`;
const allowedFrom = (depth) =>
  `^(\\.\\./){${depth}}(?!(${[...SHARED_SERVICES.map((name) => `${name}/.+`), ...SERVICE_PORTS].join('|')})$)[A-Za-z]`;
/** A feature's files at each depth (src/services/<feature>/x.ts is 1); the engine's replaces them. */
const SERVICE_FEATURE_RULES = [1, 2, 3].map((depth) => ({
  files: [`src/services/${'*/'.repeat(depth)}*.ts`],
  patterns: [
    ...layerPatterns(SERVICES),
    { regex: allowedFrom(depth), message: `Service features: ${FEATURES_WHY}.` },
  ],
}));
const ENGINE_RULE = {
  files: ['src/services/jobs/**/*.ts'],
  patterns: [
    ...layerPatterns(SERVICES),
    { regex: serviceFolder(1), message: `Job engine: ${ENGINE_WHY}.` },
    { regex: ours('config'), message: `Job engine: ${ENGINE_WHY}.` },
  ],
};

/**
 * What one bot feature (a folder of src/bot) may import of another: nothing. What several features
 * use lives in src/bot/shared (or cards, conversations, understanding, and the top-level files of
 * src/bot); i18n merges every feature's words, so it alone imports them all. The shared places
 * import no feature either. Each block keeps the bot's layer rule, which it replaces for its files.
 */
const BOT = LAYERS.find((layer) => layer.folder === 'bot');
const BOT_FEATURES = ['approvals', 'requests', 'lifecycle', 'joining', 'drift', 'welcome', 'identity'];
const BOT_SHARED = ['shared', 'cards', 'conversations', 'understanding'];
const BOT_FEATURES_WHY =
  'a bot feature imports no other feature: what several use lives in src/bot/shared (or cards, ' +
  'conversations, understanding, i18n, the top-level files of src/bot), and the shared places ' +
  'import no feature';
const BOT_FEATURE_RULES = [...BOT_FEATURES, ...BOT_SHARED].map((folder) => ({
  files: [`src/bot/${folder}/**/*.ts`],
  patterns: [
    ...layerPatterns(BOT),
    {
      regex: ours(...BOT_FEATURES.filter((feature) => feature !== folder)),
      message: `Bot features: ${BOT_FEATURES_WHY}.`,
    },
  ],
}));

module.exports = tseslint.config(
  {
    ignores: [
      'dist/',
      'dist-simulator/',
      'node_modules/',
      'data/',
      'coverage/',
      'devTools/',
      'test/e2e/artifacts/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-control-regex': 'off',
      eqeqeq: ['error', 'always'],
    },
  },
  // A folder's own rule replaces its parent's (platform/graph is stricter than platform).
  ...LAYERS.map((layer) => ({
    files: [`src/${layer.folder}/**/*.ts`],
    rules: { 'no-restricted-imports': ['error', { patterns: layerPatterns(layer) }] },
  })),
  // Within the services layer: features import each other only through what is allowed, and the
  // job engine imports none (docs/architecture.md, Layers).
  ...[...SERVICE_FEATURE_RULES, ENGINE_RULE].map(({ files, patterns }) => ({
    files,
    rules: { 'no-restricted-imports': ['error', { patterns }] },
  })),
  {
    // What the lifecycle evaluator makes per team and per decision, 100 000 teams at a time. V8 keeps
    // an object made by spreading another and then adding properties (`{ ...base, action }`) alive
    // through young-generation collections, so an evaluation promoted its garbage to the old
    // generation by the tens of MiB (bench/RESULTS.md, lifecycle, 2026-11-24): name the properties,
    // or spread last (`{ action, ...base }`). Overriding a spread object's own fields does no harm.
    files: [
      'src/domain/lifecycle/**/*.ts',
      'src/services/lifecycle/{walker,actions,evaluations}.ts',
      'src/services/audit/audit.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ObjectExpression[properties.0.type="SpreadElement"][properties.length>1]',
          message:
            "On the evaluator's per-team path, do not spread first and add properties after: V8 keeps such objects alive through young-generation collections. Name the properties, or spread last.",
        },
      ],
    },
  },
  {
    files: ['**/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        __dirname: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        fetch: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  // Only src/config reads the environment: every setting is then described once
  // (src/config/settings.ts) and documented (docs/reference/configuration.md). A tool that needs
  // the environment for a child process or a setting of its own asks src/config/processEnv.ts.
  {
    files: ['src/**/*.ts'],
    ignores: ['src/config/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message:
            'Read the environment in src/config (a setting in settings.ts, or processEnv.ts), so that every setting is described once.',
        },
      ],
    },
  },
  // Within the bot: no feature imports another's insides (docs/architecture.md, bot/).
  ...BOT_FEATURE_RULES.map(({ files, patterns }) => ({
    files,
    rules: { 'no-restricted-imports': ['error', { patterns }] },
  })),
);
