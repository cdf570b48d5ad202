import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { StewardOverrides } from '../../../src/main';
import { createTestDatabase, type TestDatabase } from '../../support/databases';
import { startTestSteward, type TestSteward } from '../../support/steward';
import { chromiumUnavailable } from './chromium';
import { type Playground, playgroundUnavailable, startPlayground } from './playground';

/**
 * `describe` when the Microsoft 365 Agents Playground (and, for a suite that opens its page,
 * Chromium) can run here, else `describe.skip` with a loud note; in CI the playground is part of
 * the suite, so one that cannot start fails the run.
 */
export function describeWithPlayground(needs: { chromium?: boolean } = {}): jest.Describe {
  const unavailable = playgroundUnavailable() ?? (needs.chromium ? chromiumUnavailable() : undefined);
  if (!unavailable) return describe;
  process.stderr.write(
    `\n*** SKIPPED: the Microsoft 365 Agents Playground cannot start: ${unavailable} ***\n\n`,
  );
  if (process.env.CI === 'true')
    throw new Error(`the Microsoft 365 Agents Playground must run in CI: ${unavailable}`);
  return describe.skip;
}

/** Steward's settings behind the playgrounds: its bot on, and its worker and deliveries quick. */
export const E2E_STEWARD_ENV: Record<string, string> = {
  STEWARD_BOT_ENABLED: 'true',
  STEWARD_BOT_POLL_MS: '200',
  STEWARD_BOT_POLL_MAX_MS: '1000',
  STEWARD_WEBHOOK_RETRY_DELAY_MS: '200',
  STEWARD_WORKER_CONCURRENCY: '2',
  STEWARD_JOB_POLL_MS: '100',
};

/** Steward all-in-one on SQLite with its bot, and a playground for Alex and one for Adele. */
export interface E2eStack {
  steward: TestSteward;
  alex: Playground;
  adele: Playground;
  /** Writes each playground's log next to `artifactsDir`'s steps, stops everything. */
  close(artifactsDir: string): Promise<void>;
}

/**
 * Starts the stack; the playgrounds send activities in `timeZone` (the machine's when omitted).
 * `steward` adds settings and overrides (a moved clock) to Steward's.
 */
export async function startE2eStack(
  timeZone?: string,
  steward: { env?: Record<string, string>; overrides?: StewardOverrides } = {},
): Promise<E2eStack> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'steward-e2e-'));
  const database: TestDatabase = await createTestDatabase('sqlite');
  const app = await startTestSteward(database, { ...E2E_STEWARD_ENV, ...steward.env }, steward.overrides);
  const botEndpoint = `${app.url}/api/messages`;
  const playgrounds: Playground[] = [];
  const close = async (artifactsDir: string) => {
    for (const playground of playgrounds) {
      writeFileSync(path.join(artifactsDir, `playground-${playground.person}.log`), playground.log());
      await playground.close();
    }
    await app.close();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const person of ['alex', 'adele'] as const)
      playgrounds.push(await startPlayground({ person, botEndpoint, dir, timeZone }));
  } catch (error) {
    await close(os.tmpdir()).catch(() => undefined);
    throw error;
  }
  return { steward: app, alex: playgrounds[0]!, adele: playgrounds[1]!, close };
}
