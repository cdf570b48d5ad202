import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  base64url,
  exportJWK,
  exportSPKI,
  generateKeyPair,
  type JWTPayload,
  type KeyLike,
  SignJWT,
} from 'jose';
import type { ApiError } from '../../../src/contract';
import { createTestDatabase, type TestDatabase } from '../../support/databases';
import {
  PEOPLE,
  startTestSteward,
  suiteSteward,
  TENANT,
  TEST_SECRET,
  type TestResponse,
  type TestSteward,
} from '../../support/steward';

const MY_CATALOG = '/api/v1.0/me/catalog/templates';
const ADMIN_CATALOG = '/api/v1.0/catalog/templates';
const GLOBAL_ADMIN_WID = '62e90394-69f5-4237-9190-012177145e10';
const TEAMS_ADMIN_WID = '69091246-20e8-4a56-aa4d-066075b2a7a8';
const OTHER_TENANT = '11111111-2222-3333-4444-555555555555';
const secretKey = (secret: string) => new TextEncoder().encode(secret);
const now = () => Math.floor(Date.now() / 1000);

interface SignOptions {
  alg?: string;
  kid?: string;
  issuer?: string;
  audience?: string;
  /** Seconds since the epoch; default one hour from now. */
  exp?: number;
}

/** Signs `claims` directly with jose, bypassing Steward's own issuer, so every claim is under test control. */
function sign(claims: JWTPayload, key: KeyLike | Uint8Array, options: SignOptions = {}): Promise<string> {
  const jwt = new SignJWT(claims)
    .setProtectedHeader({
      alg: options.alg ?? 'HS256',
      typ: 'JWT',
      ...(options.kid ? { kid: options.kid } : {}),
    })
    .setIssuedAt()
    .setExpirationTime(options.exp ?? now() + 3600);
  if (options.issuer !== '') jwt.setIssuer(options.issuer ?? 'steward-embedded');
  if (options.audience !== '') jwt.setAudience(options.audience ?? 'api://steward');
  return jwt.sign(key);
}

/** An unsecured JWT (`alg: none`): header and payload, empty signature. */
function unsecured(claims: JWTPayload): string {
  const part = (value: unknown) => base64url.encode(JSON.stringify(value));
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.`;
}

/** The same token with its payload re-encoded after `change`, keeping the original signature. */
function tamper(token: string, change: (claims: Record<string, unknown>) => void): string {
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const claims = JSON.parse(new TextDecoder().decode(base64url.decode(payload))) as Record<string, unknown>;
  change(claims);
  const forged = base64url.encode(JSON.stringify(claims));
  expect(forged).not.toBe(payload);
  return `${header}.${forged}.${signature}`;
}

const userClaims = (extra: JWTPayload = {}): JWTPayload => ({
  oid: PEOPLE.alex,
  tid: TENANT,
  idtyp: 'user',
  name: 'Alex Wilber',
  preferred_username: 'alexw@example.com',
  ...extra,
});

/** A 401 as the contract wants it: ApiError `unauthorized`, a Bearer challenge, and no token echoed. */
function expectUnauthorized(res: TestResponse, token?: string): void {
  expect(res.status).toBe(401);
  expect((res.body as ApiError).error.code).toBe('unauthorized');
  expect(typeof (res.body as ApiError).error.message).toBe('string');
  expect(res.headers['www-authenticate']).toMatch(/^Bearer\b/);
  if (token) {
    expect(res.text).not.toContain(token);
    for (const part of token.split('.').filter((p) => p.length > 8)) expect(res.text).not.toContain(part);
  }
}

function expectForbidden(res: TestResponse): void {
  expect(res.status).toBe(403);
  expect((res.body as ApiError).error.code).toBe('forbidden');
  expect(res.headers['www-authenticate']).toBeUndefined();
}

describe('authentication with the embedded issuer (HS256)', () => {
  const suite = suiteSteward('sqlite');

  const both = [MY_CATALOG, ADMIN_CATALOG];

  describe.each(both)('401 on %s', (path) => {
    test('no Authorization header', async () => {
      expectUnauthorized(await suite.app.call('GET', path));
    });

    test('the Basic scheme', async () => {
      const basic = Buffer.from('alexw@example.com:password').toString('base64');
      const res = await suite.app.call('GET', path, { headers: { authorization: `Basic ${basic}` } });
      expectUnauthorized(res, basic);
    });

    test('Bearer with no token, and Bearer with garbage', async () => {
      expectUnauthorized(await suite.app.call('GET', path, { headers: { authorization: 'Bearer' } }));
      expectUnauthorized(
        await suite.app.call('GET', path, { headers: { authorization: 'Bearer <script>' } }),
      );
      const garbage = 'not-a-jwt-at-all-but-long-enough';
      expectUnauthorized(await suite.app.call('GET', path, { token: garbage }), garbage);
      const threeParts = 'aaaaaaaaaaaa.bbbbbbbbbbbb.cccccccccccc';
      expectUnauthorized(await suite.app.call('GET', path, { token: threeParts }), threeParts);
    });

    test('an expired token (beyond the 60 s clock tolerance)', async () => {
      const token = await sign(userClaims({ roles: ['GLOBAL_ADMIN'] }), secretKey(TEST_SECRET), {
        exp: now() - 120,
      });
      const res = await suite.app.call('GET', path, { token });
      expectUnauthorized(res, token);
      expect((res.body as ApiError).error.message).toMatch(/expired/i);
    });

    test('a token without exp', async () => {
      const token = await new SignJWT(userClaims({ roles: ['GLOBAL_ADMIN'] }))
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer('steward-embedded')
        .setAudience('api://steward')
        .sign(secretKey(TEST_SECRET));
      expectUnauthorized(await suite.app.call('GET', path, { token }), token);
    });

    test('a wrong issuer, or none', async () => {
      for (const issuer of ['https://evil.example.com', '']) {
        const token = await sign(userClaims({ roles: ['GLOBAL_ADMIN'] }), secretKey(TEST_SECRET), { issuer });
        expectUnauthorized(await suite.app.call('GET', path, { token }), token);
      }
    });

    test('a wrong audience, or none', async () => {
      for (const audience of ['api://someone-else', '']) {
        const token = await sign(userClaims({ roles: ['GLOBAL_ADMIN'] }), secretKey(TEST_SECRET), {
          audience,
        });
        expectUnauthorized(await suite.app.call('GET', path, { token }), token);
      }
    });

    test('another tenant, or no tenant', async () => {
      const other = await sign(
        userClaims({ tid: OTHER_TENANT, roles: ['GLOBAL_ADMIN'] }),
        secretKey(TEST_SECRET),
      );
      const res = await suite.app.call('GET', path, { token: other });
      expectUnauthorized(res, other);
      expect((res.body as ApiError).error.message).toMatch(/tenant/i);
      const none = await sign(
        userClaims({ tid: undefined, roles: ['GLOBAL_ADMIN'] }),
        secretKey(TEST_SECRET),
      );
      expectUnauthorized(await suite.app.call('GET', path, { token: none }), none);
    });

    test('alg: none', async () => {
      const token = unsecured({
        ...userClaims({ roles: ['GLOBAL_ADMIN'] }),
        iss: 'steward-embedded',
        aud: 'api://steward',
        exp: now() + 3600,
      });
      expectUnauthorized(await suite.app.call('GET', path, { token }), token);
    });

    test('a tampered payload or signature', async () => {
      const genuine = await suite.app.userToken(PEOPLE.alex);
      const promoted = tamper(genuine, (claims) => {
        claims.roles = ['GLOBAL_ADMIN'];
      });
      expectUnauthorized(await suite.app.call('GET', path, { token: promoted }), promoted);
      const impostor = tamper(genuine, (claims) => {
        claims.oid = PEOPLE.megan;
      });
      expectUnauthorized(await suite.app.call('GET', path, { token: impostor }), impostor);
      // Change one character in the middle of the payload (the last one may carry only padding bits).
      const [header, payload, signature] = genuine.split('.') as [string, string, string];
      const at = Math.floor(payload.length / 2);
      const flipped = `${header}.${payload.slice(0, at)}${payload[at] === 'A' ? 'B' : 'A'}${payload.slice(at + 1)}.${signature}`;
      expectUnauthorized(await suite.app.call('GET', path, { token: flipped }), flipped);
      const badSignature = `${header}.${payload}.${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
      expectUnauthorized(await suite.app.call('GET', path, { token: badSignature }), badSignature);
    });

    test('HS256 signed with another secret', async () => {
      const token = await sign(
        userClaims({ roles: ['GLOBAL_ADMIN'] }),
        secretKey('another-secret-that-is-also-long-enough-0123456789'),
      );
      expectUnauthorized(await suite.app.call('GET', path, { token }), token);
    });

    test('HS512 signed with the right secret (only HS256 is accepted)', async () => {
      const token = await sign(userClaims({ roles: ['GLOBAL_ADMIN'] }), secretKey(TEST_SECRET), {
        alg: 'HS512',
      });
      expectUnauthorized(await suite.app.call('GET', path, { token }), token);
    });

    test('a user token without oid', async () => {
      const token = await sign(
        userClaims({ oid: undefined, roles: ['GLOBAL_ADMIN'] }),
        secretKey(TEST_SECRET),
      );
      const res = await suite.app.call('GET', path, { token });
      expectUnauthorized(res, token);
      expect((res.body as ApiError).error.message).toMatch(/oid/);
    });

    test('an app token that names no app', async () => {
      const token = await sign(
        { tid: TENANT, idtyp: 'app', roles: ['GLOBAL_ADMIN'] },
        secretKey(TEST_SECRET),
      );
      expectUnauthorized(await suite.app.call('GET', path, { token }), token);
    });
  });

  test('the controls above are not vacuous: the same claims, correctly signed, are accepted', async () => {
    const token = await sign(userClaims({ roles: ['GLOBAL_ADMIN'] }), secretKey(TEST_SECRET));
    for (const path of both) expect((await suite.app.call('GET', path, { token })).status).toBe(200);
  });

  test('a token expired by less than the 60 s clock tolerance is still accepted', async () => {
    const token = await sign(userClaims(), secretKey(TEST_SECRET), { exp: now() - 20 });
    expect((await suite.app.call('GET', MY_CATALOG, { token })).status).toBe(200);
  });

  test('the tenant id is compared case-insensitively', async () => {
    const token = await sign(userClaims({ tid: TENANT.toUpperCase() }), secretKey(TEST_SECRET));
    expect((await suite.app.call('GET', MY_CATALOG, { token })).status).toBe(200);
  });

  describe('roles', () => {
    test('a plain user reads their catalog but gets 403 on the admin list', async () => {
      const alex = await suite.app.userToken(PEOPLE.alex);
      expect((await suite.app.call('GET', MY_CATALOG, { token: alex })).status).toBe(200);
      expectForbidden(await suite.app.call('GET', ADMIN_CATALOG, { token: alex }));
    });

    test('a role that does not grant the operation is still 403', async () => {
      const lynne = await suite.app.userToken(PEOPLE.lynne, ['GOVERNANCE_MANAGER']);
      expectForbidden(await suite.app.call('GET', ADMIN_CATALOG, { token: lynne }));
    });

    test('unknown role names in the roles claim grant nothing', async () => {
      const token = await sign(
        userClaims({ roles: ['SUPERUSER', 'global_admin', 42] }),
        secretKey(TEST_SECRET),
      );
      expectForbidden(await suite.app.call('GET', ADMIN_CATALOG, { token }));
    });

    test('the Global Administrator directory role (wids) grants GLOBAL_ADMIN', async () => {
      const token = await sign(
        userClaims({ oid: PEOPLE.megan, wids: [GLOBAL_ADMIN_WID] }),
        secretKey(TEST_SECRET),
      );
      expect((await suite.app.call('GET', ADMIN_CATALOG, { token })).status).toBe(200);
      expect((await suite.app.call('GET', MY_CATALOG, { token })).status).toBe(200);
    });

    test('the Teams Administrator directory role (wids) grants TEAMS_SERVICE_ADMIN', async () => {
      const token = await sign(userClaims({ wids: [TEAMS_ADMIN_WID] }), secretKey(TEST_SECRET));
      expect((await suite.app.call('GET', ADMIN_CATALOG, { token })).status).toBe(200);
    });

    test('an unrelated directory role grants nothing', async () => {
      const token = await sign(
        userClaims({ wids: ['fe930be7-5e62-47db-91af-98c3a49a38b1'] }),
        secretKey(TEST_SECRET),
      );
      expectForbidden(await suite.app.call('GET', ADMIN_CATALOG, { token }));
    });

    test('an app token carrying AUTHORIZED_APP: allowed on the admin list, 403 on /me', async () => {
      const token = await suite.app.appToken('c1c1ef3e-b884-4269-b408-0abab5f156f1', ['AUTHORIZED_APP']);
      expect((await suite.app.call('GET', ADMIN_CATALOG, { token })).status).toBe(200);
      expectForbidden(await suite.app.call('GET', MY_CATALOG, { token }));
    });

    test('a hand-made app token (idtyp app, azp, roles) is an app too', async () => {
      const token = await sign(
        { tid: TENANT, idtyp: 'app', azp: 'c1c1ef3e-b884-4269-b408-0abab5f156f1', roles: ['AUTHORIZED_APP'] },
        secretKey(TEST_SECRET),
      );
      expect((await suite.app.call('GET', ADMIN_CATALOG, { token })).status).toBe(200);
      expectForbidden(await suite.app.call('GET', MY_CATALOG, { token }));
    });

    test('an app token without roles is granted nothing: no admin list, no audit, no template write', async () => {
      const minted = await suite.app.appToken('3f0c5d55-0000-4000-8000-00000000abcd');
      const handMade = await sign(
        { tid: TENANT, idtyp: 'app', azp: '3f0c5d55-0000-4000-8000-00000000abcd' },
        secretKey(TEST_SECRET),
      );
      const admin = await suite.app.userToken(PEOPLE.megan, ['GLOBAL_ADMIN']);
      const original = (await suite.app.call('GET', '/api/v1.0/catalog/templates/project', { token: admin }))
        .body;
      for (const token of [minted, handMade]) {
        expectForbidden(await suite.app.call('GET', ADMIN_CATALOG, { token }));
        expectForbidden(await suite.app.call('GET', '/api/v1.0/audit_trails/events', { token }));
        expectForbidden(
          await suite.app.call('PUT', '/api/v1.0/catalog/templates/project', { token, body: original }),
        );
      }
      // Another app role is exactly that role: INTEGRATION_MANAGER may list hooks, not the audit trails.
      const integration = await suite.app.appToken('3f0c5d55-0000-4000-8000-00000000abcd', [
        'INTEGRATION_MANAGER',
      ]);
      expect((await suite.app.call('GET', '/api/v1.0/hooks', { token: integration })).status).toBe(200);
      expectForbidden(await suite.app.call('GET', '/api/v1.0/audit_trails/events', { token: integration }));
    });

    test("a user's id must be one line of well-formed text: a NUL, a line break or a lone surrogate is a 401", async () => {
      for (const oid of [`${PEOPLE.alex}\u0000`, `${PEOPLE.alex}\n`, `${PEOPLE.alex}\ud800`]) {
        const token = await sign(userClaims({ oid }), secretKey(TEST_SECRET));
        expectUnauthorized(await suite.app.call('GET', MY_CATALOG, { token }), token);
      }
    });

    test('a signature spelt another way (padding, spare bits) is refused; only the canonical one passes', async () => {
      const token = await sign(userClaims(), secretKey(TEST_SECRET));
      expect((await suite.app.call('GET', MY_CATALOG, { token })).status).toBe(200);
      const [header, payload, signature] = token.split('.') as [string, string, string];
      // HS256: 32 bytes, 43 characters, the last one carrying two spare bits.
      const last = signature.at(-1)!;
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      const spare = alphabet[alphabet.indexOf(last) ^ 1]!;
      for (const forged of [
        `${token}==`,
        `${token}=`,
        `${header}.${payload}.${signature.slice(0, -1)}${spare}`,
        `${header}=.${payload}.${signature}`,
      ]) {
        expectUnauthorized(await suite.app.call('GET', MY_CATALOG, { token: forged }), forged);
      }
    });

    test('an app token claiming AUTHENTICATED_USER is still not a user', async () => {
      const token = await sign(
        {
          tid: TENANT,
          idtyp: 'app',
          azp: 'c1c1ef3e-b884-4269-b408-0abab5f156f1',
          roles: ['AUTHENTICATED_USER'],
        },
        secretKey(TEST_SECRET),
      );
      expectForbidden(await suite.app.call('GET', MY_CATALOG, { token }));
    });

    test('a user token carrying roles: [AUTHORIZED_APP] does not get app powers', async () => {
      const minted = await suite.app.userToken(PEOPLE.alex, ['AUTHORIZED_APP']);
      expectForbidden(await suite.app.call('GET', ADMIN_CATALOG, { token: minted }));
      const withoutIdtyp = await sign(
        userClaims({ idtyp: undefined, roles: ['AUTHORIZED_APP'] }),
        secretKey(TEST_SECRET),
      );
      expectForbidden(await suite.app.call('GET', ADMIN_CATALOG, { token: withoutIdtyp }));
      // It is still a user: its own catalog stays open.
      expect((await suite.app.call('GET', MY_CATALOG, { token: minted })).status).toBe(200);
    });
  });
});

describe('authentication with Entra ID (RS256 from JWKS)', () => {
  const issuer = `https://login.microsoftonline.com/${TENANT}/v2.0`;
  const audience = 'api://steward-test';
  const kid = 'test-key-1';
  let db: TestDatabase;
  let app: TestSteward;
  let jwks: Server;
  let jwksRequests = 0;
  let privateKey: KeyLike;
  let publicPem: string;

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256');
    privateKey = pair.privateKey;
    publicPem = await exportSPKI(pair.publicKey);
    const publicJwk = { ...(await exportJWK(pair.publicKey)), kid, alg: 'RS256', use: 'sig' };
    // Restify patches http.ServerResponse so that writeHead() no longer returns `this`: no chaining.
    jwks = createServer((req, res) => {
      jwksRequests += 1;
      const found = req.url === '/keys';
      res.statusCode = found ? 200 : 404;
      res.setHeader('content-type', 'application/json');
      res.end(found ? JSON.stringify({ keys: [publicJwk] }) : '{}');
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    const { port } = jwks.address() as AddressInfo;
    db = await createTestDatabase('sqlite');
    app = await startTestSteward(db, {
      STEWARD_AUTH_MODE: 'entra',
      STEWARD_AUTH_JWKS_URI: `http://127.0.0.1:${port}/keys`,
      STEWARD_AUTH_ISSUER: issuer,
      STEWARD_AUTH_AUDIENCE: audience,
    });
  });
  afterAll(async () => {
    await app.close();
    await db.drop();
    await new Promise<void>((resolve) => jwks.close(() => resolve()));
  });

  const entraClaims = (extra: JWTPayload = {}) => userClaims({ ver: '2.0', ...extra });
  const rs256 = (claims: JWTPayload, options: SignOptions = {}, key: KeyLike = privateKey) =>
    sign(claims, key, { alg: 'RS256', kid, issuer, audience, ...options });

  test('an RS256 token from the JWKS key is accepted, with roles from wids', async () => {
    const token = await rs256(entraClaims());
    expect((await app.call('GET', MY_CATALOG, { token })).status).toBe(200);
    expectForbidden(await app.call('GET', ADMIN_CATALOG, { token }));
    const admin = await rs256(entraClaims({ oid: PEOPLE.megan, wids: [GLOBAL_ADMIN_WID] }));
    expect((await app.call('GET', ADMIN_CATALOG, { token: admin })).status).toBe(200);
    // The keys really came from the fake JWKS endpoint.
    expect(jwksRequests).toBeGreaterThan(0);
  });

  test('an app token from Entra gets the app roles it carries, and nothing without them', async () => {
    const azp = 'c1c1ef3e-b884-4269-b408-0abab5f156f1';
    const token = await rs256({ tid: TENANT, idtyp: 'app', azp, roles: ['AUTHORIZED_APP'] });
    expect((await app.call('GET', ADMIN_CATALOG, { token })).status).toBe(200);
    expectForbidden(await app.call('GET', MY_CATALOG, { token }));
    // What Entra ID issues any app of the tenant when the API does not require assignment.
    const roleless = await rs256({ tid: TENANT, idtyp: 'app', azp: 'f00dbabe-1111-4222-8333-944445555666' });
    expectForbidden(await app.call('GET', ADMIN_CATALOG, { token: roleless }));
    expectForbidden(await app.call('GET', '/api/v1.0/audit_trails/events', { token: roleless }));
    const template = await app.call('GET', '/api/v1.0/catalog/templates/project', { token });
    expect(template.status).toBe(200);
    expectForbidden(
      await app.call('PUT', '/api/v1.0/catalog/templates/project', { token: roleless, body: template.body }),
    );
  });

  test('HS256 is refused, signed with the configured secret or with the public key bytes', async () => {
    for (const key of [secretKey(TEST_SECRET), secretKey(publicPem)]) {
      const token = await sign(entraClaims({ roles: ['GLOBAL_ADMIN'] }), key, {
        alg: 'HS256',
        kid,
        issuer,
        audience,
      });
      const res = await app.call('GET', MY_CATALOG, { token });
      expectUnauthorized(res, token);
      expect((res.body as ApiError).error.message).toMatch(/algorithm/i);
    }
    // An embedded-format token is no good here either.
    const embedded = await app.userToken(PEOPLE.alex, ['GLOBAL_ADMIN']);
    expectUnauthorized(await app.call('GET', MY_CATALOG, { token: embedded }), embedded);
  });

  test('alg: none is refused', async () => {
    const token = unsecured({
      ...entraClaims({ roles: ['GLOBAL_ADMIN'] }),
      iss: issuer,
      aud: audience,
      exp: now() + 600,
    });
    expectUnauthorized(await app.call('GET', MY_CATALOG, { token }), token);
  });

  test('a token signed by another RSA key with the same kid is refused', async () => {
    const other = await generateKeyPair('RS256');
    const token = await rs256(entraClaims(), {}, other.privateKey);
    const res = await app.call('GET', MY_CATALOG, { token });
    expectUnauthorized(res, token);
    expect((res.body as ApiError).error.message).toMatch(/signature/i);
  });

  test('a kid the JWKS does not know is refused', async () => {
    const token = await rs256(entraClaims(), { kid: 'unknown-kid' });
    expectUnauthorized(await app.call('GET', MY_CATALOG, { token }), token);
  });

  test('a wrong audience, a wrong issuer, another tenant or an expired token is refused', async () => {
    const tokens = [
      await rs256(entraClaims(), { audience: 'api://steward' }),
      await rs256(entraClaims(), { issuer: `https://login.microsoftonline.com/${OTHER_TENANT}/v2.0` }),
      await rs256(entraClaims({ tid: OTHER_TENANT })),
      await rs256(entraClaims(), { exp: now() - 120 }),
    ];
    for (const token of tokens) expectUnauthorized(await app.call('GET', MY_CATALOG, { token }), token);
  });
});
