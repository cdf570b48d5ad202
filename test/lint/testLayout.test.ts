import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Tests mirror src/ (docs/guides/development.md, its list item on tests): the tests of
 * `src/<layer>/<feature>/` are in `test/<layer>/<feature>/`, a test that drives a feature over HTTP
 * among them, and a folder of `test/<layer>/` names a feature folder (or a module) of
 * `src/<layer>/`. Tests that span features (test/concurrency, test/e2e, test/cluster) sit beside the
 * layers, and `support/` folders hold harnesses, not tests.
 */
const root = path.join(__dirname, '..', '..');

/** Feature folders with no tests of their own, and where their behaviour is tested instead. */
const WITHOUT_TESTS: Record<string, string> = {
  // The HTTP layer's parts: every feature's tests drive them (test/services/<feature>/), and
  // test/api/server/ the server as a whole.
  'api/middleware': 'test/services/access, test/api/server',
  'api/routes': 'test/services/<feature>',
  // The data several job types carry (types and their event payloads), in the tests of the jobs
  // that carry it.
  'services/jobData': 'test/services/provisioning, test/services/approvals',
  // The store's parts of these features run under their service's tests, on both databases.
  'store/access': 'test/services/access',
  'store/approvals': 'test/services/approvals',
  'store/catalog': 'test/services/catalog',
  'store/directory': 'test/services/directory',
  'store/graphBudget': 'test/services/jobs, test/platform/graph',
  'store/joining': 'test/services/joining',
  'store/labels': 'test/services/labels',
  'store/lifecycle': 'test/services/lifecycle',
  'store/reports': 'test/services/reports',
  'store/teams': 'test/services/teams',
};

const folders = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => statSync(path.join(dir, name)).isDirectory())
        .sort()
    : [];

const hasTests = (dir: string): boolean =>
  existsSync(dir) && readdirSync(dir, { recursive: true }).some((name) => String(name).endsWith('.test.ts'));

/** `<layer>/<feature>` of every feature folder of src/. */
const features = folders(path.join(root, 'src')).flatMap((layer) =>
  folders(path.join(root, 'src', layer)).map((feature) => `${layer}/${feature}`),
);

test('every feature folder of src/ has its tests in the same place under test/', () => {
  const missing = features.filter(
    (feature) => !(feature in WITHOUT_TESTS) && !hasTests(path.join(root, 'test', feature)),
  );
  expect(missing).toEqual([]);
});

test('the allow-list names only feature folders that have no tests of their own', () => {
  const stale = Object.keys(WITHOUT_TESTS).filter(
    (feature) => !features.includes(feature) || hasTests(path.join(root, 'test', feature)),
  );
  expect(stale).toEqual([]);
});

test('every folder of test/<layer>/ names a feature folder or module of src/<layer>/', () => {
  const layers = folders(path.join(root, 'src')).filter((layer) =>
    existsSync(path.join(root, 'test', layer)),
  );
  const strays = layers.flatMap((layer) =>
    folders(path.join(root, 'test', layer))
      .filter((name) => name !== 'support')
      .filter(
        (name) =>
          !existsSync(path.join(root, 'src', layer, name)) &&
          !existsSync(path.join(root, 'src', layer, `${name}.ts`)),
      )
      .map((name) => `test/${layer}/${name}`),
  );
  expect(strays).toEqual([]);
});
