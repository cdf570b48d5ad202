import type { Agent } from 'undici';
import { createGraphPlatform } from '../../src/platform/graph';
import { createTestDatabase, type TestDatabase } from '../support/databases';
import { FakeGraph } from '../support/fakeGraph';
import { BOT, graphSettings, quickGraphOptions } from '../support/graphTenant';
import { startTestSteward } from '../support/steward';

/**
 * A Steward on Graph whose jobs cannot know its Teams app (neither STEWARD_TEAMS_APP_ID nor
 * MicrosoftAppId) says so once when it starts, naming the setting, rather than only in the log
 * of each job whose welcome is skipped.
 */
let fake: FakeGraph;
let dispatcher: Agent;
const databases: TestDatabase[] = [];

beforeAll(async () => {
  fake = await FakeGraph.start({ bot: BOT });
  dispatcher = fake.dispatcher();
});

afterAll(async () => {
  for (const db of databases) await db.drop();
  await dispatcher?.close();
  await fake?.close();
});

async function startLogs(env: Record<string, string>): Promise<Array<Record<string, unknown>>> {
  const db = await createTestDatabase('sqlite');
  databases.push(db);
  const lines: Array<Record<string, unknown>> = [];
  const platform = createGraphPlatform(
    { ...fake.config(), teamsAppId: undefined },
    quickGraphOptions(fake, dispatcher),
  );
  const app = await startTestSteward(
    db,
    { ...graphSettings(fake), STEWARD_BOT_ENABLED: 'true', ...env },
    { platform, botWebhook: false },
    lines,
  );
  await app.close();
  return lines;
}

const warnings = (lines: Array<Record<string, unknown>>) =>
  lines.filter((line) => line.level === 40 && String(line.msg).includes('STEWARD_TEAMS_APP_ID'));

test('one warning at start, naming STEWARD_TEAMS_APP_ID, when the Teams app cannot be known', async () => {
  const lines = await startLogs({});
  expect(warnings(lines)).toHaveLength(1);
  expect(String(warnings(lines)[0]?.msg)).toMatch(/no welcome message/);
  // The first start of a Steward with its bot in this file loads the bot's modules: on a loaded
  // machine that alone takes longer than the default 30 s.
}, 120_000);

test('none when the manifest id is set', async () => {
  expect(warnings(await startLogs({ STEWARD_TEAMS_APP_ID: BOT.teamsAppId }))).toEqual([]);
}, 120_000);
