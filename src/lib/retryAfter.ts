/**
 * `Retry-After` (RFC 9110, section 10.2.3): how long a server asks to be left alone, as
 * delay-seconds (`120`) or as an HTTP-date (section 5.6.7). Anything else is not understood.
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';

/** IMF-fixdate, the form servers send: `Sun, 06 Nov 1994 08:49:37 GMT`. */
const IMF_FIXDATE = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
/** The obsolete RFC 850 form, with a two-digit year: `Sunday, 06-Nov-94 08:49:37 GMT`. */
const RFC_850 = new RegExp(
  `^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`,
);
/** The obsolete asctime form, in UTC though it says no zone: `Sun Nov  6 08:49:37 1994`. */
const ASCTIME = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ${MONTH} (\\d{2}| \\d) ${TIME} (\\d{4})$`);

/**
 * A `Retry-After` value as the milliseconds to wait from `now`: delay-seconds (digits only), or an
 * HTTP-date in any of the three forms a recipient must read (a date already past is 0).
 * `undefined` when the value is absent, empty, or neither (`1.5`, `-1`, an ISO 8601 date, a day
 * that does not exist): the caller then waits as it would without one.
 */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = parseHttpDate(text, now);
  return date === undefined ? undefined : Math.max(0, date - now);
}

/**
 * An HTTP-date (RFC 9110, section 5.6.7), case-sensitive as the grammar is, in ms since the epoch;
 * its day name is not checked. A two-digit RFC 850 year is the year ending in those digits that is
 * at most 50 years ahead of `now`'s and less than 50 behind, as the RFC asks.
 */
function parseHttpDate(text: string, now: number): number | undefined {
  let match = IMF_FIXDATE.exec(text);
  if (match) {
    const [, day, month, year, hour, minute, second] = match;
    return utc(Number(year), month!, Number(day), hour!, minute!, second!);
  }
  match = RFC_850.exec(text);
  if (match) {
    const [, day, month, twoDigits, hour, minute, second] = match;
    const thisYear = new Date(now).getUTCFullYear();
    let year = thisYear - (thisYear % 100) + Number(twoDigits);
    if (year > thisYear + 50) year -= 100;
    else if (year <= thisYear - 50) year += 100;
    return utc(year, month!, Number(day), hour!, minute!, second!);
  }
  match = ASCTIME.exec(text);
  if (match) {
    const [, month, day, hour, minute, second, year] = match;
    return utc(Number(year), month!, Number(day), hour!, minute!, second!);
  }
  return undefined;
}

/** The instant of a date and time in UTC, or `undefined` when that day or time does not exist. */
function utc(
  year: number,
  monthName: string,
  day: number,
  hour: string,
  minute: string,
  second: string,
): number | undefined {
  const month = MONTHS.indexOf(monthName);
  const [h, m, s] = [Number(hour), Number(minute), Number(second)];
  // 60 seconds is a leap second (RFC 5322's time-of-day allows it).
  if (day < 1 || h > 23 || m > 59 || s > 60) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(year, month + 1, 0);
  if (day > date.getUTCDate()) return undefined;
  date.setUTCFullYear(year, month, day);
  date.setUTCHours(h, m, s, 0);
  return date.getTime();
}
