import { Readable } from 'node:stream';
import { request } from 'undici';
import { createTestDatabase } from '../../support/databases';
import { PEOPLE, startTestSteward, suiteSteward } from '../../support/steward';

/** The HTTP core: ids, errors for unknown routes and methods, bodies, health, metrics. */
describe('HTTP core', () => {
  const suite = suiteSteward('sqlite', {
    people: { patti: { id: PEOPLE.patti, roles: ['CATALOG_MANAGER'] } },
  });

  const template = { templateConfiguration: { name: 'Body checks' } };
  const put = '/api/v1.0/catalog/templates/body-checks';

  test('every response carries a request-id; a client-request-id is echoed in headers and errors', async () => {
    const ok = await suite.app.call('GET', '/api/v1.0/catalog/templates', {
      token: suite.patti,
      headers: { 'client-request-id': 'abc-123' },
    });
    expect(ok.headers['request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(ok.headers['client-request-id']).toBe('abc-123');
    const failed = await suite.app.call('GET', '/api/v1.0/catalog/templates', {
      headers: { 'client-request-id': 'xyz' },
    });
    expect(failed.status).toBe(401);
    expect(failed.body).toMatchObject({
      error: { innerError: { 'request-id': failed.headers['request-id'], 'client-request-id': 'xyz' } },
    });
  });

  test('an unreasonable client-request-id is not echoed', async () => {
    const res = await suite.app.call('GET', '/api/v1.0/catalog/templates', {
      token: suite.patti,
      headers: { 'client-request-id': 'x'.repeat(500) },
    });
    expect(res.status).toBe(200);
    expect(res.headers['client-request-id']).toBeUndefined();
  });

  test('an unknown route is 404 ApiError, a wrong method 405 ApiError with Allow', async () => {
    const missing = await suite.app.call('GET', '/api/v1.0/no/such/thing', { token: suite.patti });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({
      error: { code: 'notFound', innerError: { 'request-id': expect.any(String) } },
    });
    const wrong = await suite.app.call('DELETE', '/api/v1.0/catalog/templates', { token: suite.patti });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toContain('GET');
    expect(wrong.body).toMatchObject({ error: { code: 'methodNotAllowed' } });
  });

  test('malformed JSON is 400 with details', async () => {
    const res = await suite.app.call('PUT', put, {
      token: suite.patti,
      rawBody: '{"templateConfiguration": {',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: { code: 'validationFailed', details: [{ code: 'malformedJson' }] },
    });
  });

  test('a body of another content type is 415', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const res = await suite.app.call('PUT', put, {
        token: suite.patti,
        rawBody: JSON.stringify(template),
        headers: { 'content-type': type },
      });
      expect(res.status).toBe(415);
      expect(res.body).toMatchObject({ error: { code: 'unsupportedMediaType' } });
    }
  });

  test('a body over 1 MiB is 413, declared or streamed', async () => {
    const big = JSON.stringify({
      templateConfiguration: { name: 'x', description: 'y'.repeat(1024 * 1024) },
    });
    const declared = await suite.app.call('PUT', put, {
      token: suite.patti,
      rawBody: big,
      headers: { 'content-type': 'application/json' },
    });
    expect(declared.status).toBe(413);
    expect(declared.body).toMatchObject({ error: { code: 'payloadTooLarge' } });
    // Chunked: no Content-Length, so the limit is enforced while reading.
    const chunks = Readable.from(
      (function* () {
        for (let i = 0; i < 20; i++) yield Buffer.alloc(64 * 1024, 0x20);
      })(),
    );
    const streamed = await request(`${suite.app.url}${put}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${suite.patti}`, 'content-type': 'application/json' },
      body: chunks,
    });
    expect(streamed.statusCode).toBe(413);
    expect(await streamed.body.json()).toMatchObject({ error: { code: 'payloadTooLarge' } });
    expect((await suite.app.call('GET', put, { token: suite.patti })).status).toBe(404);
  });

  test('a body just under the limit is read and validated', async () => {
    const json = JSON.stringify({ templateConfiguration: { name: 'Near limit' } });
    // Insignificant JSON whitespace pads the body to one byte under 1 MiB.
    const padded = json + ' '.repeat(1024 * 1024 - json.length);
    const res = await suite.app.call('PUT', put, {
      token: suite.patti,
      rawBody: padded,
      headers: { 'content-type': 'application/json' },
    });
    expect(Buffer.byteLength(padded)).toBe(1024 * 1024);
    expect(res.status).toBe(200);
  });

  test('healthz answers, readyz checks the store', async () => {
    expect((await suite.app.call('GET', '/healthz')).body).toEqual({ status: 'ok' });
    expect((await suite.app.call('GET', '/readyz')).body).toEqual({ status: 'ready' });
  });

  test('metrics count requests per operationId', async () => {
    await suite.app.call('GET', '/api/v1.0/catalog/templates', { token: suite.patti });
    const res = await suite.app.call('GET', '/metrics');
    expect(res.status).toBe(200);
    expect(res.text).toMatch(
      /steward_http_requests_total\{operation="getCatalogTemplates",method="get",status="200"\} [1-9]/,
    );
    expect(res.text).toMatch(
      /steward_http_request_duration_seconds_bucket\{le="0.005",operation="getCatalogTemplates"/,
    );
    expect(res.text).toContain('steward_process_resident_memory_bytes');
  });
});

describe('readiness when the store is gone', () => {
  test('readyz is 503 ApiError once the database is closed', async () => {
    const db = await createTestDatabase('sqlite');
    const app = await startTestSteward(db);
    await app.steward.store.close();
    const res = await app.call('GET', '/readyz');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ error: { code: 'serviceUnavailable' } });
    await new Promise<void>((resolve) => app.steward.server.server.close(() => resolve()));
    await db.drop();
  });
});
