/**
 * The words of a message as the understanding engine reads them: at most the first
 * MAX_UNDERSTOOD_CHARS characters, cut into words that keep their place, their case and their
 * accents, each with a folded form (lower case, no accents) the tables and the stemmers compare.
 * Every regular expression here is fixed and linear (no nested quantifier), and runs on a bounded
 * string.
 */

/** Only the start of a message is read: a 10 000-character message costs what a 500-character one does. */
export const MAX_UNDERSTOOD_CHARS = 500;

/** A word of the message: as written, folded, and where it stands. */
export interface Word {
  /** As written, without surrounding quotes or punctuation ("Adele", "O'Connor", "co-own"). */
  raw: string;
  /** Lower case, accents removed, typographic apostrophes made straight ("adele", "o'connor"). */
  folded: string;
  /** The index of its first character in the (cut) text. */
  start: number;
  end: number;
  /** A mail address ("megan.bowen@contoso.com"). */
  mail: boolean;
}

const COMBINING_MARKS = /[\u0300-\u036f]/g;

/** Lower case without accents: "Élodie" → "elodie", "Groß" → "gross"; apostrophes made straight. */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(COMBINING_MARKS, '')
    .replace(/ß/g, 'ss')
    .replace(/[’‘`´]/g, "'")
    .toLowerCase();
}

// A word: letters, digits, marks, inner apostrophes, hyphens, dots and @ (mails); one token at a time.
const WORD = /[\p{L}\p{N}\p{M}_@.'’-]+/gu;
const MAIL = /^[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.[\p{L}]{2,}$/u;
const EDGE_PUNCTUATION = /^[.'’-]+|[.'’-]+$/g;

/** The message cut to MAX_UNDERSTOOD_CHARS and split into words. */
export function words(text: string): Word[] {
  const result: Word[] = [];
  for (const match of text.slice(0, MAX_UNDERSTOOD_CHARS).matchAll(WORD)) {
    const token = match[0];
    const mail = MAIL.test(token.replace(/\.+$/, ''));
    const raw = mail ? token.replace(/\.+$/, '') : token.replace(EDGE_PUNCTUATION, '');
    if (!raw) continue;
    const start = (match.index ?? 0) + token.indexOf(raw);
    result.push({ raw, folded: fold(raw), start, end: start + raw.length, mail });
  }
  return result;
}

/** Whether a word is written with a capital first letter and is not all capitals of more than one letter. */
export function isCapitalised(raw: string): boolean {
  const first = raw.charAt(0);
  return first !== first.toLowerCase() && first === first.toUpperCase();
}

/** Elided French articles and pronouns ("l'équipe", "d'Adele"): the word after the apostrophe. */
export function withoutElision(folded: string): string {
  const match = /^(?:l|d|j|qu|n|m|t|s|c)'(.+)$/.exec(folded);
  return match?.[1] ?? folded;
}
