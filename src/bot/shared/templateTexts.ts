import type { Reader } from '../i18n/catalog';

/** What a person reads of a template: its name and description. */
export interface TemplateTexts {
  name: string;
  description: string;
}

/** A template's name in other languages than its own, by language tag (`fr`, `fr-CA`). */
export type NameTranslations = Readonly<Record<string, { name?: string }>>;

/**
 * A template's name as a request's job or an event about the template records it: its own, and its
 * translations' (absent from what was recorded before they were).
 */
export interface TemplateName {
  name: string;
  translations?: NameTranslations;
}

/** A template's texts and their translations, as the catalog has them. */
interface TranslatedTexts extends TemplateTexts {
  translations?: Readonly<Record<string, { name?: string; description?: string }>>;
}

/**
 * A template's name and description in the reader's language: its translation for their locale
 * (`fr-CA`), else for their language (`fr`, or any `fr-…` one), else its own texts. A translation
 * may give only one of the two; the other stays the template's own.
 */
export function templateTexts(
  config: TranslatedTexts,
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

/**
 * The name every card that names a template shows its reader (the person it is posted to): the
 * name of their language as the request or event recorded it, else the template's own; '' when
 * neither is known (the card then says "Team request" in the reader's words).
 */
export function templateNameIn(template: TemplateName, reader: Pick<Reader, 'language' | 'locale'>): string {
  if (!template.name) return '';
  return templateTexts({ ...template, description: '' }, reader).name;
}

/** The name translations a job's or an event's `template` records, read defensively; undefined for none. */
export function nameTranslationsOf(template: unknown): NameTranslations | undefined {
  const recorded =
    template && typeof template === 'object' ? (template as Record<string, unknown>).translations : undefined;
  if (!recorded || typeof recorded !== 'object' || Array.isArray(recorded)) return undefined;
  const named = Object.entries(recorded as Record<string, unknown>).flatMap(([tag, texts]) => {
    const name = texts && typeof texts === 'object' ? (texts as Record<string, unknown>).name : undefined;
    return typeof name === 'string' && name.trim() !== '' ? [[tag, { name }] as const] : [];
  });
  return named.length > 0 ? Object.fromEntries(named) : undefined;
}
