import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Config, loadConfig } from '../../src/config';
import { DEMO_CHOICES } from '../support/demoChoices';

/**
 * STEWARD_TEAMS_APP_ID means one thing wherever it is read: the `id` of Steward's Teams app
 * manifest, whose default in `npm run manifest` is the bot's app id, and so here too.
 */
const GRAPH = {
  ...DEMO_CHOICES,
  STEWARD_AUTH_SECRET: 'a-secret-that-is-long-enough-for-hs256-0123456789',
  STEWARD_PLATFORM: 'graph',
  STEWARD_GRAPH_TENANT_ID: '11111111-2222-3333-4444-555555555555',
  STEWARD_GRAPH_CLIENT_ID: '66666666-7777-8888-9999-000000000000',
  STEWARD_GRAPH_CLIENT_SECRET: 's',
};
const BOT = {
  MicrosoftAppId: 'b0b0b0b0-0000-4000-8000-00000000b0b0',
  MicrosoftAppPassword: 'p',
  MicrosoftAppTenantId: '11111111-2222-3333-4444-555555555555',
};

let cwd: string;
beforeEach(() => {
  cwd = mkdtempSync(path.join(os.tmpdir(), 'steward-teams-app-'));
});
afterEach(() => rmSync(cwd, { recursive: true, force: true }));

function teamsAppId(env: Record<string, string>): string | undefined {
  const platform = loadConfig({ ...GRAPH, ...env }, cwd).platform as Extract<
    Config['platform'],
    { kind: 'graph' }
  >;
  return platform.teamsAppId;
}

test('unset, it is the bot’s app id, as the manifest’s id is by default', () => {
  expect(teamsAppId(BOT)).toBe(BOT.MicrosoftAppId);
});

test('set, it is the manifest id given', () => {
  expect(teamsAppId({ ...BOT, STEWARD_TEAMS_APP_ID: '0f5c6d7e-1a2b-4c3d-8e9f-a0b1c2d3e4f5' })).toBe(
    '0f5c6d7e-1a2b-4c3d-8e9f-a0b1c2d3e4f5',
  );
});

test('neither set, it is not known', () => {
  expect(teamsAppId({})).toBeUndefined();
});
