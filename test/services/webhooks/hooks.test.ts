import { createHmac } from 'node:crypto';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../support/databases';
import { PEOPLE, startTestSteward, suiteSteward, type TestSteward } from '../../support/steward';

describe('webhook helpers', () => {
  const suite = suiteSteward('sqlite', { people: { alex: { id: PEOPLE.alex } } });

  test('the signature is the hex HMAC-SHA256 of the payload’s JSON text under the secret', async () => {
    const payload = {
      tenant: { id: 't' },
      team: { id: 'x', displayName: 'Zoé & co' },
      list: [1, 'two', null],
    };
    const res = await suite.app.call<{ signature: string }>('POST', '/api/v1.0/hooks/signature', {
      token: suite.alex,
      body: { secret: 's3cret', payload },
    });
    expect(res.status).toBe(200);
    const expected = createHmac('sha256', 's3cret').update(JSON.stringify(payload), 'utf8').digest('hex');
    expect(res.body.signature).toBe(expected);
    expect(res.body.signature).toMatch(/^[0-9a-f]{64}$/);
    // Another secret, another signature; scalars are payloads too.
    const other = await suite.app.call<{ signature: string }>('POST', '/api/v1.0/hooks/signature', {
      token: suite.alex,
      body: { secret: 'other', payload },
    });
    expect(other.body.signature).not.toBe(expected);
    const scalar = await suite.app.call<{ signature: string }>('POST', '/api/v1.0/hooks/signature', {
      token: suite.alex,
      body: { secret: 's3cret', payload: 42 },
    });
    expect(scalar.body.signature).toBe(createHmac('sha256', 's3cret').update('42').digest('hex'));
  });

  test.each([
    ['no secret', { payload: {} }, 'body.secret'],
    ['an empty secret', { secret: '', payload: {} }, 'body.secret'],
    ['no payload', { secret: 'x' }, 'body.payload'],
  ])('%s is 400 naming the field', async (_name, body, target) => {
    const res = await suite.app.call<{ error: { details: Array<{ target: string }> } }>(
      'POST',
      '/api/v1.0/hooks/signature',
      {
        token: suite.alex,
        body,
      },
    );
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d) => d.target)).toContain(target);
  });

  test('the event codes are listed as an OData collection', async () => {
    const res = await suite.app.call<{ '@odata.count': number; value: Array<{ code: string }> }>(
      'GET',
      '/api/v1.0/webhooks/events',
      { token: suite.alex },
    );
    expect(res.status).toBe(200);
    expect(res.body.value.map((e) => e.code)).toEqual([
      'team_created',
      'team_provisioning_completed',
      'team_provisioning_failed',
      'team_creation_approval_requested',
      'team_creation_approved',
      'team_creation_rejected',
      'team_creation_approval_reminder',
      'team_creation_approval_escalated',
      'team_archived',
      'team_unarchived',
      'team_deleted',
      'team_expiring',
      'team_renewed',
      'team_kept_active',
      'team_expired',
      'team_inactive',
      'team_ownerless',
      'team_guest_review_due',
      'team_join_requested',
      'team_join_decided',
      'team_member_joined',
      'team_drift_owners_asked',
      'team_drift_applied',
      'team_drift_apply_failed',
    ]);
    expect(res.body['@odata.count']).toBe(24);
  });
});

interface WireHook {
  id: string;
  name: string;
  description: string | null;
  active: boolean;
  events: string[];
  config: { verb: string; url: string; content_type: string; secret: string | null; secret_hint?: string };
}
interface ErrorBody {
  error: { code: string; details?: Array<{ code: string; target: string; message: string }> };
}
interface AuditPage {
  value: Array<{ action: string; target: { id: string }; 'request-id': string | null; details: unknown }>;
}

/** Host names the tests resolve, so no test depends on (or sends anything to) the internet. */
const HOSTS: Record<string, string[]> = {
  'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'internal.example.com': ['10.0.0.5'],
  'rebind.example.com': ['93.184.216.34', '127.0.0.1'],
  'metadata.example.com': ['169.254.169.254'],
  'mapped.example.com': ['::ffff:192.168.0.10'],
  localhost: ['127.0.0.1', '::1'],
};
const resolveHost = async (host: string) => {
  const addresses = HOSTS[host];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return addresses;
};

describe.each(databaseKinds)('webhooks CRUD on %s', (kind) => {
  let db: TestDatabase;
  let app: TestSteward;
  let manager: string;
  let admin: string;
  let alex: string;
  const secret = 'whsec-0123456789-abcdefgh';

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    // Loopback refused, as in production: only public addresses are reachable.
    app = await startTestSteward(db, { STEWARD_WEBHOOK_ALLOW_LOOPBACK: 'false' }, { resolveHost });
    manager = await app.appToken('teams-bot', ['INTEGRATION_MANAGER']);
    admin = await app.userToken(PEOPLE.megan, ['GLOBAL_ADMIN']);
    alex = await app.userToken(PEOPLE.alex);
  });
  afterAll(async () => {
    await app.close();
    await db.drop();
  });

  const payload = (overrides: Record<string, unknown> = {}, config: Record<string, unknown> = {}) => ({
    name: 'Provisioning feed',
    description: 'Tells the CMDB about new teams.',
    events: ['team_created', 'team_provisioning_completed', 'team_created'],
    config: { url: 'https://hooks.example.com/steward?channel=teams', secret, ...config },
    ...overrides,
  });
  const listHooks = async () =>
    (await app.call<{ value: WireHook[] }>('GET', '/api/v1.0/hooks', { token: admin })).body.value;
  const webhookAudit = async () =>
    (await app.call<AuditPage>('GET', '/api/v1.0/audit_trails/webhooks/records', { token: admin })).body
      .value;

  test('an app with INTEGRATION_MANAGER creates a hook; its secret is returned masked, never in clear', async () => {
    const res = await app.call<WireHook>('POST', '/api/v1.0/hooks', { token: manager, body: payload() });
    expect(res.status).toBe(201);
    expect(res.headers.location).toMatch(new RegExp(`/api/v1.0/hooks/${res.body.id}$`));
    expect(res.body).toMatchObject({
      name: 'Provisioning feed',
      description: 'Tells the CMDB about new teams.',
      active: true,
      events: ['team_created', 'team_provisioning_completed'],
      config: {
        verb: 'post',
        url: 'https://hooks.example.com/steward?channel=teams',
        content_type: 'json',
        secret: '********',
      },
    });
    expect(res.body.config.secret_hint).toBeUndefined();
    const read = await app.call<WireHook>('GET', `/api/v1.0/hooks/${res.body.id}`, { token: manager });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
    const list = await app.call<{ value: WireHook[] }>('GET', '/api/v1.0/hooks', { token: manager });
    expect(list.body.value.map((h) => h.id)).toContain(res.body.id);
    for (const text of [res.text, read.text, list.text]) expect(text).not.toContain(secret);

    // Every secret shows as the same mask, whatever its length; no secret shows as null.
    const short = await app.call<WireHook>('POST', '/api/v1.0/hooks', {
      token: admin,
      body: payload({ name: 'Short' }, { secret: 'abc123' }),
    });
    expect(short.body.config.secret).toBe('********');
    expect(short.text).not.toContain('abc123');
    const none = await app.call<WireHook>('POST', '/api/v1.0/hooks', {
      token: admin,
      body: payload({ name: 'Unsigned', active: false }, { secret: undefined }),
    });
    expect(none.body).toMatchObject({ active: false, config: { secret: null } });
    // Sending the mask back (a hook copied from a GET) is refused rather than stored as the secret.
    const copied = await app.call('POST', '/api/v1.0/hooks', {
      token: admin,
      body: payload({ name: 'Copied' }, { secret: '********' }),
    });
    expect(copied.status).toBe(400);

    const records = await webhookAudit();
    const created = records.find((r) => r.target.id === res.body.id)!;
    expect(created).toMatchObject({
      action: 'webhook_created',
      'request-id': res.headers['request-id'],
      details: { url: 'https://hooks.example.com', signed: true },
    });
    expect(JSON.stringify(records)).not.toContain(secret);
  });

  test('deleteHook returns the deleted hook, audited; then it is gone (404)', async () => {
    const created = await app.call<WireHook>('POST', '/api/v1.0/hooks', {
      token: manager,
      body: payload({ name: 'Short-lived' }),
    });
    const res = await app.call<WireHook>('DELETE', `/api/v1.0/hooks/${created.body.id}`, { token: manager });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created.body);
    expect(res.text).not.toContain(secret);
    for (const [method, path] of [
      ['GET', `/api/v1.0/hooks/${created.body.id}`],
      ['DELETE', `/api/v1.0/hooks/${created.body.id}`],
      ['GET', `/api/v1.0/hooks/${created.body.id}/deliveries`],
    ] as const) {
      const again = await app.call<ErrorBody>(method, path, { token: manager });
      expect(again.status).toBe(404);
      expect(again.body.error.code).toBe('notFound');
    }
    const records = await webhookAudit();
    expect(records.filter((r) => r.target.id === created.body.id).map((r) => r.action)).toEqual([
      'webhook_deleted',
      'webhook_created',
    ]);
    expect(records.find((r) => r.action === 'webhook_deleted')!['request-id']).toBe(
      res.headers['request-id'],
    );
  });

  test('plain users may not manage hooks (403), see only their own, and may list the event codes', async () => {
    expect((await app.call('POST', '/api/v1.0/hooks', { token: alex, body: payload() })).status).toBe(403);
    const listed = await app.call<{ value: unknown[] }>('GET', '/api/v1.0/hooks', { token: alex });
    expect([listed.status, listed.body.value]).toEqual([200, []]);
    expect((await app.call('GET', '/api/v1.0/webhooks/events', { token: alex })).status).toBe(200);
  });

  test.each([
    ['an unknown event code', payload({ events: ['team_created', 'team_exploded'] }), 'body.events.1'],
    ['no events', payload({ events: [] }), 'body.events'],
    ['no name', payload({ name: undefined }), 'body.name'],
    ['a blank name', payload({ name: '   ' }), 'body.name'],
    ['no config', payload({ config: undefined }), 'body.config'],
    ['no URL', payload({}, { url: undefined }), 'body.config.url'],
    ['another verb', payload({}, { verb: 'get' }), 'body.config.verb'],
    ['another content type', payload({}, { content_type: 'form' }), 'body.config.content_type'],
    ['an empty secret', payload({}, { secret: '' }), 'body.config.secret'],
    ['an id', payload({ id: 'mine' }), 'body'],
    ['a relative URL', payload({}, { url: '/hook' }), 'body.config.url'],
    ['an ftp URL', payload({}, { url: 'ftp://hooks.example.com/in' }), 'body.config.url'],
    ['credentials in the URL', payload({}, { url: 'https://u:p@hooks.example.com/' }), 'body.config.url'],
    ['plain http', payload({}, { url: 'http://hooks.example.com/' }), 'body.config.url'],
    ['http to loopback (not allowed here)', payload({}, { url: 'http://127.0.0.1:9/' }), 'body.config.url'],
    ['a loopback IP', payload({}, { url: 'https://127.0.0.1/' }), 'body.config.url'],
    ['a name resolving to loopback', payload({}, { url: 'https://localhost/' }), 'body.config.url'],
    ['a private IP', payload({}, { url: 'https://192.168.1.20/' }), 'body.config.url'],
    [
      'a name resolving to a private IP',
      payload({}, { url: 'https://internal.example.com/' }),
      'body.config.url',
    ],
    [
      'a name with one loopback address',
      payload({}, { url: 'https://rebind.example.com/' }),
      'body.config.url',
    ],
    ['the metadata endpoint', payload({}, { url: 'https://169.254.169.254/latest/' }), 'body.config.url'],
    [
      'a name for the metadata endpoint',
      payload({}, { url: 'https://metadata.example.com/' }),
      'body.config.url',
    ],
    [
      'a name with a mapped private IPv6',
      payload({}, { url: 'https://mapped.example.com/' }),
      'body.config.url',
    ],
    ['an IPv6 unique-local address', payload({}, { url: 'https://[fd00::1]/' }), 'body.config.url'],
    ['a host that does not resolve', payload({}, { url: 'https://nowhere.example.com/' }), 'body.config.url'],
  ])('%s is 400 with details, and nothing is written', async (_name, body, target) => {
    const before = { hooks: await listHooks(), audit: await webhookAudit() };
    const res = await app.call<ErrorBody>('POST', '/api/v1.0/hooks', { token: manager, body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validationFailed');
    expect(res.body.error.details!.map((d) => d.target)).toContain(target);
    expect(await listHooks()).toEqual(before.hooks);
    expect(await webhookAudit()).toEqual(before.audit);
  });

  test('the delivery log of a hook pages newest first and refuses a bad query', async () => {
    const hook = (await listHooks())[0]!;
    const res = await app.call<{ value: unknown[]; '@odata.count': number }>(
      'GET',
      `/api/v1.0/hooks/${hook.id}/deliveries?$top=5`,
      { token: manager },
    );
    expect(res.status).toBe(200);
    expect(res.body.value).toEqual([]);
    for (const query of ['$top=0', '$top=501', '$skip=-1', 'other=1']) {
      const bad = await app.call('GET', `/api/v1.0/hooks/${hook.id}/deliveries?${query}`, { token: manager });
      expect(bad.status).toBe(400);
    }
  });
});
