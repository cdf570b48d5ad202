import { backoffDelay, mayRetry, retryDelay } from '../../src/client/retry';
import { parseRetryAfter } from '../../src/lib/retryAfter';
import { apiPath, nextLinkPath } from '../../src/client/url';

const OPTIONS = { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 1_000 };

describe('the retry policy', () => {
  test('only idempotent requests may be sent twice', () => {
    for (const method of ['GET', 'HEAD', 'PUT', 'DELETE']) expect(mayRetry(method, undefined)).toBe(true);
    for (const method of ['POST', 'PATCH']) expect(mayRetry(method, undefined)).toBe(false);
    expect(mayRetry('POST', true)).toBe(true);
  });

  test('Retry-After in seconds or as an HTTP date; anything else is ignored', () => {
    const now = Date.parse('2025-06-01T12:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Sun, 01 Jun 2025 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sun, 01 Jun 2025 11:00:00 GMT', now)).toBe(0);
    for (const garbage of [undefined, '', '-1', '1.5', 'soon', '12345678901234567890x']) {
      expect(parseRetryAfter(garbage, now)).toBeUndefined();
    }
  });

  test('429, 502, 503 and 504 are retried; Retry-After is honoured up to maxDelayMs', () => {
    const status = (code: number, retryAfterMs?: number) => ({
      kind: 'status' as const,
      status: code,
      code: 'unexpectedResponse',
      retryAfterMs,
    });
    for (const code of [429, 502, 503, 504]) expect(retryDelay(status(code, 500), 0, OPTIONS)).toBe(500);
    for (const code of [400, 401, 403, 404, 409, 413, 500])
      expect(retryDelay(status(code, 500), 0, OPTIONS)).toBeUndefined();
    expect(retryDelay(status(429, 1_000), 0, OPTIONS)).toBe(1_000);
    expect(retryDelay(status(429, 1_001), 0, OPTIONS)).toBeUndefined();
    expect(retryDelay(status(503), 0, OPTIONS, () => 0.5)).toBe(50);
    expect(retryDelay(status(503, 10), 3, OPTIONS)).toBeUndefined();
  });

  test("Steward's own 502 (the platform refused) is final; a proxy's 502 is retried", () => {
    const bad = (code: string) => ({ kind: 'status' as const, status: 502, code, retryAfterMs: undefined });
    expect(retryDelay(bad('platformError'), 0, OPTIONS)).toBeUndefined();
    expect(retryDelay(bad('unexpectedResponse'), 0, OPTIONS)).toBeDefined();
  });

  test('network failures that may pass are retried, others are not', () => {
    for (const code of [
      'ECONNRESET',
      'ECONNREFUSED',
      'UND_ERR_SOCKET',
      'UND_ERR_HEADERS_TIMEOUT',
      'timeout',
    ]) {
      expect(retryDelay({ kind: 'network', code }, 0, OPTIONS)).toBeDefined();
    }
    for (const code of ['UND_ERR_CLOSED', 'UND_ERR_DESTROYED', 'ENOTFOUND', 'network']) {
      expect(retryDelay({ kind: 'network', code }, 0, OPTIONS)).toBeUndefined();
    }
  });

  test('backoff is full jitter under min(maxDelayMs, base × 2^retry)', () => {
    const ceilings = [100, 200, 400, 800, 1_000, 1_000];
    ceilings.forEach((ceiling, retry) => {
      expect(backoffDelay(retry, OPTIONS, () => 0)).toBe(0);
      expect(backoffDelay(retry, OPTIONS, () => 0.999_999)).toBe(ceiling - 1);
      for (let i = 0; i < 200; i++) {
        const delay = backoffDelay(retry, OPTIONS);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThan(ceiling);
      }
    });
  });
});

describe('request URLs', () => {
  test('path parameters are encoded whole; empty and dot segments are refused', () => {
    expect(
      apiPath('/teams/{teamId}/channels/{channelId}', { teamId: 'a/b', channelId: '19:x@thread.tacv2' }),
    ).toBe('/teams/a%2Fb/channels/19%3Ax%40thread.tacv2');
    for (const bad of ['', '.', '..'])
      expect(() => apiPath('/teams/{teamId}', { teamId: bad })).toThrow(TypeError);
    expect(() => apiPath('/teams/{teamId}', {})).toThrow(TypeError);
  });

  test('queries leave undefined values out and write dates as ISO 8601', () => {
    expect(apiPath('/users', {}, { $top: 5, $skip: undefined, $search: 'x y&z' })).toBe(
      '/users?%24top=5&%24search=x+y%26z',
    );
    expect(apiPath('/users', {}, { $skip: undefined })).toBe('/users');
  });

  test('next links keep only their path under the API and their query', () => {
    expect(nextLinkPath('https://other.example.com/base/api/v1.0/users?$skip=5')).toBe('/users?$skip=5');
    expect(nextLinkPath('/api/v1.0/audit_trails/security/records?$skiptoken=abc')).toBe(
      '/audit_trails/security/records?$skiptoken=abc',
    );
    expect(() => nextLinkPath('https://other.example.com/steal?x=/api/v1.0/')).toThrow(TypeError);
  });
});
