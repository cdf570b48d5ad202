import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { isCurrent, runtimeProblem, sourceHash } = require('../../scripts/build') as {
  isCurrent(root?: string): boolean;
  runtimeProblem(version: string): string | undefined;
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

/**
 * A copy of build.js in a tree of its own, as after `npm ci --omit=dev`: no TypeScript to resolve
 * (the tree has no node_modules), with the engines range `engines`.
 */
function prunedTree(engines = '>=22.15'): string {
  const root = project();
  mkdirSync(path.join(root, 'scripts'));
  copyFileSync(
    path.join(__dirname, '..', '..', 'scripts', 'build.js'),
    path.join(root, 'scripts', 'build.js'),
  );
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ engines: { node: engines } }));
  return root;
}

function runBuild(root: string, ...args: string[]) {
  return spawnSync(process.execPath, [path.join(root, 'scripts', 'build.js'), ...args], {
    cwd: root,
    encoding: 'utf8',
  });
}

describe('scripts/build.js once the dev dependencies are pruned', () => {
  it('succeeds without TypeScript when dist/ is compiled from these sources', () => {
    const root = prunedTree();
    try {
      const result = runBuild(root);
      expect(result.stderr).toContain('build: dist/ is already compiled from these sources');
      expect(result.status).toBe(0);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('fails, saying where to build, when dist/ is from other sources', () => {
    const root = prunedTree();
    try {
      writeFileSync(path.join(root, 'src', 'main.ts'), 'export const a = 2;\n');
      const result = runBuild(root);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('dist/ is missing or was compiled from other sources');
      expect(result.stderr).toContain('npm ci && npm run build');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('scripts/build.js on a Node.js outside engines', () => {
  it('says which Node.js to install before compiling anything', () => {
    const root = prunedTree('>=99.1');
    try {
      rmSync(path.join(root, 'dist'), { recursive: true });
      const result = runBuild(root, '--if-stale');
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(
        `Steward needs Node.js 99.1 or later (24 LTS recommended); this is Node.js ${process.versions.node}.`,
      );
      expect(result.stderr).toContain('eval "$(bash .ci/install-node)"');
      expect(result.stderr).not.toContain('Compiling');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('accepts the range package.json states', () => {
    expect(runtimeProblem(process.versions.node)).toBeUndefined();
    expect(runtimeProblem('22.15.0')).toBeUndefined();
    expect(runtimeProblem('24.0.0')).toBeUndefined();
    expect(runtimeProblem('22.14.0')).toContain('needs Node.js 22.15 or later');
    expect(runtimeProblem('20.20.2')).toContain('this is Node.js 20.20.2');
  });
});
