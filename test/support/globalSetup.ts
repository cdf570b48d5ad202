import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * Builds `dist/` when it is not current (the CLI and process tests run the compiled commands) and
 * says which databases run.
 */
export default function globalSetup(): void {
  const root = path.resolve(__dirname, '..', '..');
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build.js'), '--if-stale'], {
    cwd: root,
    stdio: 'inherit',
    // Named, so that Node.js does not hand it down: the build is not counted (environment.ts).
    env: { ...process.env, NODE_V8_COVERAGE: undefined },
  });
  process.stdout.write(
    process.env.STEWARD_TEST_DATABASE_URL
      ? '\nIntegration suites run on SQLite and on PostgreSQL (STEWARD_TEST_DATABASE_URL).\n'
      : '\nIntegration suites run on SQLite only: set STEWARD_TEST_DATABASE_URL=postgres://… to add PostgreSQL.\n',
  );
}
