import { ConfigError } from '../../src/config';

/** The ConfigError that `load` raises; fails the test when it raises nothing or something else. */
export function configErrorOf(load: () => unknown, what: string): ConfigError {
  try {
    load();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`no ConfigError for ${what}`);
}
