import type { CatalogTemplate } from '../../client';
import type { Reader } from '../i18n/catalog';

/** What a person reads of a template: its name and description. */
export interface TemplateTexts {
  name: string;
  description: string;
}

/**
 * A template's name and description in the reader's language: its translation for their locale
 * (`fr-CA`), else for their language (`fr`, or any `fr-…` one), else its own texts. A translation
 * may give only one of the two; the other stays the template's own.
 */
export function templateTexts(
  config: Pick<CatalogTemplate['templateConfiguration'], 'name' | 'description' | 'translations'>,
  reader: Pick<Reader, 'language' | 'locale'>,
): TemplateTexts {
  const own = { name: config.name, description: config.description };
  const translations = config.translations;
  if (!translations) return own;
  const tags = Object.keys(translations);
  const lower = (tag: string) => tag.toLowerCase();
  const locale = lower(reader.locale);
  const tag =
    tags.find((candidate) => lower(candidate) === locale) ??
    tags.find((candidate) => lower(candidate) === reader.language) ??
    tags.find((candidate) => lower(candidate).startsWith(`${reader.language}-`));
  const chosen = tag ? translations[tag] : undefined;
  return { name: chosen?.name ?? own.name, description: chosen?.description ?? own.description };
}
