import { randomUUID } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import { request } from 'undici';
import { serviceUrlRule } from '../../../src/compose/bot';
import { loadConfig } from '../../../src/config';
import { databaseKinds } from '../../support/databases';
import { TEST_SECRET, TENANT } from '../../support/steward';
import { actionData, cardText, verbsOf } from '../support/fakeConnector';
import { ADELE, ALEX, BOT, type BotHarness, SIOBHAN, startBotHarness } from '../support/botHarness';
import { DEMO_CHOICES } from '../../support/demoChoices';

const ATTACKER_SERVICE_URL = 'http://attacker.invalid:9/';
/** The bot's deadline for a request body in these tests (STEWARD_BODY_TIMEOUT_MS). */
const BODY_TIMEOUT_MS = 1000;

/** The forged activity of the attack: an approval clicked "by Adele", from a service URL of the caller's choosing. */
function forgedApproval(approvalId: string): Record<string, unknown> {
  return {
    id: randomUUID(),
    type: 'invoke',
    name: 'adaptiveCard/action',
    channelId: 'msteams',
    serviceUrl: ATTACKER_SERVICE_URL,
    from: { id: ADELE.teamsId, name: ADELE.name, aadObjectId: ADELE.aadObjectId },
    recipient: BOT,
    conversation: { id: ADELE.conversationId, conversationType: 'personal', tenantId: TENANT },
    channelData: { tenant: { id: TENANT } },
    value: { action: { type: 'Action.Execute', verb: 'approve', data: { approvalId, comment: 'forged' } } },
  };
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await request(`${url}/api/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.statusCode, text: await res.body.text() };
}

/** An address of this machine that is not loopback, when it has one. */
const outsideAddress = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && !a.internal && a.family === 'IPv4')?.address;

describe('a bot without MicrosoftAppId', () => {
  const base = {
    ...DEMO_CHOICES,
    STEWARD_PORT: '0',
    STEWARD_AUTH_SECRET: TEST_SECRET,
    STEWARD_DATA_DIR: '/nonexistent',
    // A non-loopback address also needs its public URL: set, so the bot's own rule is what refuses.
    STEWARD_PUBLIC_URL: 'https://steward.example.com',
  };

  it.each(['0.0.0.0', '::', '192.0.2.10'])(
    'refuses to start listening on %s, naming MicrosoftAppId',
    (host) => {
      expect(() => loadConfig({ ...base, STEWARD_HOST: host })).toThrow(
        /MicrosoftAppId.*not a loopback address/s,
      );
      expect(() => loadConfig({ ...base, STEWARD_HOST: host, STEWARD_ROLE: 'bot' })).toThrow(
        /MicrosoftAppId/,
      );
    },
  );

  it('starts on loopback, on any address with an app id, and for roles without the bot', () => {
    expect(loadConfig({ ...base, STEWARD_HOST: '127.0.0.1' }).bot.allowUnauthenticated).toBe(false);
    expect(loadConfig({ ...base, STEWARD_HOST: '::1' }).host).toBe('::1');
    const withId = {
      MicrosoftAppId: randomUUID(),
      MicrosoftAppPassword: 'x',
      MicrosoftAppTenantId: randomUUID(),
    };
    expect(loadConfig({ ...base, ...withId, STEWARD_HOST: '0.0.0.0' }).bot.appId).toBe(withId.MicrosoftAppId);
    expect(loadConfig({ ...base, STEWARD_HOST: '0.0.0.0', STEWARD_ROLE: 'api' }).role).toBe('api');
    expect(loadConfig({ ...base, STEWARD_HOST: '0.0.0.0', STEWARD_BOT_ENABLED: 'false' }).bot.enabled).toBe(
      false,
    );
    const unsafe = loadConfig({
      ...base,
      STEWARD_HOST: '0.0.0.0',
      STEWARD_BOT_ALLOW_UNAUTHENTICATED: 'true',
    });
    expect(unsafe.bot.allowUnauthenticated).toBe(true);
  });
});

describe.each(databaseKinds)('the forged-approval attack on a bot without MicrosoftAppId, on %s', (kind) => {
  let bot: BotHarness;
  let approvalId: string;
  let adeleCard: { activityId: string };

  beforeAll(async () => {
    // A body's deadline shortened from its 10 s default, for the 408 below.
    bot = await startBotHarness(kind, { STEWARD_BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS) });
    await bot.say(SIOBHAN, 'help');
    const form = bot.cardOfAnswer(
      await bot.execute(ALEX, 'pickTemplate', { templateId: 'client-engagement' }),
    );
    const submit = actionData(form, 'submitRequest')!;
    bot.cardOfAnswer(
      await bot.execute(ALEX, 'submitRequest', { ...submit, name: 'Forgery', owners: 'isaiah@example.com' }),
    );
    const created = await bot.connector.waitFor(() => bot.connector.sent.find((s) => s.kind === 'create'));
    const card = await bot.connector.waitFor(() =>
      bot.connector.messages(created.conversationId).find((m) => verbsOf(m.body).includes('approve')),
    );
    adeleCard = card;
    approvalId = String(actionData(bot.connector.currentCard(card.activityId)!, 'approve')!.approvalId);
  });
  afterAll(() => bot?.close());

  const adeleReference = async () => {
    const row = await bot.steward.steward.store.db
      .selectFrom('bot_state')
      .select('value')
      .where('key', '=', `users/${ADELE.aadObjectId}`)
      .executeTakeFirst();
    return row?.value ?? '';
  };
  it('refuses the activity when it reaches the bot from another machine through a local proxy', async () => {
    const res = await post(bot.steward.url, forgedApproval(approvalId), {
      'x-forwarded-for': '203.0.113.66',
    });
    expect(res.status).toBe(401);
    expect(JSON.parse(res.text)).toMatchObject({ error: { code: 'unauthorized' } });
    expect(res.text).toContain('MicrosoftAppId');
    // Nothing was decided in Adele's name and her conversation reference was not redirected.
    expect(await adeleReference()).not.toContain('attacker.invalid');
    expect(verbsOf(bot.connector.currentCard(adeleCard.activityId))).toContain('approve');
  });

  (outsideAddress ? it : it.skip)('refuses the activity from a non-loopback peer', async () => {
    // The harness listens on loopback; the bot's own listener is reached here from this machine's
    // outside address through a forwarding socket, so the peer the bot sees is that address.
    const { createServer, connect } = await import('node:net');
    const target = new URL(bot.steward.url);
    const relay = createServer((inbound) => {
      const outbound = connect({
        host: target.hostname,
        port: Number(target.port),
        localAddress: outsideAddress,
      });
      outbound.on('error', () => inbound.destroy());
      inbound.on('error', () => outbound.destroy());
      inbound.pipe(outbound).pipe(inbound);
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    try {
      const port = (relay.address() as { port: number }).port;
      const res = await post(`http://127.0.0.1:${port}`, forgedApproval(approvalId));
      expect(res.status).toBe(401);
      expect(await adeleReference()).not.toContain('attacker.invalid');
      expect(verbsOf(bot.connector.currentCard(adeleCard.activityId))).toContain('approve');
    } finally {
      relay.close();
    }
  });

  it('refuses an activity from this machine that names another service URL, sending nothing there', async () => {
    const res = await post(bot.steward.url, forgedApproval(approvalId));
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toMatchObject({ error: { code: 'untrustedServiceUrl' } });
    expect(await adeleReference()).not.toContain('attacker.invalid');
    expect(verbsOf(bot.connector.currentCard(adeleCard.activityId))).toContain('approve');
  });

  it('answers 408 to a body that does not arrive in time (STEWARD_BODY_TIMEOUT_MS), and closes the connection', async () => {
    const { connect } = await import('node:net');
    const target = new URL(bot.steward.url);
    const socket = connect({ host: target.hostname, port: Number(target.port) });
    const started = Date.now();
    const answer = await new Promise<string>((resolve, reject) => {
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk) => (text += chunk));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
      socket.write(
        'POST /api/messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"type":',
      );
    });
    socket.destroy();
    const seconds = (Date.now() - started) / 1000;
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('requestTimeout');
    expect(answer).toContain(`within ${BODY_TIMEOUT_MS / 1000} s`);
    expect(seconds).toBeGreaterThanOrEqual((BODY_TIMEOUT_MS - 50) / 1000);
    expect(seconds).toBeLessThan(BODY_TIMEOUT_MS / 1000 + 5);
  }, 30_000);

  it('still serves activities from this machine (the Agents Playground, local tests)', async () => {
    // Her own click is the first decision: the forged ones decided nothing.
    const decided = bot.cardOfAnswer(
      await bot.execute(ADELE, 'approve', { approvalId, comment: 'Real' }, adeleCard.activityId),
    );
    expect(cardText(decided)).toMatch(/Approved/);
    expect(cardText(decided)).toContain('Adele Vance');
    expect(await adeleReference()).not.toContain('attacker.invalid');
  });
});

describe('the service URLs the bot answers to', () => {
  it('with an app id: https to the Bot Connector hosts Microsoft documents for Teams, and those listed', () => {
    const accepts = serviceUrlRule(true, ['bots.example.cn']);
    for (const url of [
      'https://smba.trafficmanager.net/emea/',
      'https://smba.trafficmanager.net/teams/',
      'https://smba.infra.gcc.teams.microsoft.com/gcc',
      'https://smba.infra.gov.teams.microsoft.us/gcch',
      'https://smba.infra.dod.teams.microsoft.us/teams',
      'https://bots.example.cn/amer/',
    ])
      expect([url, accepts(url)]).toEqual([url, true]);
    for (const url of [
      'http://smba.trafficmanager.net/emea/',
      'https://smba.trafficmanager.net:8443/emea/',
      'https://evil.trafficmanager.net/emea/',
      'https://smba.trafficmanager.net.evil.example/emea/',
      'https://user:pw@smba.trafficmanager.net/emea/',
      'http://127.0.0.1:3978/',
      'http://169.254.169.254/metadata',
      'not a url',
    ])
      expect([url, accepts(url)]).toEqual([url, false]);
  });

  it('without an app id: this machine only, and the hosts listed', () => {
    const accepts = serviceUrlRule(false, []);
    for (const url of ['http://127.0.0.1:56000/', 'http://localhost:3978/', 'http://[::1]:9/'])
      expect([url, accepts(url)]).toEqual([url, true]);
    for (const url of [
      'https://smba.trafficmanager.net/emea/',
      'http://attacker.invalid:9/',
      'http://10.0.0.8/',
    ])
      expect([url, accepts(url)]).toEqual([url, false]);
    expect(serviceUrlRule(false, ['connector.test'])('http://connector.test:8080/')).toBe(true);
  });
});
