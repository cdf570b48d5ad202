import { createHmac } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '../support/databases';
import { PEOPLE, startTestSteward, type TestSteward } from '../support/steward';

describe('webhook helpers', () => {
  let db: TestDatabase;
  let app: TestSteward;
  let alex: string;

  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
    app = await startTestSteward(db);
    alex = await app.userToken(PEOPLE.alex);
  });
  afterAll(async () => {
    await app.close();
    await db.drop();
  });

  test('the signature is the hex HMAC-SHA256 of the payload’s JSON text under the secret', async () => {
    const payload = {
      tenant: { id: 't' },
      team: { id: 'x', displayName: 'Zoé & co' },
      list: [1, 'two', null],
    };
    const res = await app.call<{ signature: string }>('POST', '/api/v1.0/hooks/signature', {
      token: alex,
      body: { secret: 's3cret', payload },
    });
    expect(res.status).toBe(200);
    const expected = createHmac('sha256', 's3cret').update(JSON.stringify(payload), 'utf8').digest('hex');
    expect(res.body.signature).toBe(expected);
    expect(res.body.signature).toMatch(/^[0-9a-f]{64}$/);
    // Another secret, another signature; scalars are payloads too.
    const other = await app.call<{ signature: string }>('POST', '/api/v1.0/hooks/signature', {
      token: alex,
      body: { secret: 'other', payload },
    });
    expect(other.body.signature).not.toBe(expected);
    const scalar = await app.call<{ signature: string }>('POST', '/api/v1.0/hooks/signature', {
      token: alex,
      body: { secret: 's3cret', payload: 42 },
    });
    expect(scalar.body.signature).toBe(createHmac('sha256', 's3cret').update('42').digest('hex'));
  });

  test.each([
    ['no secret', { payload: {} }, 'body.secret'],
    ['an empty secret', { secret: '', payload: {} }, 'body.secret'],
    ['no payload', { secret: 'x' }, 'body.payload'],
  ])('%s is 400 naming the field', async (_name, body, target) => {
    const res = await app.call<{ error: { details: Array<{ target: string }> } }>(
      'POST',
      '/api/v1.0/hooks/signature',
      {
        token: alex,
        body,
      },
    );
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d) => d.target)).toContain(target);
  });

  test('the event codes are listed as an OData collection', async () => {
    const res = await app.call<{ '@odata.count': number; value: Array<{ code: string }> }>(
      'GET',
      '/api/v1.0/webhooks/events',
      { token: alex },
    );
    expect(res.status).toBe(200);
    expect(res.body.value.map((e) => e.code)).toEqual([
      'team_created',
      'team_provisioning_completed',
      'team_provisioning_failed',
      'team_creation_approval_requested',
      'team_creation_approved',
      'team_creation_rejected',
      'team_archived',
      'team_unarchived',
      'team_deleted',
    ]);
    expect(res.body['@odata.count']).toBe(9);
  });
});
