import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { isCurrent, sourceHash } = require('../../scripts/build') as {
  isCurrent(root?: string): boolean;
  sourceHash(root?: string): string | undefined;
};

/** A project tree with sources, tsconfig files and a dist/ recording the hash it was built from. */
function project(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'steward-build-'));
  mkdirSync(path.join(root, 'src', 'cli'), { recursive: true });
  writeFileSync(path.join(root, 'src', 'main.ts'), 'export const a = 1;\n');
  writeFileSync(path.join(root, 'src', 'cli', 'token.ts'), 'export const b = 2;\n');
  writeFileSync(path.join(root, 'tsconfig.json'), '{}\n');
  writeFileSync(path.join(root, 'tsconfig.build.json'), '{}\n');
  mkdirSync(path.join(root, 'dist'));
  writeFileSync(path.join(root, 'dist', 'main.js'), '');
  writeFileSync(path.join(root, 'dist', '.source-hash'), `${sourceHash(root)}\n`);
  return root;
}

describe('scripts/build.js --if-stale: is dist/ current?', () => {
  let root: string;
  beforeEach(() => {
    root = project();
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('is current when it records the hash of the present sources', () => {
    expect(isCurrent(root)).toBe(true);
  });

  it('is stale when a source changes, a file is added, or a tsconfig changes', () => {
    writeFileSync(path.join(root, 'src', 'cli', 'token.ts'), 'export const b = 3;\n');
    expect(isCurrent(root)).toBe(false);
    const fresh = project();
    try {
      writeFileSync(path.join(fresh, 'src', 'extra.ts'), '');
      expect(isCurrent(fresh)).toBe(false);
      writeFileSync(path.join(fresh, 'dist', '.source-hash'), `${sourceHash(fresh)}\n`);
      expect(isCurrent(fresh)).toBe(true);
      writeFileSync(path.join(fresh, 'tsconfig.build.json'), '{ "compilerOptions": {} }\n');
      expect(isCurrent(fresh)).toBe(false);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  it('is stale when dist/ is missing or records nothing', () => {
    rmSync(path.join(root, 'dist', '.source-hash'));
    expect(isCurrent(root)).toBe(false);
    rmSync(path.join(root, 'dist'), { recursive: true });
    expect(isCurrent(root)).toBe(false);
  });

  // A production image may ship dist/ without the sources: nothing to compare, nothing to compile.
  it('is current without src/ as long as dist/main.js exists', () => {
    rmSync(path.join(root, 'src'), { recursive: true });
    expect(isCurrent(root)).toBe(true);
  });
});
