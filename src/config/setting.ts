import { type Setting, SETTINGS, type SettingName } from './settings';
import { boolean, ConfigError, integer, oneOf, positiveNumber, type Read, url } from './values';

type Described = (typeof SETTINGS)[SettingName];

/** What a setting of this description parses to. */
type ValueOf<S> = S extends { type: 'integer' | 'number' | 'share' }
  ? number
  : S extends { type: 'boolean' }
    ? boolean
    : S extends { type: 'choice'; choices: readonly (infer C)[] }
      ? C
      : string;

/** A setting with a default always has a value; one without is undefined while unset. */
export type SettingValue<N extends SettingName> = (typeof SETTINGS)[N] extends { default: unknown }
  ? ValueOf<(typeof SETTINGS)[N]>
  : ValueOf<(typeof SETTINGS)[N]> | undefined;

/**
 * Reads the setting `name` through `read` and parses it as `SETTINGS` describes it: its type, its
 * bounds or choices, its default when unset. A bad value is a ConfigError naming the setting.
 * Checks a format beyond the type (`format`) are the reader's, on the text this returns.
 */
export function setting<N extends SettingName>(read: Read, name: N): SettingValue<N> {
  return parse(read, name, SETTINGS[name] as Described & Setting) as SettingValue<N>;
}

function parse(read: Read, name: string, described: Setting): string | number | boolean | undefined {
  const value = read(name);
  switch (described.type) {
    case 'integer': {
      const floor =
        described.atLeast === undefined
          ? described.min
          : Math.max(described.min, Number(setting(read, described.atLeast as SettingName)));
      if (value === undefined) return described.default;
      return integer(name, value, 0, floor, described.max);
    }
    case 'number':
      return value === undefined ? described.default : positiveNumber(name, value, 0);
    case 'share': {
      if (value === undefined) return described.default;
      const share = positiveNumber(name, value, 0);
      if (share > 1) throw new ConfigError(name, `expected a share from 0 to 1, got "${share}"`);
      return share;
    }
    case 'boolean':
      return value === undefined ? described.default : boolean(name, value, false);
    case 'choice':
      return value === undefined ? described.default : oneOf(name, value, described.choices, '');
    case 'url':
      return value === undefined ? described.default : url(name, value);
    case 'text':
      return value ?? described.default;
  }
}
