import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Job } from '../../../src/contract';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../support/databases';
import { waitForJob } from '../../support/jobs';
import { PEOPLE, startTestSteward, type TestSteward } from '../../support/steward';

const SECRET = 'receiver-secret-sealed-at-rest-42';
const ENV = { STEWARD_JOB_POLL_MS: '50', STEWARD_WEBHOOK_RETRY_DELAY_MS: '100' };

/**
 * Webhook secrets are sealed at rest like delegated grants: the database holds neither the secret
 * nor a part of it, deliveries are still signed with it, and a secret stored plaintext by an earlier
 * version (or by such a process during a rolling upgrade) is sealed at start or when a delivery
 * reads it. A secret sealed under another key fails its deliveries: never sent unsigned.
 */
describe.each(databaseKinds)('webhook secrets sealed at rest (%s)', (kind) => {
  let db: TestDatabase;
  let app: TestSteward;
  let server: Server;
  let receiverUrl = '';
  const received: Array<{ path: string; headers: IncomingHttpHeaders; body: string }> = [];
  let manager: string;
  let alex: string;

  const start = async (env: Record<string, string> = {}) => {
    app = await startTestSteward(db, { ...ENV, ...env });
    manager = await app.appToken('teams-bot', ['INTEGRATION_MANAGER']);
    alex = await app.userToken(PEOPLE.alex, [], { name: 'Alex Wilber', upn: 'alexw@example.com' });
  };

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString() });
        res.writeHead(200);
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await start();
  });
  afterAll(async () => {
    await app.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await db.drop();
  });

  const stored = async (id: string) =>
    app.steward.store.db
      .selectFrom('hooks')
      .select(['secret', 'secret_sealed'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  /** A hook row as a process of the previous version wrote it: its secret plaintext. */
  const insertPlaintextHook = async (path: string) => {
    const id = randomUUID();
    const now = new Date().toISOString();
    await app.steward.store.db
      .insertInto('hooks')
      .values({
        id,
        name: path,
        description: null,
        active: 1,
        events: JSON.stringify(['team_created']),
        url: `${receiverUrl}${path}`,
        content_type: 'json',
        secret: SECRET,
        consecutive_failures: 0,
        created_by: 'teams-bot',
        created_at: now,
        updated_at: now,
      } as never)
      .execute();
    return id;
  };
  /** Provisions a team and waits for its `team_created` delivery at `path`. */
  const deliveredAt = async (path: string, name: string) => {
    const job = (
      await app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
        token: alex,
        body: { template: { id: 'project' }, team: { name } },
      })
    ).body;
    expect((await waitForJob(app, alex, job.id)).status).toBe('completed');
    const deadline = Date.now() + 15_000;
    for (;;) {
      const request = received.find((r) => r.path === path && r.body.includes(job.id));
      if (request) return request;
      if (Date.now() > deadline) throw new Error(`no delivery of ${job.id} at ${path}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  const signedWithSecret = (request: { headers: IncomingHttpHeaders; body: string }) =>
    request.headers['x-steward-signature'] ===
    createHmac('sha256', SECRET).update(request.body).digest('hex');

  test('a new hook stores its secret sealed, and its deliveries are signed with the secret', async () => {
    const created = await app.call<{ id: string; config: { secret: string | null } }>(
      'POST',
      '/api/v1.0/hooks',
      {
        token: manager,
        body: {
          name: 'sealed',
          events: ['team_created'],
          config: { url: `${receiverUrl}/sealed`, secret: SECRET },
        },
      },
    );
    expect(created.status).toBe(201);
    expect(created.body.config.secret).toBe('********');
    const row = await stored(created.body.id);
    expect(Number(row.secret_sealed)).toBe(1);
    expect(row.secret).toMatch(/^v1\./);
    expect(row.secret).not.toContain(SECRET);
    expect(row.secret).not.toContain(Buffer.from(SECRET).toString('base64url'));
    expect(signedWithSecret(await deliveredAt('/sealed', 'Sealed secret'))).toBe(true);
  });

  test('a plaintext secret of the previous version still signs, and its delivery seals it', async () => {
    const id = await insertPlaintextHook('/plaintext');
    expect(await stored(id)).toEqual({ secret: SECRET, secret_sealed: expect.anything() });
    expect(signedWithSecret(await deliveredAt('/plaintext', 'Plaintext secret'))).toBe(true);
    const row = await stored(id);
    expect(Number(row.secret_sealed)).toBe(1);
    expect(row.secret).not.toContain(SECRET);
    // Sealed, it still signs.
    expect(signedWithSecret(await deliveredAt('/plaintext', 'Plaintext secret, sealed'))).toBe(true);
  });

  test('a start seals every plaintext secret before it serves', async () => {
    const id = await insertPlaintextHook('/restart');
    await app.close();
    await start();
    const row = await stored(id);
    expect(Number(row.secret_sealed)).toBe(1);
    expect(row.secret).not.toContain(SECRET);
    expect(signedWithSecret(await deliveredAt('/restart', 'Sealed at start'))).toBe(true);
  });

  test('a secret sealed under another key fails its delivery, never sent unsigned', async () => {
    await app.close();
    await start({ STEWARD_DELEGATION_KEY: 'another-deployment-key-0123456789abcdef' });
    const hooks = (
      await app.call<{ value: Array<{ id: string; name: string }> }>('GET', '/api/v1.0/hooks', {
        token: manager,
      })
    ).body.value;
    const hook = hooks.find((h) => h.name === 'sealed')!;
    const before = received.filter((r) => r.path === '/sealed').length;
    const job = (
      await app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
        token: alex,
        body: { template: { id: 'project' }, team: { name: 'Other key' } },
      })
    ).body;
    expect((await waitForJob(app, alex, job.id)).status).toBe('completed');
    const deadline = Date.now() + 15_000;
    let delivery: { status: string; lastError: string | null } | undefined;
    while (delivery?.status !== 'failed') {
      if (Date.now() > deadline) throw new Error(`delivery: ${JSON.stringify(delivery)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const log = await app.call<{ value: Array<{ status: string; lastError: string | null }> }>(
        'GET',
        `/api/v1.0/hooks/${hook.id}/deliveries`,
        { token: manager },
      );
      delivery = log.body.value[0];
    }
    expect(delivery.lastError).toMatch(/sealed with another key/);
    expect(received.filter((r) => r.path === '/sealed').length).toBe(before);
  });
});
