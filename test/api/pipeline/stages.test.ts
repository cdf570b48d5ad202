import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import { Unauthorized } from '../../../src/domain/errors';
import { policyOf } from '../../../src/domain/rbac';
import type { AppRole } from '../../../src/contract/roles';
import type { Authenticator } from '../../../src/api/middleware/authenticate';
import { authenticate, type Identity } from '../../../src/api/pipeline/authenticate';
import { RouteTable } from '../../../src/api/pipeline/dispatch';
import { limit } from '../../../src/api/pipeline/limit';
import { logRequest } from '../../../src/api/pipeline/log';
import { mapError } from '../../../src/api/pipeline/mapError';
import { parseRequest } from '../../../src/api/pipeline/parse';
import { announcesBody } from '../../../src/api/pipeline/serve';
import { clientRequestIdOf, requestState } from '../../../src/api/pipeline/state';
import type { RateLimitService } from '../../../src/services/access/rateLimits';
import { API_BASE, defineRoute, type Route } from '../../../src/api/route';

/** Each stage of the request path alone (docs/explanation/request-lifecycle.md). */

const route = (method: Route['method'], path: string, extra: Partial<Route> = {}): Route =>
  defineRoute({
    operationId: 'getMyCatalogTemplates',
    method,
    path,
    tag: 't',
    summary: 's',
    responses: {},
    handle: async () => ({ status: 200 }),
    ...extra,
  });

const request = (headers: Record<string, string> = {}, url = '/'): IncomingMessage =>
  ({
    headers,
    url,
    method: 'GET',
    socket: { remoteAddress: '127.0.0.1' },
    readableEnded: false,
  }) as unknown as IncomingMessage;

const user: Identity = {
  id: '00000000-0000-0000-0000-000000000001',
  tenantId: 'tenant',
  kind: 'user',
  roles: new Set<AppRole>(['AUTHENTICATED_USER'] as AppRole[]),
};

describe('the route table (dispatch)', () => {
  const byId = route('get', '/teams/{team_id}');
  const fixed = route('get', '/teams/templates');
  const table = new RouteTable([byId, fixed, route('delete', '/teams/{team_id}')]);

  test('finds a route, its decoded parameters and its query', () => {
    const match = table.find('GET', `${API_BASE}/teams/abc?x=1&y=2#frag`);
    expect(match?.entry.route).toBe(byId);
    expect(match?.params).toEqual({ team_id: 'abc' });
    expect(match?.search).toBe('x=1&y=2');
    expect(table.find('DELETE', `${API_BASE}/teams/abc`)?.entry.route.method).toBe('delete');
  });

  test('prefers a fixed segment to a parameter, as the router does', () => {
    expect(table.find('GET', `${API_BASE}/teams/templates`)?.entry.route).toBe(fixed);
  });

  test('leaves to the router what it cannot be sure of', () => {
    for (const url of [
      `${API_BASE}/teams/a%20b`,
      `${API_BASE}/teams/abc/`,
      `${API_BASE}//teams/abc`,
      `${API_BASE}/teams/a;b`,
      `${API_BASE}/teams/${'x'.repeat(101)}`,
      `${API_BASE}/nothing/here`,
      '/healthz',
      `http://host${API_BASE}/teams/abc`,
    ])
      expect(table.find('GET', url)).toBeUndefined();
    expect(table.find('HEAD', `${API_BASE}/teams/abc`)).toBeUndefined();
    expect(table.find('PATCH', `${API_BASE}/teams/abc`)).toBeUndefined();
  });
});

describe('authenticate', () => {
  const policy = policyOf('getMyCatalogTemplates');

  test('answers the caller, privileged or not, and a person their own sign-in', async () => {
    const state = requestState('req-1', undefined);
    const authenticator: Authenticator = { authenticate: async () => user };
    const who = await authenticate(authenticator, 'Bearer YWJj.YWJj.YWJj', policy, state);
    expect(who.caller).toMatchObject({ id: user.id, privileged: false, requestId: 'req-1' });
    expect(who.person).toEqual({ userId: user.id, assertion: 'YWJj.YWJj.YWJj' });
    expect(state.caller).toBe(who.caller);
  });

  test('a token that does not verify is a 401; one without the role a 403 naming who', async () => {
    const refusing: Authenticator = {
      authenticate: async () => {
        throw new Unauthorized('no');
      },
    };
    await expect(authenticate(refusing, undefined, policy, requestState('r', undefined))).rejects.toThrow(
      Unauthorized,
    );
    const state = requestState('r', undefined);
    const app: Identity = { ...user, kind: 'app', roles: new Set() };
    await expect(authenticate({ authenticate: async () => app }, 'x', policy, state)).rejects.toMatchObject({
      code: 'forbidden',
    });
    expect(state.actor?.id).toBe(user.id);
    expect(state.caller).toBeUndefined();
  });
});

describe('limit', () => {
  const decision = { allowed: true, limit: 20, remaining: 19, retryAfterSeconds: 0, resetSeconds: 42 };
  const limits = (allowed: boolean) =>
    ({ consume: async () => ({ ...decision, allowed }) }) as unknown as RateLimitService;
  const nobody = {
    authenticate: async () => {
      throw new Unauthorized('no token');
    },
  };

  test('spends a call and says so in the X-RateLimit headers', async () => {
    const state = requestState('r', undefined);
    await limit(
      { rateLimits: limits(true), tenantId: 't', authenticator: nobody },
      user,
      {},
      policyOf('getMyCatalogTemplates'),
      state,
    );
    expect(state.headers).toEqual([
      'request-id',
      'r',
      'X-RateLimit-Limit',
      '20',
      'X-RateLimit-Remaining',
      '19',
      'X-RateLimit-Reset',
      '42',
    ]);
  });

  test('a spent budget is a 429, with the headers written first', async () => {
    const state = requestState('r', undefined);
    await expect(
      limit(
        { rateLimits: limits(false), tenantId: 't', authenticator: nobody },
        user,
        {},
        policyOf('getMyCatalogTemplates'),
        state,
      ),
    ).rejects.toMatchObject({ code: 'tooManyRequests' });
    expect(state.headers).toContain('X-RateLimit-Limit');
    expect(state.headers[state.headers.indexOf('X-RateLimit-Limit') + 1]).toBe('20');
  });

  test('only the bot may call on behalf of a person', async () => {
    await expect(
      limit(
        { rateLimits: limits(true), tenantId: 't', authenticator: nobody },
        user,
        { onBehalfOf: user.id },
        policyOf('getMyCatalogTemplates'),
        requestState('r', undefined),
      ),
    ).rejects.toMatchObject({ code: 'forbidden' });
  });

  describe('a call of a turn the bot already charged', () => {
    const BOT_APP = 'b0000000-0000-0000-0000-00000000b07a';
    const tokens: Record<string, Identity> = {
      'Bearer bot': { ...user, kind: 'app', id: BOT_APP, roles: new Set() },
      'Bearer other-app': {
        ...user,
        kind: 'app',
        id: 'a0000000-0000-0000-0000-0000000000a1',
        roles: new Set(),
      },
      'Bearer person': user,
    };
    const verifying = {
      authenticate: async (authorization: string | undefined) => {
        const identity = tokens[authorization ?? ''];
        if (!identity) throw new Unauthorized('no token');
        return identity;
      },
    };
    const counted = () => {
      const spent = { calls: 0 };
      const rateLimits = {
        consume: async () => {
          spent.calls++;
          return decision;
        },
      } as unknown as RateLimitService;
      const deps = {
        rateLimits,
        tenantId: 't',
        authenticator: verifying,
        onBehalfOf: { botAppId: BOT_APP, isPerson: async () => true },
      };
      return { spent, deps };
    };
    const run = (deps: Parameters<typeof limit>[0], who: Identity, chargedTurn: string) =>
      limit(deps, who, { chargedTurn }, policyOf('getMyCatalogTemplates'), requestState('r', undefined));

    test('spends nothing when the bot’s own app token vouches for it', async () => {
      const { spent, deps } = counted();
      await run(deps, user, 'Bearer bot');
      expect(spent.calls).toBe(0);
    });

    test('a person’s token, or another app’s, never claims it', async () => {
      const { spent, deps } = counted();
      await expect(run(deps, user, 'Bearer person')).rejects.toMatchObject({ code: 'forbidden' });
      await expect(run(deps, user, 'Bearer other-app')).rejects.toMatchObject({ code: 'forbidden' });
      await expect(run(deps, user, 'garbage')).rejects.toMatchObject({ code: 'forbidden' });
      await expect(run({ ...deps, onBehalfOf: undefined }, user, 'Bearer bot')).rejects.toMatchObject({
        code: 'forbidden',
      });
      expect(spent.calls).toBe(0);
    });

    test('only a call made as a person is part of their turn', async () => {
      const { deps } = counted();
      const app = tokens['Bearer other-app']!;
      await expect(run(deps, app, 'Bearer bot')).rejects.toMatchObject({ code: 'validationFailed' });
    });
  });
});

describe('parse', () => {
  test('a route that declares no input reads nothing', async () => {
    const req = request();
    const parsed = await parseRequest(route('get', '/x'), { params: {}, search: 'a=1', req }, 1000);
    expect(parsed).toEqual({ params: undefined, query: undefined, headers: undefined, body: undefined });
  });

  test('validates the path and query it declares', async () => {
    const withInputs = route('get', '/x/{id}', {
      params: z.object({ id: z.string().max(3) }),
      query: z.object({ $top: z.coerce.number().int() }),
    });
    const req = request();
    await expect(
      parseRequest(withInputs, { params: { id: 'abc' }, search: '%24top=5', req }, 1000),
    ).resolves.toMatchObject({ params: { id: 'abc' }, query: { $top: 5 } });
    await expect(
      parseRequest(withInputs, { params: { id: 'abcd' }, search: '', req }, 1000),
    ).rejects.toMatchObject({
      code: 'validationFailed',
    });
    await expect(
      parseRequest(withInputs, { params: { id: 'a\u202eb' }, search: '$top=1', req }, 1000),
    ).rejects.toMatchObject({ details: [{ code: 'formatCharacter' }] });
  });
});

describe('map errors', () => {
  const quiet = { error: jest.fn() };

  test('a 401 is recorded as a refusal of its source, with who was refused', async () => {
    const refused = jest.fn(async () => undefined);
    const state = requestState('req-1', 'client-1');
    const mapped = await mapError(
      new Unauthorized('bad token'),
      route('get', '/x'),
      request({}, '/api/v1.0/x?q=1'),
      state,
      {
        logger: quiet,
        refusals: { blockedFor: () => 0, refused },
      },
    );
    expect(mapped.status).toBe(401);
    expect(mapped.body.error).toMatchObject({
      code: 'unauthorized',
      innerError: { 'request-id': 'req-1', 'client-request-id': 'client-1' },
    });
    expect(refused).toHaveBeenCalledWith(
      expect.objectContaining({ source: '127.0.0.1', status: 401, path: '/api/v1.0/x' }),
    );
  });

  test('an address past its refusals is answered 429 and nothing is recorded', async () => {
    const refused = jest.fn(async () => undefined);
    const mapped = await mapError(
      new Unauthorized('bad token'),
      route('get', '/x'),
      request(),
      requestState('r', undefined),
      {
        logger: quiet,
        refusals: { blockedFor: () => 30, refused },
      },
    );
    expect(mapped).toMatchObject({ status: 429, headers: { 'Retry-After': '30' } });
    expect(refused).not.toHaveBeenCalled();
  });

  test('an unknown failure is a logged 500 that says nothing of itself', async () => {
    const logger = { error: jest.fn() };
    const mapped = await mapError(
      new Error('secret detail'),
      route('get', '/x'),
      request(),
      requestState('r', undefined),
      { logger },
    );
    expect(mapped.status).toBe(500);
    expect(JSON.stringify(mapped.body)).not.toContain('secret detail');
    expect(logger.error).toHaveBeenCalledTimes(1);
  });
});

describe('log', () => {
  test('counts every request and logs one line without the token', () => {
    const observe = jest.fn();
    const info = jest.fn();
    const state = requestState('req-1', undefined);
    state.status = 200;
    logRequest(
      { metrics: { observe }, logger: { info, isLevelEnabled: () => true } as never },
      route('get', '/x'),
      state,
    );
    expect(observe).toHaveBeenCalledWith('getMyCatalogTemplates', 'get', 200, expect.any(Number));
    expect(info.mock.calls[0]![0]).toMatchObject({ requestId: 'req-1', status: 200 });
    expect(JSON.stringify(info.mock.calls[0]![0])).not.toMatch(/Bearer|authorization/i);
  });
});

describe('the request state', () => {
  test('echoes a reasonable client-request-id only', () => {
    expect(clientRequestIdOf(request({ 'client-request-id': 'abc-1' }))).toBe('abc-1');
    expect(clientRequestIdOf(request({ 'client-request-id': 'a b' }))).toBeUndefined();
    expect(clientRequestIdOf(request({ 'client-request-id': '' }))).toBeUndefined();
    expect(clientRequestIdOf(request({ 'client-request-id': 'x'.repeat(129) }))).toBeUndefined();
  });

  test('knows when a body follows the headers', () => {
    expect(announcesBody(request({ 'content-length': '3' }))).toBe(true);
    expect(announcesBody(request({ 'content-length': '0' }))).toBe(false);
    expect(announcesBody(request({ 'transfer-encoding': 'chunked' }))).toBe(true);
  });
});
