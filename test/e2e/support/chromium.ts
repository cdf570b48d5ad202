import { spawnSync } from 'node:child_process';
import { type Browser, chromium } from 'playwright-core';

/**
 * The Chromium the end-to-end tests open the playground's page in: `STEWARD_CHROMIUM`, else
 * Debian's `chromium` package (which `.ci/run` installs). Playwright drives it; it downloads no
 * browser of its own.
 */
export function chromiumPath(): string {
  return process.env.STEWARD_CHROMIUM || '/usr/bin/chromium';
}

/** Why Chromium cannot run here, or undefined when it can (asks only `--version`). */
export function chromiumUnavailable(): string | undefined {
  const run = spawnSync(chromiumPath(), ['--version'], { encoding: 'utf8', timeout: 20_000 });
  if (run.status === 0 && /Chrom/.test(run.stdout)) return undefined;
  return `${chromiumPath()} does not start (${run.error?.message ?? (run.stderr.trim() || `exit ${run.status}`)}): install Debian's chromium or set STEWARD_CHROMIUM`;
}

/**
 * Headless Chromium (no sandbox: CI runs as root) that reaches only this machine: every other host
 * name fails at once instead of waiting on a name lookup this machine cannot answer (the
 * playground's page asks a CDN for its fonts).
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ['--no-sandbox', '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'],
  });
}
