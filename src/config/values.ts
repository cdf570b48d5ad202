/** Parsing of single settings: each failure is a ConfigError naming the variable. */

/** Raised for a missing or malformed setting; the message names the variable. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

export function integer(
  name: string,
  value: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (value === undefined) return fallback;
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(name, `expected a whole number from ${min} to ${max}, got "${value}"`);
  }
  return n;
}

export function positiveNumber(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0)
    throw new ConfigError(name, `expected a positive number, got "${value}"`);
  return n;
}

export function boolean(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (/^(true|1|yes)$/i.test(value)) return true;
  if (/^(false|0|no)$/i.test(value)) return false;
  throw new ConfigError(name, `expected true or false, got "${value}"`);
}

export function oneOf<const T extends readonly string[]>(
  name: string,
  value: string | undefined,
  choices: T,
  fallback: T[number],
): T[number] {
  if (value === undefined) return fallback;
  if ((choices as readonly string[]).includes(value)) return value as T[number];
  throw new ConfigError(name, `expected one of ${choices.join(', ')}, got "${value}"`);
}

export function url(name: string, value: string): string {
  try {
    const parsed = new URL(value);
    if (!parsed.protocol) throw new Error('no scheme');
  } catch {
    throw new ConfigError(name, `expected a URL, got "${redactUrl(value)}"`);
  }
  return value;
}

/** Hides the password of a URL so that a config error never prints it. */
export function redactUrl(value: string): string {
  // Up to the last "@" before the path, so an unencoded "@" in a password is hidden too.
  return value.replace(/\/\/([^:/@]+):[^/]*@/, '//$1:***@');
}

/** Reads one environment variable (trimmed; empty counts as unset). */
export type Read = (name: string) => string | undefined;
