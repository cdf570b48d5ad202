import { createServer, request as forward, type Server } from 'node:http';
import { ALEX, type BotHarness, startBotHarness } from '../support/botHarness';
import { actionData, cardText } from '../support/fakeConnector';
import { PEOPLE } from '../../support/steward';

const LABELS_PATH = '/api/v1.0/me/labels';
const WARNING = 'the sensitivity labels could not be read for the request form';

/**
 * A loopback proxy in front of Steward's API for the bot: it passes every call on, except the
 * caller's sensitivity labels, which it refuses with the API's 403.
 */
async function labelRefusingProxy(target: () => string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    if (!target()) {
      // Steward is still starting (the bot registers its webhook at start-up): come back later.
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
      res.end(JSON.stringify({ error: { code: 'starting', message: 'Not yet.' } }));
      return;
    }
    if (req.url?.split('?')[0] === LABELS_PATH) {
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'forbidden', message: 'Labels are not readable.' } }));
      return;
    }
    const upstream = forward(
      `${target()}${req.url}`,
      { method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
}

describe('the request form when the labels cannot be read', () => {
  let bot: BotHarness;
  let proxy: { url: string; server: Server };
  const logLines: Array<Record<string, unknown>> = [];
  beforeAll(async () => {
    let api = '';
    proxy = await labelRefusingProxy(() => api);
    bot = await startBotHarness('sqlite', { STEWARD_API_URL: proxy.url }, {}, undefined, logLines);
    api = bot.steward.url;
  });
  afterAll(async () => {
    await bot?.close();
    proxy?.server.closeAllConnections();
    await new Promise((resolve) => proxy?.server.close(resolve));
  });

  const warnings = () => logLines.filter((line) => line.msg === WARNING);

  it('still shows the form, and logs the failure at warn on every path that draws it', async () => {
    // The form itself: "Client engagement" carries a label.
    const form = bot.cardOfAnswer(
      await bot.execute(ALEX, 'pickTemplate', { templateId: 'client-engagement' }),
    );
    expect(cardText(form)).toContain('Client');
    expect(warnings()).toHaveLength(1);
    const data = actionData(form, 'submitRequest') as Record<string, unknown>;
    // "Check name", and a submission the form refuses, draw the form again.
    bot.cardOfAnswer(await bot.execute(ALEX, 'checkName', { ...data, name: 'Falcon' }));
    expect(warnings()).toHaveLength(2);
    bot.cardOfAnswer(await bot.execute(ALEX, 'submitRequest', { ...data, name: '   ' }));
    expect(warnings()).toHaveLength(3);
    // "Try again" draws the form of an earlier request.
    const mark = bot.connector.sent.length;
    bot.cardOfAnswer(await bot.execute(ALEX, 'submitRequest', { ...data, name: 'Falcon' }));
    const jobs = await bot.steward.call<{ value: Array<{ id: string }> }>('GET', '/api/v1.0/me/jobs', {
      token: await bot.steward.userToken(ALEX.aadObjectId),
    });
    const jobId = jobs.body.value[0]!.id;
    expect(bot.connector.sent.length).toBeGreaterThan(mark);
    // Try again is for a request that ended: Adele rejects it first.
    const job = await bot.steward.call<{ data: { approval: { id: string } } }>(
      'GET',
      `/api/v1.0/jobs/${jobId}`,
      {
        token: await bot.steward.userToken(ALEX.aadObjectId),
      },
    );
    const rejected = await bot.steward.call(
      'POST',
      `/api/v1.0/approvals/${job.body.data.approval.id}/reject`,
      {
        token: await bot.steward.userToken(PEOPLE.adele),
        body: {},
      },
    );
    expect(rejected.status).toBe(200);
    await bot.execute(ALEX, 'retryRequest', { jobId });
    expect(warnings()).toHaveLength(4);
    for (const line of warnings()) {
      expect(line.level).toBe(40);
      expect(line).toMatchObject({ labelId: expect.any(String), err: expect.objectContaining({}) });
    }
  });
});
