import type { CatalogTemplate } from '../../contract';

/** A template's name in other languages than its own, by language tag (`fr`, `fr-CA`). */
export type NameTranslations = Record<string, { name: string }>;

/**
 * The names of a template's translations (`templateConfiguration.translations`, its descriptions
 * left out), as a request's job and the events about a template record them beside its own name:
 * each card then names the template in its reader's language. Empty when it has none.
 */
export function recordedTranslations(
  config: Pick<CatalogTemplate['templateConfiguration'], 'translations'>,
): {
  translations?: NameTranslations;
} {
  const named = Object.entries(config.translations ?? {}).flatMap(([tag, texts]) =>
    texts.name ? [[tag, { name: texts.name }] as const] : [],
  );
  return named.length > 0 ? { translations: Object.fromEntries(named) } : {};
}
