import { isConcept } from '../templates';
import { isCapitalised, withoutElision, type Word } from '../text';
import {
  DETERMINERS,
  KIND_NOUNS_AFTER,
  KIND_NOUNS_BEFORE,
  MEMBER_CUES,
  MONTHS,
  NOT_A_NAME,
  OWNER_CUES,
  PEOPLE_CUES,
  PURPOSE_CUES,
  WAITING_CUES,
} from './words';

/**
 * A message as the rules read it: its words with the text between them (pauses, colons, sentence
 * starts), and what each word may be (a code, a proper noun, a plain word).
 */

export interface Reading {
  list: readonly Word[];
  text: string;
  /** The message is written in capitals: a capital says nothing of a name. */
  shouting: boolean;
}

export function reading(text: string, list: readonly Word[]): Reading {
  let upper = 0;
  let letters = 0;
  for (const word of list) {
    for (const ch of word.raw) {
      if (ch.toLowerCase() === ch.toUpperCase()) continue;
      letters += 1;
      if (ch === ch.toUpperCase()) upper += 1;
    }
  }
  return { list, text, shouting: letters >= 8 && upper / letters > 0.6 };
}

export function gap(reading: Reading, i: number): string {
  const { list, text } = reading;
  const word = list[i];
  if (!word) return '';
  const before = list[i - 1];
  return text.slice(before ? before.end : 0, word.start);
}

/** Whether punctuation stands between word i-1 and word i (a comma or a dash between spaces included). */
export function pauseBefore(reading: Reading, i: number): boolean {
  return i === 0 || /[,;.!?:()\n"“”«»—–]/.test(gap(reading, i));
}

/** Whether a sentence starts at word i. */
export function sentenceStart(reading: Reading, i: number): boolean {
  return i === 0 || /[.!?\n]/.test(gap(reading, i));
}

export function base(word: Word | undefined): string {
  return word ? withoutElision(word.folded) : '';
}

/**
 * Whether a word is a code a name may hold: letters and digits, maybe joined by hyphens or dots,
 * with a digit ("Q3", "PRJ-0042", "2.0", "T3", "2027").
 */
export function isCode(word: Word | undefined): boolean {
  return (
    word !== undefined &&
    word.raw.length <= 24 &&
    /\d/.test(word.raw) &&
    /^[\p{L}\p{N}]+(?:[-_.][\p{L}\p{N}]+)*$/u.test(word.raw) &&
    !/^\d{1,2}(?:h|am|pm|th|st|nd|rd|e|er|eme)?$/i.test(word.raw)
  );
}

/** Whether word i may start or stand in a team's name: a proper noun or a code. */
export function teamWord(reading: Reading, i: number): boolean {
  const word = reading.list[i];
  if (!word || word.mail) return false;
  if (isCode(word)) return true;
  if (MONTHS.test(word.folded)) return false;
  return (
    !reading.shouting && isCapitalised(word.raw) && nameLike(reading, i, false) && !/'s$/.test(word.folded)
  );
}

/** A code that only dates a name: a quarter, a half, a fiscal year or a year ("Q3", "H2", "FY27", "2027"). */
export function isDateCode(word: Word | undefined): boolean {
  return word !== undefined && /^(?:[qtsh][1-4]|fy\d{2,4}|\d{4})$/i.test(word.raw);
}

/** Whether only a colon stands between word i-1 and word i ("team: Hyperion", "nom : Hélios"). */
export function colonBefore(reading: Reading, i: number): boolean {
  return i > 0 && /^\s*:\s*$/.test(gap(reading, i));
}

/** Whether word i may be part of a name: a capitalised word that is not a function word, or any such word in a list. */
export function nameLike(reading: Reading, i: number, inList: boolean): boolean {
  const word = reading.list[i];
  if (!word) return false;
  if (word.mail) return true;
  const folded = word.folded;
  if (
    NOT_A_NAME.has(folded) ||
    NOT_A_NAME.has(withoutElision(folded)) ||
    PEOPLE_CUES.has(folded) ||
    /\d/.test(folded) ||
    folded.length < 2
  )
    return false;
  if (OWNER_CUES.test(folded) || MEMBER_CUES.test(folded) || isConcept(withoutElision(folded))) return false;
  if (!/^[\p{L}'’.-]+$/u.test(word.raw)) return false;
  if (!reading.shouting && isCapitalised(word.raw)) return true;
  return inList;
}

export interface Span {
  from: number;
  to: number;
}

export function spanText(reading: Reading, span: Span): string {
  const from = reading.list[span.from]!;
  const to = reading.list[span.to]!;
  return reading.text.slice(from.start, to.end);
}

/** A word that is not a function word nor a kind of team ("contoso" in "for the contoso deal"). */
export function isPlainWord(reading: Reading, i: number): boolean {
  const folded = base(reading.list[i]);
  return (
    folded.length > 1 &&
    !NOT_A_NAME.has(folded) &&
    !DETERMINERS.has(folded) &&
    !KIND_NOUNS_AFTER.has(folded) &&
    !KIND_NOUNS_BEFORE.has(folded) &&
    !isConcept(folded) &&
    !WAITING_CUES.test(folded) &&
    !/^(?:all|last|latest|recent|other|current|toutes|derniere|dernieres|autres)$/.test(folded) &&
    /^\p{L}[\p{L}'-]*$/u.test(reading.list[i]!.raw) &&
    !/^(?:legal|juridique|marketing|onboarding|client|interne|internal|new|nouveau|nouvelle|small|petit|petite|big|grand|grande|next|prochain|prochaine|spring|summer|space|workspace|espace|channel|canal|group|groupe|site)$/.test(
      folded,
    )
  );
}

/** Whether "for"/"pour" (and determiners) come just before word i. */
export function precededByPurpose(reading: Reading, i: number): boolean {
  let k = i - 1;
  while (k >= 0 && DETERMINERS.has(base(reading.list[k]))) k -= 1;
  return k >= 0 && PURPOSE_CUES.has(base(reading.list[k]));
}
