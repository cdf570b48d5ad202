import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The import-cycle rule (`.oxlintrc.json`: oxlint's `import/no-cycle`, type-only imports counted),
 * run by `npm run lint` over src/: here the project's own configuration runs on small source trees
 * written to a temporary folder, and a cycle, of types or of values, fails the lint.
 */
const root = path.join(__dirname, '..', '..');
const oxlint = path.join(root, 'node_modules', 'oxlint', 'bin', 'oxlint');

interface Diagnostic {
  code: string;
  filename: string;
  note?: string;
}

interface Lint {
  exitCode: number;
  diagnostics: Diagnostic[];
}

let tree: string;
beforeEach(() => {
  tree = mkdtempSync(path.join(os.tmpdir(), 'steward-cycles-'));
});
afterEach(() => rmSync(tree, { recursive: true, force: true }));

function write(files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
    writeFileSync(path.join(tree, file), text);
  }
}

/** Runs oxlint with the project's configuration on the tree's `src/`, as `npm run lint` does on ours. */
function lint(): Promise<Lint> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [oxlint, '--config', path.join(root, '.oxlintrc.json'), '--format', 'json', 'src'],
      { cwd: tree },
      (error, stdout) => {
        const exitCode = error ? Number(error.code) : 0;
        if (error && !Number.isInteger(exitCode)) return reject(error);
        try {
          resolve({
            exitCode,
            diagnostics: (JSON.parse(stdout) as { diagnostics: Diagnostic[] }).diagnostics,
          });
        } catch (parseError) {
          reject(new Error(`oxlint printed no report (${String(parseError)}): ${stdout}`));
        }
      },
    );
  });
}

/** The files the rule reports as importing along a cycle, sorted. */
function cyclic(result: Lint): string[] {
  return result.diagnostics
    .filter((d) => d.code === 'import(no-cycle)')
    .map((d) => d.filename.split(path.sep).join('/'))
    .sort();
}

describe('import cycle rule', () => {
  it('refuses two modules that import each other only for types', async () => {
    write({
      'src/config/index.ts':
        "import type { Section } from './sections';\nexport interface Config { s: Section }\n",
      'src/config/sections.ts':
        "import type { Config } from './index';\nexport type Section = Config['s'] | 1;\n",
    });
    const result = await lint();
    expect(cyclic(result)).toEqual(['src/config/index.ts', 'src/config/sections.ts']);
    expect(result.exitCode).toBe(1);
  });

  it('refuses a cycle through three modules, inline type specifiers and a folder index', async () => {
    write({
      'src/jobs/jobType.ts':
        "import { type Actions } from '../approvals';\nexport interface Deps { a: Actions }\n",
      'src/approvals/index.ts': "export { type Actions } from './timerJob';\n",
      'src/approvals/timerJob.ts':
        "import type { Deps } from '../jobs/jobType';\nexport interface Actions { fire(deps: Deps): void }\n",
    });
    const result = await lint();
    expect(cyclic(result)).toEqual([
      'src/approvals/index.ts',
      'src/approvals/timerJob.ts',
      'src/jobs/jobType.ts',
    ]);
    expect(result.exitCode).toBe(1);
  });

  it('refuses a cycle of values', async () => {
    write({
      'src/graph/client.ts': "import { budget } from './budget';\nexport const client = () => budget;\n",
      'src/graph/budget.ts': "import { client } from './client';\nexport const budget = () => client;\n",
    });
    const result = await lint();
    expect(cyclic(result)).toEqual(['src/graph/budget.ts', 'src/graph/client.ts']);
    expect(result.exitCode).toBe(1);
  });

  it('accepts parts that share a types module', async () => {
    write({
      'src/config/types.ts': 'export interface Config { port: number }\n',
      'src/config/index.ts':
        "import type { Config } from './types';\nimport { readPort } from './sections';\nexport const load = (): Config => ({ port: readPort() });\n",
      'src/config/sections.ts':
        "import type { Config } from './types';\nexport const readPort = (): Config['port'] => 80;\n",
    });
    expect(await lint()).toEqual({ exitCode: 0, diagnostics: [] });
  });

  it('runs on src/ in npm run lint', () => {
    const scripts = (
      JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    expect(scripts.lint).toMatch(/(^|&& )oxlint src( |$)/);
  });
});
