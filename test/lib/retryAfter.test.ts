import { parseRetryAfter } from '../../src/lib/retryAfter';

const NOW = Date.parse('2025-06-01T12:00:00Z');

describe('parseRetryAfter (RFC 9110: delay-seconds or an HTTP-date)', () => {
  test('delay-seconds are whole seconds, with optional whitespace around them', () => {
    expect(parseRetryAfter('7', NOW)).toBe(7_000);
    expect(parseRetryAfter('120', NOW)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', NOW)).toBe(0);
    expect(parseRetryAfter('007', NOW)).toBe(7_000);
  });

  test('an IMF-fixdate is the time until then; a date already past is 0', () => {
    expect(parseRetryAfter('Sun, 01 Jun 2025 12:00:30 GMT', NOW)).toBe(30_000);
    expect(parseRetryAfter('Sun, 01 Jun 2025 11:00:00 GMT', NOW)).toBe(0);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:00 GMT', NOW)).toBe(
      Date.parse('2026-01-01T00:00:00Z') - NOW,
    );
    expect(parseRetryAfter('Sat, 29 Feb 2028 00:00:00 GMT', NOW)).toBe(
      Date.parse('2028-02-29T00:00:00Z') - NOW,
    );
  });

  test('the obsolete RFC 850 and asctime forms are read too, both in UTC', () => {
    expect(parseRetryAfter('Sunday, 01-Jun-25 12:01:00 GMT', NOW)).toBe(60_000);
    expect(parseRetryAfter('Sun Jun  1 12:00:05 2025', NOW)).toBe(5_000);
    expect(parseRetryAfter('Sun Jun 01 12:00:05 2025', NOW)).toBe(5_000);
    const asctime = Date.UTC(1994, 10, 6, 8, 49, 37);
    expect(parseRetryAfter('Sun Nov  6 08:49:37 1994', asctime - 1_000)).toBe(1_000);
  });

  test('a two-digit year is at most 50 years ahead of now and less than 50 behind', () => {
    const in2099 = Date.parse('2099-06-01T00:00:00Z');
    // 2101, not 2001: one year and a half ahead.
    expect(parseRetryAfter('Saturday, 01-Jan-01 00:00:00 GMT', in2099)).toBe(
      Date.parse('2101-01-01T00:00:00Z') - in2099,
    );
    // 1980, not 2080: more than 50 years ahead of 2025.
    expect(parseRetryAfter('Tuesday, 01-Jan-80 00:00:00 GMT', NOW)).toBe(0);
    expect(parseRetryAfter('Tuesday, 01-Jan-30 00:00:00 GMT', NOW)).toBe(
      Date.parse('2030-01-01T00:00:00Z') - NOW,
    );
  });

  test('anything else is not understood, so the caller waits as it would without one', () => {
    for (const value of [
      undefined,
      '',
      '   ',
      '-1',
      '+5',
      '1.5',
      '1e3',
      '0x10',
      'soon',
      '12345678901234567890x',
      // Not HTTP-dates, though Date.parse reads them.
      '2026-01-01',
      '2030-01-01T00:00:00Z',
      'Wed, 1 Jan 2030 00:00:00 GMT',
      'Wed, 01 Jan 2030 00:00:00 UTC',
      'wed, 01 jan 2030 00:00:00 gmt',
      'Wed, 01 Jan 2030 00:00 GMT',
      // Days and times that do not exist.
      'Sun, 31 Feb 2030 00:00:00 GMT',
      'Fri, 29 Feb 2030 00:00:00 GMT',
      'Wed, 00 Jan 2030 00:00:00 GMT',
      'Wed, 01 Jan 2030 24:00:00 GMT',
      'Wed, 01 Jan 2030 00:60:00 GMT',
    ]) {
      expect([value, parseRetryAfter(value, NOW)]).toEqual([value, undefined]);
    }
  });
});
