import { en } from '../../../src/bot/i18n/en';
import { fr } from '../../../src/bot/i18n/fr';

/** The card properties a person reads (an input's `value` is what they typed, not ours). */
const READ = new Set(['text', 'title', 'label', 'placeholder', 'errorMessage', 'fallbackText']);

/** Every text a person reads on a card: texts, titles, labels, placeholders, error messages, facts. */
export function readTexts(card: unknown): string[] {
  const texts: string[] = [];
  const walk = (node: unknown, parentType?: string) => {
    if (Array.isArray(node)) return node.forEach((item) => walk(item, parentType));
    if (!node || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    const type = typeof record.type === 'string' ? record.type : parentType;
    for (const [key, value] of Object.entries(record)) {
      if (key === 'refresh') continue;
      const readValue = key === 'value' && !String(type ?? '').startsWith('Input.');
      if (typeof value === 'string' && (READ.has(key) || readValue)) texts.push(value);
      else if (typeof value === 'object') walk(value, key === 'facts' ? 'Fact' : type);
    }
  };
  walk(card);
  return texts;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Each English sentence of the catalog as a pattern (its `{values}` matching anything), except
 * those French writes the same way ("Description").
 */
const ENGLISH = Object.entries(en)
  .filter(([key, text]) => fr[key as keyof typeof fr] !== text)
  .map(([key, text]) => {
    const parts = text.split(/\{\w+\}/).map(escape);
    const start = /^\w/.test(text) ? '\\b' : '';
    const end = /\w$/.test(text) ? '\\b' : '';
    return { key, pattern: new RegExp(`${start}${parts.join('[\\s\\S]*?')}${end}`) };
  });

/** What a card quotes (a template's rule, a typed name) is data, not the bot's own words. */
const QUOTED = /«[^»]*»|“[^”]*”|"[^"]*"/g;

/** The English catalog sentences a card shows (by key, with the text they were found in). */
export function englishOn(card: unknown): string[] {
  const leaks: string[] = [];
  for (const text of readTexts(card).map((read) => read.replace(QUOTED, '«»'))) {
    for (const { key, pattern } of ENGLISH) if (pattern.test(text)) leaks.push(`${key}: ${text}`);
  }
  return leaks;
}
