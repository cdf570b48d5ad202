import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GrantSeal } from '../../src/domain/delegation';
import { loadConfig } from '../../src/config';
import { DEMO_CHOICES } from '../support/demoChoices';

const KEY = 'a-delegation-key-that-is-long-enough-0123456789';
const grant = {
  userId: 'alex',
  token: 'eyJ.delegated-token.sig',
  expiresAt: new Date('2026-05-04T10:00:00Z'),
  refreshToken: 'refresh-token-secret',
  as: 'requester' as const,
  keptUntil: new Date('2026-06-04T10:00:00Z'),
};
const approver = { ...grant, userId: 'adele', refreshToken: undefined, as: 'approver' as const };

describe('sealed delegated grants', () => {
  test('open only with the same key, for the same job, unaltered; the token is not in the sealed text', () => {
    const seal = new GrantSeal(KEY);
    const sealed = seal.seal([grant], 'job-1');
    expect(sealed).not.toContain(grant.token);
    const opened = Buffer.from(sealed.split('.').slice(1).join(''), 'base64url').toString('latin1');
    expect(opened).not.toContain('delegated-token');
    expect(opened).not.toContain('refresh-token');
    expect(seal.open(sealed, 'job-1')).toEqual([grant]);
    const { refreshToken: _none, ...withoutRefresh } = approver;
    expect(seal.open(seal.seal([grant, approver], 'job-1'), 'job-1')).toEqual([grant, withoutRefresh]);
    expect(seal.open(sealed, 'job-2')).toBeUndefined();
    expect(new GrantSeal(`${KEY}-other`).open(sealed, 'job-1')).toBeUndefined();
    const [version, iv, tag, body] = sealed.split('.');
    const flipped = `${body!.slice(0, -2)}${body!.endsWith('AA') ? 'AB' : 'AA'}`;
    expect(seal.open([version, iv, tag, flipped].join('.'), 'job-1')).toBeUndefined();
    expect(seal.open('v1.garbage', 'job-1')).toBeUndefined();
    // A fresh nonce each time: sealing twice gives two texts.
    expect(seal.seal([grant], 'job-1')).not.toBe(sealed);
  });
});

describe('delegation settings', () => {
  const base = {
    ...DEMO_CHOICES,
    STEWARD_DATA_DIR: '/tmp/steward-delegation-config',
    STEWARD_AUTH_SECRET: 'x'.repeat(40),
    STEWARD_PLATFORM: 'graph',
    STEWARD_GRAPH_TENANT_ID: 't',
    STEWARD_GRAPH_CLIENT_ID: 'graph-app',
    STEWARD_GRAPH_CLIENT_SECRET: 'graph-secret',
  };
  const entra = {
    STEWARD_AUTH_MODE: 'entra',
    STEWARD_AUTH_JWKS_URI: 'http://127.0.0.1:1/keys',
    STEWARD_AUTH_ISSUER: 'issuer',
    STEWARD_AUTH_AUDIENCE: 'api://steward',
  };
  const onBehalfOf = (env: Record<string, string>) => {
    const platform = loadConfig(env).platform;
    return platform.kind === 'graph' ? platform.onBehalfOf : undefined;
  };

  test('people signing in with Steward’s own tokens cannot be exchanged', () => {
    expect(onBehalfOf(base)).toEqual({ unavailable: expect.stringContaining('STEWARD_AUTH_MODE=embedded') });
  });

  test('with Entra ID: the API app when given, else the Graph app with a secret, else nobody', () => {
    expect(onBehalfOf({ ...base, ...entra })).toEqual({
      clientId: 'graph-app',
      clientSecret: 'graph-secret',
    });
    expect(
      onBehalfOf({
        ...base,
        ...entra,
        STEWARD_API_CLIENT_ID: 'api-app',
        STEWARD_API_CLIENT_SECRET: 'api-secret',
      }),
    ).toEqual({ clientId: 'api-app', clientSecret: 'api-secret' });
    const { STEWARD_GRAPH_CLIENT_SECRET: _secret, ...managed } = base;
    expect(onBehalfOf({ ...managed, ...entra, STEWARD_GRAPH_MANAGED_IDENTITY: 'true' })).toEqual({
      unavailable: expect.stringContaining('STEWARD_API_CLIENT_ID'),
    });
    expect(() => loadConfig({ ...base, ...entra, STEWARD_API_CLIENT_ID: 'api-app' })).toThrow(
      /STEWARD_API_CLIENT_SECRET: STEWARD_API_CLIENT_ID and STEWARD_API_CLIENT_SECRET go together/,
    );
  });

  test('the sealing key and the longest wait', () => {
    expect(loadConfig(base).delegatedGrants).toEqual({
      sealSecret: base.STEWARD_AUTH_SECRET,
      maxSeconds: 30 * 24 * 3600,
    });
    expect(
      loadConfig({ ...base, STEWARD_DELEGATION_KEY: 'k'.repeat(32), STEWARD_DELEGATION_MAX_MINUTES: '90' })
        .delegatedGrants,
    ).toEqual({ sealSecret: 'k'.repeat(32), maxSeconds: 5400 });
    expect(() => loadConfig({ ...base, STEWARD_DELEGATION_KEY: 'short' })).toThrow(/STEWARD_DELEGATION_KEY/);
    // In entra mode without a key or an auth secret: one generated once into the data dir, kept
    // across starts (webhook secrets sealed under it must open after a restart).
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'steward-seal-key-'));
    try {
      const { STEWARD_AUTH_SECRET: _secret, ...noSecret } = base;
      const first = loadConfig({ ...noSecret, ...entra, STEWARD_DATA_DIR: dataDir }).delegatedGrants
        .sealSecret;
      expect(first).toBe(readFileSync(path.join(dataDir, 'seal-key'), 'utf8').trim());
      expect(Buffer.byteLength(first)).toBeGreaterThanOrEqual(32);
      expect(
        loadConfig({ ...noSecret, ...entra, STEWARD_DATA_DIR: dataDir }).delegatedGrants.sealSecret,
      ).toBe(first);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
    // Longer than a refresh token lives (90 days) is of no use.
    expect(() => loadConfig({ ...base, STEWARD_DELEGATION_MAX_MINUTES: '129601' })).toThrow(
      /STEWARD_DELEGATION_MAX_MINUTES/,
    );
  });
});
