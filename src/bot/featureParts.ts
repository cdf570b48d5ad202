/**
 * Checks of tables merged from each feature's part (the verb table in verbs.ts, the intents'
 * answers in intentAnswers.ts), in the way the word catalogs are merged (`i18n/en.ts`): a spread
 * keeps only the last part's entry of a key two parts define, so the compiler must refuse that.
 */

/** Every key of any of `Parts`. */
type AnyKeyOf<Parts extends readonly object[]> = Parts extends readonly [
  infer First extends object,
  ...infer Rest extends readonly object[],
]
  ? keyof First | AnyKeyOf<Rest>
  : never;

/** The keys two of `Parts` both define (never when each is defined once). */
export type KeysInTwo<Parts extends readonly object[]> = Parts extends readonly [
  infer First extends object,
  ...infer Rest extends readonly object[],
]
  ? Extract<keyof First, AnyKeyOf<Rest>> | KeysInTwo<Rest>
  : never;

/** `true` when each key is defined once; otherwise the keys defined twice, which `true` is not. */
export type EachKeyOnce<Parts extends readonly object[]> = [KeysInTwo<Parts>] extends [never]
  ? true
  : KeysInTwo<Parts>;
