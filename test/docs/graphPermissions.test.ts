import { readFileSync } from 'node:fs';
import path from 'node:path';
import { GRAPH_APPLICATION_PERMISSIONS } from '../../src/platform/graph/permissions';

/**
 * The Graph application permissions an administrator reads about (docs/guides/deploying.md,
 * section 5) are the ones `npm run admin -- grant-permissions` grants: one list, in code.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const guide = readFileSync(path.join(ROOT, 'docs', 'guides', 'deploying.md'), 'utf8');

/** The permissions the first column of section 5's table names (a cell may name several). */
function documentedPermissions(): string[] {
  const section = guide.split(/^## 5\. .*$/m)[1]?.split(/^## /m)[0] ?? '';
  const rows = section.split('\n').filter((line) => line.startsWith('| `'));
  return rows.flatMap((row) => [...(row.split('|')[1] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1]!));
}

test('the permission table of the deployment guide lists exactly the permissions granted in code', () => {
  const documented = documentedPermissions();
  expect(documented.length).toBeGreaterThan(0);
  expect(new Set(documented).size).toBe(documented.length);
  expect([...documented].sort()).toEqual([...GRAPH_APPLICATION_PERMISSIONS].sort());
});
