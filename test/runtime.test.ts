import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { runtimeProblem } from '../src/runtime';

describe('the Node.js a program of Steward starts on (src/runtime.ts)', () => {
  it('accepts what package.json engines states, and names the version otherwise', () => {
    const range = (
      JSON.parse(readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as {
        engines: { node: string };
      }
    ).engines.node;
    expect(runtimeProblem(process.versions.node, range)).toBeUndefined();
    expect(runtimeProblem('22.15.0', '>=22.15')).toBeUndefined();
    expect(runtimeProblem('23.0.0', '>=22.15')).toBeUndefined();
    expect(runtimeProblem('22.14.0', '>=22.15')).toContain('needs Node.js 22.15 or later');
    expect(runtimeProblem('20.20.2', '>=22.15')).toContain('this is Node.js 20.20.2');
    expect(() => runtimeProblem('24.0.0', '^22 || ^24')).toThrow('engines.node must read');
  });

  // The compiled module in a tree of its own, whose package.json asks for a Node.js nobody has: the
  // program stops with the instructions before it loads anything else.
  it('stops the program before anything else loads, saying what to do', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'steward-runtime-'));
    try {
      mkdirSync(path.join(root, 'dist'));
      const source = readFileSync(path.join(__dirname, '..', 'src', 'runtime.ts'), 'utf8');
      const compiled = ts.transpileModule(source, {
        compilerOptions: {
          module: ts.ModuleKind.CommonJS,
          target: ts.ScriptTarget.ES2022,
          esModuleInterop: true,
        },
      });
      writeFileSync(path.join(root, 'dist', 'runtime.js'), compiled.outputText);
      writeFileSync(path.join(root, 'package.json'), JSON.stringify({ engines: { node: '>=99.1' } }));
      const result = spawnSync(
        process.execPath,
        ['-e', "require('./dist/runtime.js'); process.stdout.write('went on')"],
        { cwd: root, encoding: 'utf8' },
      );
      expect(result.status).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(
        `needs Node.js 99.1 or later (24 LTS recommended); this is Node.js ${process.versions.node}.`,
      );
      expect(result.stderr).toContain('then run `npm ci` again');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
