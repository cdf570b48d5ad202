/**
 * Steward's words, one catalog per language (`en.ts`, `fr.ts`), chosen from the activity's
 * `locale` with English as the fallback.
 *
 * Why a catalog of our own rather than i18next: the bot needs two languages, a few dozen sentences
 * with named values, lists of names, and dates in a time zone. A typed object per language gets
 * the compiler to refuse a French catalog that misses a key (i18next finds a missing key only at
 * run time, and types its keys only with extra declaration work); `Intl.ListFormat` and
 * `Intl.DateTimeFormat` in Node already do lists, dates and time zones per locale; and no
 * dependency is added to a bot that must stay small. i18next would pay off with many languages,
 * translators' file formats or lazy-loaded bundles, none of which Steward has.
 */
import { BoundedCache } from '../../lib/boundedCache';
import { en, type MessageKey } from './en';
import { FRENCH_FEMININE, fr } from './fr';

/** The languages Steward speaks. */
export type Language = 'en' | 'fr';

const CATALOGS: Record<Language, Record<MessageKey, string>> = { en, fr };

/** Per language, the catalog's nouns that are feminine (English has no grammatical gender). */
const FEMININE: Record<Language, ReadonlySet<MessageKey>> = { en: new Set(), fr: FRENCH_FEMININE };

/** Whether the noun `key` says is feminine in the reader's language, so what is said of it agrees. */
export function isFeminine(reader: Reader, key: MessageKey): boolean {
  return FEMININE[reader.language].has(key);
}

/** Where and how a person reads: their language, their locale (for dates) and their time zone. */
export interface Reader {
  language: Language;
  /** A BCP 47 tag such as `fr-FR`, for dates and lists. */
  locale: string;
  /** An IANA time zone such as `Europe/Paris`; UTC when unknown. */
  timeZone: string;
}

/** English, in UTC: for readers Steward knows nothing about. */
export const DEFAULT_READER: Reader = { language: 'en', locale: 'en-US', timeZone: 'UTC' };

/** The reader of an activity's `locale` and `localTimezone` (either may be missing or invalid). */
export function readerOf(locale: unknown, timeZone: unknown): Reader {
  const tag = typeof locale === 'string' ? locale.trim() : '';
  let canonical = 'en-US';
  try {
    canonical = tag ? (Intl.getCanonicalLocales(tag)[0] ?? 'en-US') : 'en-US';
  } catch {
    canonical = 'en-US';
  }
  const language: Language = canonical.toLowerCase().startsWith('fr') ? 'fr' : 'en';
  return {
    language,
    locale: language === 'en' && !canonical.startsWith('en') ? 'en-US' : canonical,
    timeZone: zoneOf(timeZone),
  };
}

/** Where each language's dates and numbers are written when the person's locale is another language's. */
const LANGUAGE_LOCALE: Record<Language, string> = { en: 'en-US', fr: 'fr-FR' };

/** `reader` in `language` (a person's own choice): same time zone, and a locale of that language. */
export function readerIn(reader: Reader, language: Language): Reader {
  if (reader.language === language) return reader;
  return { language, locale: LANGUAGE_LOCALE[language], timeZone: reader.timeZone };
}

/** Whether two readers read alike (so a stored one need not be written again). */
export function sameReader(a: Reader | undefined, b: Reader): boolean {
  return a?.language === b.language && a.locale === b.locale && a.timeZone === b.timeZone;
}

/** The language a person names ("fr", "French", "français"), or null. */
export function languageNamed(word: string): Language | null {
  const name = word.trim().toLowerCase();
  if (['fr', 'french', 'français', 'francais'].includes(name)) return 'fr';
  if (['en', 'english', 'anglais'].includes(name)) return 'en';
  return null;
}

/**
 * The formatters made so far, by kind, locale and time zone: making one costs far more than using
 * it (a card shows several dates). Locales and zones come from people's clients, hence the bound.
 */
const formatters = new BoundedCache<string, object>(256);

function formatter<T extends object>(key: string, make: () => T): T {
  return formatters.getOrMake(key, make) as T;
}

/** The canonical name of a time zone a client sent ("europe/paris" → "Europe/Paris"), or UTC. */
function zoneOf(value: unknown): string {
  if (typeof value !== 'string' || !value.trim()) return 'UTC';
  const zone = value.trim();
  try {
    return formatter(
      `zone ${zone}`,
      () => new Intl.DateTimeFormat('en-US', { timeZone: zone }),
    ).resolvedOptions().timeZone;
  } catch {
    return 'UTC';
  }
}

/** A French word that drops its vowel before a vowel ("de Adele" is written "d’Adele"). */
const ELIDED = /(?:(?<!\p{L})(de|que) )?\{(\w+)\}/gu;

/** Whether a French word elides before `text` (a leading vowel; not h, which names make ambiguous). */
const startsWithVowel = (text: string): boolean => /^[aeiouàâäéèêëîïôöûùüœæ]/iu.test(text);

/**
 * The sentence `key` in the reader's language, with `{name}` placeholders filled in; in French,
 * "de" and "que" before a value that starts with a vowel are elided, as a name such as Adele needs.
 */
export function say(reader: Reader, key: MessageKey, values: Record<string, string | number> = {}): string {
  const template = CATALOGS[reader.language][key] ?? en[key];
  return template.replace(ELIDED, (placeholder, word: string | undefined, name: string) => {
    if (!(name in values)) return placeholder;
    const value = String(values[name]);
    if (!word) return value;
    return reader.language === 'fr' && startsWithVowel(value)
      ? `${word.slice(0, -1)}’${value}`
      : `${word} ${value}`;
  });
}

/** The messages said with a count: `key.one` and `key.other` (and any other plural category) in the catalogs. */
export type CountedKey = {
  [K in MessageKey]: K extends `${infer Base}.other` ? Base : never;
}[MessageKey];

/**
 * The sentence `key` for `count` things in the reader's language, with its real plural: the
 * catalog's `key.one` or `key.other` (or another of `Intl.PluralRules`' categories when the
 * catalog has it), chosen by the language's own rules (French says "0 demande", English
 * "0 requests"). `{count}` is the number as the reader writes it.
 */
export function sayCount(
  reader: Reader,
  key: CountedKey,
  count: number,
  values: Record<string, string | number> = {},
): string {
  const category = formatter(`plural ${reader.locale}`, () => new Intl.PluralRules(reader.locale)).select(
    count,
  );
  const chosen = `${key}.${category}`;
  const catalog = CATALOGS[reader.language];
  const plural = (chosen in catalog ? chosen : `${key}.other`) as MessageKey;
  return say(reader, plural, { ...values, count: numberFor(reader, count) });
}

/** Names as one line in the reader's language: "Adele Vance et Siobhán O'Connor". */
export function namesIn(reader: Reader, names: readonly string[]): string {
  return formatter(
    `and ${reader.locale}`,
    () => new Intl.ListFormat(reader.locale, { style: 'long', type: 'conjunction' }),
  ).format(names);
}

/** Names as alternatives in the reader's language: "Lucía Álvarez or Lucas Fernández Ruiz". */
export function alternativesIn(reader: Reader, names: readonly string[]): string {
  return formatter(
    `or ${reader.locale}`,
    () => new Intl.ListFormat(reader.locale, { style: 'long', type: 'disjunction' }),
  ).format(names);
}

/** A number as the reader writes it: "1,234" in English, "1 234" in French. */
export function numberFor(reader: Reader, value: number): string {
  return formatter(`number ${reader.locale}`, () => new Intl.NumberFormat(reader.locale)).format(value);
}

/**
 * A percentage as the reader writes it, the one way every card and list says one: "40%" in English,
 * "40 %" in French (a narrow no-break space, as French typography has it).
 */
export function percentFor(reader: Reader, value: number): string {
  return formatter(
    `percent ${reader.locale}`,
    () => new Intl.NumberFormat(reader.locale, { style: 'percent', maximumFractionDigits: 0 }),
  )
    .format(value / 100)
    .replace(/[\u00a0 ]%/u, '\u202f%');
}

/** A date and time as the reader reads it, in their time zone. */
export function dateTimeFor(reader: Reader, iso: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return '';
  return formatter(
    `dateTime ${reader.locale} ${reader.timeZone}`,
    () =>
      new Intl.DateTimeFormat(reader.locale, {
        dateStyle: 'medium',
        timeStyle: 'short',
        timeZone: reader.timeZone,
      }),
  ).format(new Date(time));
}

/**
 * A calendar day (`YYYY-MM-DD`) as the reader writes it: "March 3, 2027", "3 mars 2027". A day has
 * no time zone (lifecycle dates are days), so it is formatted as written, never shifted by one.
 */
export function dayFor(reader: Reader, day: string): string {
  const time = Date.parse(`${day}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(time)) return day;
  return formatter(
    `day ${reader.locale}`,
    () => new Intl.DateTimeFormat(reader.locale, { dateStyle: 'long', timeZone: 'UTC' }),
  ).format(new Date(time));
}
