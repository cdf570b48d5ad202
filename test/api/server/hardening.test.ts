import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { exportJWK, generateKeyPair, type JWTPayload, type KeyLike, SignJWT } from 'jose';
import { request } from 'undici';
import type { ApiError, Job, TeamChannel } from '../../../src/contract';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../support/databases';
import { waitForJob } from '../../support/jobs';
import {
  PEOPLE,
  startTestSteward,
  suiteSteward,
  TENANT,
  TEST_SECRET,
  type TestSteward,
} from '../../support/steward';

const MY_CATALOG = '/api/v1.0/me/catalog/templates';
const UNKNOWN_PERSON = '99999999-0000-0000-0000-000000000777';
const now = () => Math.floor(Date.now() / 1000);

/** An embedded (HS256) token for Alex with the given issue and expiry times. */
function embeddedToken(claims: JWTPayload, times: { iat?: number; exp: number }): Promise<string> {
  const jwt = new SignJWT({ oid: PEOPLE.alex, tid: TENANT, idtyp: 'user', ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer('steward-embedded')
    .setAudience('api://steward')
    .setExpirationTime(times.exp);
  if (times.iat !== undefined) jwt.setIssuedAt(times.iat);
  return jwt.sign(new TextEncoder().encode(TEST_SECRET));
}

/** A non-loopback IPv4 address of this machine, to reach a server as another host would. */
function externalAddress(): string | undefined {
  return Object.values(os.networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
}

describe.each(databaseKinds)('security hardening on %s', (kind) => {
  const suite = suiteSteward(kind, {
    env: { STEWARD_JOB_POLL_MS: '50' },
    people: { alex: { id: PEOPLE.alex }, patti: { id: PEOPLE.patti, roles: ['CATALOG_MANAGER'] } },
  });

  describe('tokens', () => {
    test('a correctly signed token for an object id the directory does not know is a 401', async () => {
      const token = await suite.app.userToken(UNKNOWN_PERSON, ['GLOBAL_ADMIN']);
      const res = await suite.app.call<ApiError>('GET', MY_CATALOG, { token });
      expect(res.status).toBe(401);
      expect(res.body.error.message).toMatch(/nobody in the directory/);
      const provision = await suite.app.call('POST', '/api/v1.0/teams/provisioning', {
        token,
        body: { template: { id: 'project' }, team: { name: 'Owned by nobody' } },
      });
      expect(provision.status).toBe(401);
      // A UPN is not an object id, even when it names someone.
      const byUpn = await suite.app.userToken('alexw@example.com');
      expect((await suite.app.call('GET', MY_CATALOG, { token: byUpn })).status).toBe(401);
      // The same kind of token for someone who exists is accepted (the check is not vacuous).
      expect((await suite.app.call('GET', MY_CATALOG, { token: suite.alex })).status).toBe(200);
    });

    test('the Bearer scheme is case-insensitive', async () => {
      for (const scheme of ['bearer', 'BEARER', 'bEaReR'])
        expect(
          (await suite.app.call('GET', MY_CATALOG, { headers: { authorization: `${scheme} ${suite.alex}` } }))
            .status,
        ).toBe(200);
    });

    test('WWW-Authenticate has no error code when no credentials were sent (RFC 6750 §3.1)', async () => {
      const none = await suite.app.call('GET', MY_CATALOG);
      expect(none.status).toBe(401);
      expect(none.headers['www-authenticate']).toBe('Bearer');
      const basic = await suite.app.call('GET', MY_CATALOG, { headers: { authorization: 'Basic YTpi' } });
      expect(basic.headers['www-authenticate']).toBe('Bearer error="invalid_request"');
      const bad = await suite.app.call('GET', MY_CATALOG, {
        token: 'aaaaaaaaaaaa.bbbbbbbbbbbb.cccccccccccc',
      });
      expect(bad.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    });

    test('embedded tokens live at most a week', async () => {
      const week = 7 * 24 * 3600;
      const ok = await embeddedToken({}, { iat: now(), exp: now() + week });
      expect((await suite.app.call('GET', MY_CATALOG, { token: ok })).status).toBe(200);
      const refused = [
        await embeddedToken({}, { iat: now(), exp: now() + week + 3600 }), // minted for too long
        await embeddedToken({}, { iat: now() - week - 3600, exp: now() + 3600 }), // issued too long ago
        await embeddedToken({}, { iat: now() + 3600, exp: now() + 7200 }), // issued in the future
        await embeddedToken({}, { exp: now() + 3600 }), // no iat: its age cannot be known
      ];
      for (const token of refused) {
        const res = await suite.app.call<ApiError>('GET', MY_CATALOG, { token });
        expect(res.status).toBe(401);
        expect(res.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
      }
    });
  });

  describe('response headers', () => {
    test('API JSON answers say nosniff and no-store, successes and failures alike', async () => {
      const answers = [
        await suite.app.call('GET', MY_CATALOG, { token: suite.alex }),
        await suite.app.call('GET', MY_CATALOG),
        await suite.app.call('GET', '/api/v1.0/catalog/templates', { token: suite.alex }),
        await suite.app.call('GET', '/api/v1.0/no/such/operation', { token: suite.alex }),
        await suite.app.call('GET', '/api/v1.0/openapi.json'),
      ];
      for (const res of answers) {
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['cache-control']).toBe('no-store');
      }
    });

    test('report pages may be framed by Teams only; the viewer by nobody', async () => {
      const lynne = await suite.app.userToken(PEOPLE.lynne, ['GOVERNANCE_MANAGER']);
      const link = await suite.app.call<{ url: string }>(
        'GET',
        '/api/v1.0/reports/dashboard/governance-overview',
        {
          token: lynne,
        },
      );
      const report = await request(link.body.url);
      await report.body.text();
      expect(report.statusCode).toBe(200);
      const reportPolicy = String(report.headers['content-security-policy']);
      expect(reportPolicy).toMatch(/frame-ancestors 'self' https:\/\/teams\.microsoft\.com /);
      expect(reportPolicy).toContain('https://*.cloud.microsoft');
      expect(reportPolicy).not.toMatch(/frame-ancestors[^;]*\*(?!\.)/);
      const viewer = await request(`${suite.app.url}/platform/teams`);
      await viewer.body.text();
      expect(viewer.statusCode).toBe(200);
      expect(String(viewer.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
      expect(viewer.headers['x-frame-options']).toBe('DENY');
      expect(viewer.headers['x-content-type-options']).toBe('nosniff');
    });
  });

  describe('input rules', () => {
    let teamId: string;
    let channelId: string;

    beforeAll(async () => {
      const res = await suite.app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
        token: suite.alex,
        body: { template: { id: 'project' }, team: { name: 'Hardening' } },
      });
      teamId = ((await waitForJob(suite.app, suite.alex, res.body.id)).data.team as { id: string }).id;
      channelId = (
        await suite.app.call<TeamChannel>('GET', `/api/v1.0/teams/${teamId}/channels/primary`, {
          token: suite.alex,
        })
      ).body.id;
    });

    test('a tab URL other than http(s) is refused, on a channel and in a template', async () => {
      for (const url of [
        'javascript:alert(1)',
        'data:text/html,<script>alert(1)</script>',
        'file:///etc/passwd',
        '/relative',
      ]) {
        const res = await suite.app.call<ApiError>(
          'POST',
          `/api/v1.0/teams/${teamId}/channels/${channelId}/tabs`,
          {
            token: suite.alex,
            body: {
              displayName: 'Bad',
              teamsAppId: 'com.microsoft.teamspace.tab.web',
              configuration: { websiteUrl: url },
            },
          },
        );
        expect(res.status).toBe(400);
        expect(res.body.error.details?.[0]?.target).toBe('body.configuration.websiteUrl');
      }
      const good = await suite.app.call('POST', `/api/v1.0/teams/${teamId}/channels/${channelId}/tabs`, {
        token: suite.alex,
        body: {
          displayName: 'Good',
          teamsAppId: 'com.microsoft.teamspace.tab.web',
          configuration: { websiteUrl: 'https://example.com/a' },
        },
      });
      expect(good.status).toBe(201);
      const template = await suite.app.call<ApiError>('PUT', '/api/v1.0/catalog/templates/bad-tab', {
        token: suite.patti,
        body: {
          templateConfiguration: { name: 'Bad tab' },
          newTeam: {
            namingConvention: '<%= request.team.name %>',
            tabs: [
              {
                channel: 'General',
                displayName: 'X',
                teamsAppId: 'web',
                configuration: { contentUrl: 'javascript:alert(1)' },
              },
            ],
          },
        },
      });
      expect(template.status).toBe(400);
      expect(template.body.error.details?.[0]?.target).toBe('body.newTeam.tabs.0.configuration.contentUrl');
    });

    test('template channels follow the channel-name rules of POST /teams/{id}/channels, checked at save', async () => {
      const name = '<svg/onload=alert(1)>';
      const direct = await suite.app.call('POST', `/api/v1.0/teams/${teamId}/channels`, {
        token: suite.megan,
        body: { displayName: name },
      });
      expect(direct.status).toBe(400);
      const template = await suite.app.call<ApiError>('PUT', '/api/v1.0/catalog/templates/bad-channel', {
        token: suite.patti,
        body: {
          templateConfiguration: { name: 'Bad channel' },
          newTeam: { namingConvention: '<%= request.team.name %>', channels: [{ displayName: name }] },
        },
      });
      expect(template.status).toBe(400);
      expect(template.body.error.details?.[0]?.target).toBe('body.newTeam.channels.0.displayName');
      expect(
        (await suite.app.call('GET', '/api/v1.0/catalog/templates/bad-channel', { token: suite.patti }))
          .status,
      ).toBe(404);
    });

    test('"__proto__" keys are refused (400) in metadata documents and queries; nothing is written', async () => {
      const url = `/api/v1.0/teams/${teamId}/metadata/crm`;
      expect((await suite.app.call('PUT', url, { token: suite.megan, body: { tier: 'gold' } })).status).toBe(
        200,
      );
      const bodies = [
        '{"__proto__": {"tier": "gold"}}',
        '{"a": {"b": [{"__proto__": {"x": 1}}]}}',
        '{"\\u005f_proto__": {"tier": "gold"}}',
      ];
      for (const rawBody of bodies) {
        for (const method of ['PUT', 'PATCH']) {
          const res = await suite.app.call<ApiError>(method, url, {
            token: suite.megan,
            rawBody,
            headers: { 'content-type': 'application/json' },
          });
          expect(res.status).toBe(400);
          expect(res.body.error.details?.[0]?.code).toBe('forbiddenKey');
        }
        const query = await suite.app.call<ApiError>('POST', '/api/v1.0/metadata/crm/query', {
          token: suite.megan,
          rawBody,
          headers: { 'content-type': 'application/json' },
        });
        expect(query.status).toBe(400);
      }
      expect((await suite.app.call('GET', url, { token: suite.megan })).body).toEqual({ tier: 'gold' });
      // "constructor" and "prototype" are ordinary keys: stored and matched as data.
      const plain = { constructor: { name: 'x' }, prototype: 1 };
      expect((await suite.app.call('PUT', url, { token: suite.megan, body: plain })).status).toBe(200);
      expect((await suite.app.call('GET', url, { token: suite.megan })).body).toEqual(plain);
      const found = await suite.app.call<unknown[]>('POST', '/api/v1.0/metadata/crm/query', {
        token: suite.megan,
        body: { constructor: { name: 'x' } },
      });
      expect(found.body).toEqual([{ artefact_type: 'MicrosoftTeamsTeam', artefact_id: teamId }]);
    });
  });
});

describe.each(databaseKinds)('the embedded viewer from another machine, on %s', (kind) => {
  const address = externalAddress();

  const suite = suiteSteward(kind, {
    env: {
      STEWARD_HOST: '0.0.0.0',
      STEWARD_PUBLIC_URL: 'https://steward.example.com',
    },
  });

  test('answers loopback peers only: another host gets 403 and no team', async () => {
    if (!address) throw new Error('this test needs a non-loopback IPv4 interface');
    const port = new URL(suite.app.url).port;
    const local = await request(`http://127.0.0.1:${port}/platform/teams`);
    expect(local.statusCode).toBe(200);
    const localHtml = await local.body.text();
    expect(localHtml).toContain('/platform/teams/');
    for (const path of ['/platform/teams', '/platform/teams/seed-team-onboarding-template']) {
      const remote = await request(`http://${address}:${port}${path}`);
      const html = await remote.body.text();
      expect(remote.statusCode).toBe(403);
      expect(html).toContain('Only on this machine');
      expect(html).not.toContain('/platform/teams/');
    }
    // The API itself still answers other hosts.
    expect((await request(`http://${address}:${port}/healthz`)).statusCode).toBe(200);
  });
});

describe.each(databaseKinds)('Entra ID tokens for people the directory does not know, on %s', (kind) => {
  const issuer = `https://login.microsoftonline.com/${TENANT}/v2.0`;
  const audience = 'api://steward-test';
  let db: TestDatabase;
  let app: TestSteward;
  let jwks: Server;
  let privateKey: KeyLike;

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256');
    privateKey = pair.privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    jwks = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    db = await createTestDatabase(kind);
    app = await startTestSteward(db, {
      STEWARD_AUTH_MODE: 'entra',
      STEWARD_AUTH_JWKS_URI: `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/keys`,
      STEWARD_AUTH_ISSUER: issuer,
      STEWARD_AUTH_AUDIENCE: audience,
    });
  });
  afterAll(async () => {
    await app.close();
    await db.drop();
    await new Promise<void>((resolve) => jwks.close(() => resolve()));
  });

  const rs256 = (oid: string) =>
    new SignJWT({ oid, tid: TENANT, idtyp: 'user', ver: '2.0' })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1', typ: 'JWT' })
      .setIssuer(issuer)
      .setAudience(audience)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);

  test('the object id is resolved through the directory: unknown is 401, known is 200', async () => {
    expect((await app.call('GET', MY_CATALOG, { token: await rs256(PEOPLE.alex) })).status).toBe(200);
    const res = await app.call<ApiError>('GET', MY_CATALOG, { token: await rs256(UNKNOWN_PERSON) });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/nobody in the directory/);
  });
});
