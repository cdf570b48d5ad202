import { loadConfig } from '../../src/config';
import { startSteward } from '../../src/main';
import pino from 'pino';
import { createTestDatabase, type TestDatabase } from '../support/databases';
import { startTestSteward, TEST_SECRET, type TestSteward } from '../support/steward';
import { cardText, FakeConnector } from './support/fakeConnector';
import { ALEX, type BotHarness, startBotHarness } from './support/botHarness';

describe('STEWARD_ROLE=bot', () => {
  let database: TestDatabase;
  let api: TestSteward;
  let bot: BotHarness;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    api = await startTestSteward(database);
    const connector = new FakeConnector();
    await connector.start();
    bot = await startBotHarness(
      'sqlite',
      { STEWARD_ROLE: 'bot', STEWARD_API_URL: api.url },
      {},
      {
        database,
        connector,
      },
    );
  });
  afterAll(async () => {
    await bot?.close();
    await bot?.connector.close();
    await api?.close();
    await database?.drop();
  });

  it('runs the bot alone, calling the API it is pointed at', async () => {
    const mark = bot.connector.sent.length;
    await bot.say(ALEX, 'new team');
    expect(cardText(bot.lastCard(ALEX, mark).card)).toContain('Project team');
    const token = await bot.steward.userToken(ALEX.aadObjectId);
    expect((await bot.steward.call('GET', '/api/v1.0/me/catalog/templates', { token })).status).toBe(404);
  });

  it('needs STEWARD_API_URL', async () => {
    const config = loadConfig({
      STEWARD_PORT: '0',
      STEWARD_DATA_DIR: database.dataDir,
      STEWARD_DATABASE_URL: database.url,
      STEWARD_AUTH_SECRET: TEST_SECRET,
      STEWARD_ROLE: 'bot',
    });
    await expect(startSteward(config, pino({ level: 'silent' }))).rejects.toThrow(/STEWARD_API_URL/);
  });
});
