import { createServer } from 'node:net';
import { createTestDatabase } from '../support/databases';
import { PEOPLE } from '../support/steward';
import { actionData, cardText, FakeConnector } from './support/fakeConnector';
import { ALEX, type BotHarness, startBotHarness } from './support/botHarness';

const myJobs = async (bot: BotHarness) =>
  (
    await bot.steward.call<{ value: Array<{ id: string }> }>('GET', '/api/v1.0/me/jobs', {
      token: await bot.steward.userToken(ALEX.aadObjectId),
    })
  ).body.value;

/** Requests a Project team as Alex; resolves to the progress card's activity id. */
async function requestProject(bot: BotHarness, name: string): Promise<string> {
  const mark = bot.connector.sent.length;
  const form = bot.cardOfAnswer(await bot.execute(ALEX, 'pickTemplate', { templateId: 'project' }));
  bot.cardOfAnswer(await bot.execute(ALEX, 'submitRequest', { ...actionData(form, 'submitRequest'), name }));
  return bot.progressCard(ALEX, mark).activityId;
}

const ready = (bot: BotHarness, activityId: string) =>
  bot.connector.waitFor(
    () => /Your team is ready/.test(cardText(bot.connector.currentCard(activityId))),
    20_000,
  );

describe('the bot without webhook deliveries', () => {
  let bot: BotHarness;
  beforeAll(async () => {
    bot = await startBotHarness('sqlite', {}, { botWebhook: false });
  });
  afterAll(() => bot?.close());

  it('completes the progress card by polling the job', async () => {
    const token = await bot.steward.userToken(PEOPLE.megan, ['GLOBAL_ADMIN']);
    expect(
      (await bot.steward.call<{ value: unknown[] }>('GET', '/api/v1.0/hooks', { token })).body.value,
    ).toEqual([]);
    const progress = await requestProject(bot, 'Polled');
    await ready(bot, progress);
  });
});

describe('the bot after a restart', () => {
  /** The requests the bot's state says are unfinished. */
  const unfinished = async (bot: BotHarness) =>
    (
      await bot.steward.steward.store.db
        .selectFrom('bot_state')
        .select('key')
        .where('key', 'like', 'following/%')
        .execute()
    ).map((row) => row.key);

  it('follows the requests it was following before, and finishes their cards', async () => {
    const database = await createTestDatabase('sqlite');
    const connector = new FakeConnector();
    await connector.start();
    const reuse = { database, connector };
    let bot: BotHarness | undefined;
    try {
      // No workers and no deliveries: the job waits, and only the bot's polling can move the card.
      bot = await startBotHarness(
        'sqlite',
        { STEWARD_WORKER_CONCURRENCY: '0' },
        { botWebhook: false },
        reuse,
      );
      const progress = await requestProject(bot, 'Resumed');
      expect(cardText(bot.connector.currentCard(progress))).toMatch(/Queued/);
      const [jobId] = (await myJobs(bot)).map((job) => job.id);
      expect(await unfinished(bot)).toEqual([`following/${jobId}`]);
      await bot.close();

      // A new process with workers, still without deliveries.
      bot = await startBotHarness('sqlite', {}, { botWebhook: false }, reuse);
      await ready(bot, progress);
      // Its job ended: nothing is left to follow at the next start.
      const deadline = Date.now() + 5_000;
      while ((await unfinished(bot)).length > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(await unfinished(bot)).toEqual([]);
    } finally {
      await bot?.close();
      await connector.close();
      await database.drop();
    }
  });
});

describe('the bot when deliveries are lost', () => {
  let bot: BotHarness;
  beforeAll(async () => {
    bot = await startBotHarness('sqlite');
  });
  afterAll(() => bot?.close());

  it('still completes the progress card by polling', async () => {
    const token = await bot.steward.userToken(PEOPLE.megan, ['GLOBAL_ADMIN']);
    const hooks = await bot.steward.call<{ value: Array<{ id: string }> }>('GET', '/api/v1.0/hooks', {
      token,
    });
    for (const hook of hooks.body.value)
      await bot.steward.call('DELETE', `/api/v1.0/hooks/${hook.id}`, { token });
    const progress = await requestProject(bot, 'Undelivered');
    await ready(bot, progress);
  });

  it('creates one request however often the same form is submitted', async () => {
    const mark = bot.connector.sent.length;
    const before = (await myJobs(bot)).length;
    const form = bot.cardOfAnswer(await bot.execute(ALEX, 'pickTemplate', { templateId: 'project' }));
    const submit = { ...actionData(form, 'submitRequest'), name: 'Twice' };
    // A double click: both at once; then the same card replayed later.
    const answers = await Promise.all([
      bot.execute(ALEX, 'submitRequest', submit),
      bot.execute(ALEX, 'submitRequest', submit),
    ]);
    const replay = await bot.execute(ALEX, 'submitRequest', submit);
    // Every click answers with the confirmation of the one request made.
    for (const answer of [...answers, replay])
      expect(cardText(bot.cardOfAnswer(answer))).toContain('Your team will be called **PRJ-Twice**.');
    const jobs = await myJobs(bot);
    expect(jobs).toHaveLength(before + 1);
    const jobIds = [jobs[0]!.id];
    // Progress cards of this request (their buttons carry its id); the short "is ready" messages
    // that end requests are not progress cards.
    const progressCards = bot.connector
      .messages(ALEX.conversationId, mark)
      .filter((m) => !cardText(m.body).includes('Request received'))
      .filter((m) => JSON.stringify(m.body).includes(`"jobId":"${String(jobIds[0])}"`));
    expect(progressCards).toHaveLength(1);
  });

  it('says so when a template is disabled between the gallery and the submit', async () => {
    const form = bot.cardOfAnswer(await bot.execute(ALEX, 'pickTemplate', { templateId: 'project' }));
    const token = await bot.steward.userToken(PEOPLE.patti, ['CATALOG_MANAGER']);
    const template = await bot.steward.call<{ templateConfiguration: { enabled: boolean } }>(
      'GET',
      '/api/v1.0/catalog/templates/project',
      { token },
    );
    template.body.templateConfiguration.enabled = false;
    expect(
      (await bot.steward.call('PUT', '/api/v1.0/catalog/templates/project', { token, body: template.body }))
        .status,
    ).toBe(200);
    const before = (await myJobs(bot)).length;
    const mark = bot.connector.sent.length;
    const answer = await bot.execute(ALEX, 'submitRequest', {
      ...actionData(form, 'submitRequest'),
      name: 'Late',
    });
    expect(answer.status).toBe(200);
    expect(cardText(bot.lastCard(ALEX, mark).card)).toMatch(/that template no longer exists/);
    // The old gallery's button, replayed: the same sentence.
    const picked = bot.connector.sent.length;
    await bot.execute(ALEX, 'pickTemplate', { templateId: 'project' });
    expect(cardText(bot.lastCard(ALEX, picked).card)).toMatch(/that template no longer exists/);
    expect(await myJobs(bot)).toHaveLength(before);
  });
});

describe('the bot when the API is down', () => {
  let bot: BotHarness;
  beforeAll(async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const deadPort = (server.address() as { port: number }).port;
    await new Promise((resolve) => server.close(resolve));
    bot = await startBotHarness('sqlite', { STEWARD_API_URL: `http://127.0.0.1:${deadPort}` });
  });
  afterAll(() => bot?.close());

  it('apologises with a request id, for a typed command and for a button', async () => {
    let mark = bot.connector.sent.length;
    await bot.say(ALEX, 'new team');
    const typed = cardText(bot.lastCard(ALEX, mark).card);
    expect(typed).toMatch(/could not reach Steward/);
    expect(typed).toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
    mark = bot.connector.sent.length;
    const answer = await bot.execute(ALEX, 'myRequests', {});
    expect(answer.status).toBe(200);
    expect(cardText(bot.lastCard(ALEX, mark).card)).toMatch(/could not reach Steward/);
  });
});
