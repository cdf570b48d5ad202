import { createHmac } from 'node:crypto';
import { request } from 'undici';
import { databaseKinds } from '../support/databases';
import { PEOPLE } from '../support/steward';
import { actionData, cardText, verbsOf } from './support/fakeConnector';
import { ALEX, type BotHarness, botRestarts, SIOBHAN, startBotHarness } from './support/botHarness';
import { freePort } from '../support/ports';

const sign = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('hex');

describe.each(databaseKinds)('the bot’s webhook on %s', (kind) => {
  let bot: BotHarness;
  let env: Record<string, string>;
  const parts = botRestarts(kind, () => bot);
  const { connector } = parts;

  beforeAll(async () => {
    env = { STEWARD_PORT: String(await freePort()) };
    bot = await startBotHarness(kind, env, {}, parts);
  });

  const hooks = async () => {
    const token = await bot.steward.userToken(PEOPLE.megan, ['GLOBAL_ADMIN']);
    return (
      await bot.steward.call<{ value: Array<{ id: string; config: { url: string } }> }>(
        'GET',
        '/api/v1.0/hooks',
        { token },
      )
    ).body.value;
  };
  const secret = async () => {
    const row = await bot.steward.steward.store.db
      .selectFrom('bot_state')
      .select('value')
      .where('key', '=', 'webhook')
      .executeTakeFirstOrThrow();
    return (JSON.parse(row.value) as { secret: string }).secret;
  };
  const deliver = (body: string, headers: Record<string, string>) =>
    request(`${bot.steward.url}/api/notifications`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    }).then(async (res) => ({ status: res.statusCode, text: await res.body.text() }));

  it('registers one hook for every event at start-up, and reuses it after a restart', async () => {
    const [hook] = await hooks();
    expect(hook?.config.url).toBe(`${bot.steward.url}/api/notifications`);
    expect(await hooks()).toHaveLength(1);
    const before = await secret();
    await bot.close();
    bot = await startBotHarness(kind, env, {}, parts);
    expect((await hooks()).map((h) => h.id)).toEqual([hook!.id]);
    expect(await secret()).toBe(before);
  });

  it('replaces a hook an earlier version registered without the events added since', async () => {
    const [hook] = await hooks();
    const older = (await bot.steward.steward.store.db
      .selectFrom('hooks')
      .select('events')
      .where('id', '=', hook!.id)
      .executeTakeFirstOrThrow()) as { events: string };
    const withoutJoining = (JSON.parse(older.events) as string[]).filter((e) => !e.includes('join'));
    await bot.steward.steward.store.db
      .updateTable('hooks')
      .set({ events: JSON.stringify(withoutJoining) })
      .where('id', '=', hook!.id)
      .execute();
    await bot.close();
    bot = await startBotHarness(kind, env, {}, parts);
    const now = await hooks();
    expect(now).toHaveLength(1);
    expect(now[0]!.id).not.toBe(hook!.id);
  });

  it('calls only operations its app identity may call: two starts leave no refusal in the security trail', async () => {
    const token = await bot.steward.userToken(PEOPLE.megan, ['GLOBAL_ADMIN']);
    const records = await bot.steward.call<{ value: Array<{ action: string; target: { id: string } }> }>(
      'GET',
      '/api/v1.0/audit_trails/security/records?$top=100',
      { token },
    );
    expect(records.status).toBe(200);
    expect(records.body.value).toEqual([]);
    // The hook subscribes to every event all the same.
    const [hook] = await bot.steward
      .call<{ value: Array<{ events: string[] }> }>('GET', '/api/v1.0/hooks', {
        token,
      })
      .then((res) => res.body.value);
    const events = await bot.steward.call<{ value: Array<{ code: string }> }>(
      'GET',
      '/api/v1.0/webhooks/events',
      {
        token,
      },
    );
    expect([...hook!.events].sort()).toEqual(events.body.value.map((e) => e.code).sort());
  });

  it('answers 401 and acts on nothing when the signature does not match', async () => {
    // A real request waiting for approval, whose approval cards are out.
    await bot.say(SIOBHAN, 'hello');
    const form = bot.cardOfAnswer(
      await bot.execute(ALEX, 'pickTemplate', { templateId: 'client-engagement' }),
    );
    bot.cardOfAnswer(
      await bot.execute(ALEX, 'submitRequest', { ...actionData(form, 'submitRequest'), name: 'Initech' }),
    );
    const card = await connector.waitFor(() =>
      connector.messages(SIOBHAN.conversationId).find((m) => verbsOf(m.body).includes('approve')),
    );
    const approvalId = String(actionData(connector.currentCard(card.activityId), 'approve')!.approvalId);
    const jobs = await bot.steward.call<{ value: Array<{ id: string }> }>('GET', '/api/v1.0/me/jobs', {
      token: await bot.steward.userToken(ALEX.aadObjectId),
    });
    const payload = JSON.stringify({
      tenant: { id: 'x' },
      approval: { id: approvalId, approver: { id: SIOBHAN.aadObjectId, message: null } },
      provisioning: { id: jobs.body.value[0]!.id },
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const mark = connector.sent.length;
    const headers = { 'x-steward-event': 'team_creation_approved', 'x-steward-delivery': 'd-1' };
    expect(
      (await deliver(payload, { ...headers, 'x-steward-signature': sign('wrong-secret', payload) })).status,
    ).toBe(401);
    expect((await deliver(payload, headers)).status).toBe(401);
    // Signed over other bytes than those delivered.
    const other = (
      await deliver(`${payload} `, { ...headers, 'x-steward-signature': sign(await secret(), payload) })
    ).status;
    expect(other).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(
      connector.sent.slice(mark).filter((s) => s.kind !== 'update' || s.activityId === card.activityId),
    ).toEqual([]);
    expect(cardText(connector.currentCard(card.activityId))).not.toMatch(/Approved/);

    // The same delivery, signed: a repeated approval request sends no second card.
    const requested = { ...headers, 'x-steward-event': 'team_creation_approval_requested' };
    const signed = await deliver(payload, {
      ...requested,
      'x-steward-signature': sign(await secret(), payload),
    });
    expect(signed.status).toBe(200);
    expect(connector.messages(SIOBHAN.conversationId, mark)).toEqual([]);
    expect(
      (await deliver('not json', { ...headers, 'x-steward-signature': sign(await secret(), 'not json') }))
        .status,
    ).toBe(400);
  });
});
