import { isCapitalised, type Word } from '../text';
import {
  DETERMINERS,
  LIST_JOINERS,
  MEMBER_CUES,
  MONTHS,
  NOT_A_NAME,
  OWNER_CUES,
  PEOPLE_CUES,
  RUN_VERBS,
  WEEKDAYS,
} from './words';
import { isConcept } from '../templates';
import {
  base,
  gap,
  isCode,
  isDateCode,
  isPlainWord,
  pauseBefore,
  sentenceStart,
  type Reading,
  type Span,
} from './reading';

/** The spans a name may take from a word on: the rules that find a name share them. */

/**
 * A span of words between quotes ("Mercury", 'Mercury', “Mercury”, « Mercury »), up to 300
 * characters: a name longer than a team's may be is kept whole, and said to be too long on the form.
 */
export function quotedSpan(reading: Reading): Span | null {
  const match = /["“«]\s*([^"“”«»\n]{1,300}?)\s*["”»]|(?:^|\s)'([^'\n]{1,300})'(?=$|[\s,.;:!?])/.exec(
    reading.text,
  );
  if (!match) return null;
  const inner = match[1] ?? match[2] ?? '';
  const at = reading.text.indexOf(inner, match.index);
  const end = at + inner.length;
  const inside = reading.list
    .map((word, i) => ({ word, i }))
    .filter(({ word }) => word.start >= at && word.end <= end);
  if (inside.length === 0) return null;
  return { from: inside[0]!.i, to: inside[inside.length - 1]!.i };
}

/**
 * After a naming word, the whole rest of the sentence when it is a short name: capitalised words
 * and codes, joined by small words ("Café du lundi") or "&" ("IA & Nous"). Null when anything else
 * follows (a list of people, "please"): the usual rules then read the name.
 */
export function wholeName(reading: Reading, start: number, taken: ReadonlySet<number>): Span | null {
  const { list } = reading;
  const first = list[start];
  if (!first || taken.has(start) || reading.shouting || !(isCapitalised(first.raw) || isCode(first)))
    return null;
  let to = start;
  while (to + 1 < list.length && !pauseBefore(reading, to + 1) && to - start < 4) {
    const next = list[to + 1]!;
    if (taken.has(to + 1) || next.mail) return null;
    if (/&/.test(gap(reading, to + 1)) && isCapitalised(next.raw)) to += 1;
    else if (isCapitalised(next.raw) || isCode(next) || /^\d+$/.test(next.raw)) {
      if (PEOPLE_CUES.has(next.folded) || NOT_A_NAME.has(next.folded)) return null;
      to += 1;
    } else if (
      /^(?:du|de|des|d'|of|the|la|le|les)$/.test(next.folded) &&
      list[to + 2] &&
      !pauseBefore(reading, to + 2) &&
      !PEOPLE_CUES.has(list[to + 2]!.folded)
    )
      to += 2;
    else return null;
  }
  const end = to + 1 >= list.length || /[,;.!?:()\n]/.test(gap(reading, to + 1));
  return end && to > start ? { from: start, to } : null;
}

/**
 * A name of one plain word after a kind of team, with the plain word after it when the name ends
 * there ("le client contoso pharma avec Lucas"), but not a verb or an adverb ("orion starting").
 */
export function lowercaseTail(reading: Reading, span: Span, taken: ReadonlySet<number>): Span {
  const { list } = reading;
  const next = span.to + 1;
  if (span.to !== span.from || isCapitalised(list[span.from]!.raw) || isCode(list[span.from])) return span;
  if (!list[next] || taken.has(next) || pauseBefore(reading, next) || !isPlainWord(reading, next))
    return span;
  if (isCapitalised(list[next]!.raw) || /(?:ing|ed|ly|ment|ait|ra)$/.test(list[next]!.folded)) return span;
  const after = list[next + 1];
  const ends =
    !after ||
    pauseBefore(reading, next + 1) ||
    NOT_A_NAME.has(base(after)) ||
    PEOPLE_CUES.has(base(after)) ||
    LIST_JOINERS.has(base(after));
  return ends ? { from: span.from, to: next } : span;
}

/** A name ending at word `to`: it and the proper nouns or codes written just before it, on the same sentence. */
export function nameBefore(reading: Reading, to: number, taken: ReadonlySet<number>): Span | null {
  const { list } = reading;
  let from = to;
  while (
    from - 1 >= 0 &&
    to - from < 3 &&
    (isCode(list[from - 1]) ||
      (!reading.shouting && isCapitalised(list[from - 1]!.raw) && !NOT_A_NAME.has(base(list[from - 1])))) &&
    !sentenceStart(reading, from - 1) &&
    !pauseBefore(reading, from)
  )
    from -= 1;
  if (taken.has(from) || taken.has(to)) return null;
  return { from, to };
}

/** A name starting at word start: capitalised words (or, when `loose`, any words) up to a stop, at most 4. */
export function nameFrom(
  reading: Reading,
  start: number,
  taken: ReadonlySet<number>,
  loose: boolean,
): Span | null {
  const { list } = reading;
  let k = start;
  while (k < list.length && DETERMINERS.has(base(list[k])) && k - start < 1 && loose) k += 1;
  const first = list[k];
  if (!first || taken.has(k)) return null;
  const capitalised = (!reading.shouting && isCapitalised(first.raw)) || isCode(first);
  if (!capitalised && !loose && !isPlainWord(reading, k)) return null;
  let to = k;
  const fits = (j: number): boolean => {
    const word = list[j];
    if (!word || taken.has(j) || pauseBefore(reading, j) || j - k >= 4) return false;
    // "Firewall Refresh + Björn + Patti": a "+" lists, it does not join a name.
    if (gap(reading, j).includes('+')) return false;
    if (/^\d+$/.test(word.raw) || isCode(word)) return true;
    // In capitals, the plain words that follow up to a pause ("LE LITIGE TREY RESEARCH").
    if (reading.shouting && !loose) return isPlainWord(reading, j) && !PEOPLE_CUES.has(word.folded);
    if (capitalised)
      return isCapitalised(word.raw) && (!NOT_A_NAME.has(word.folded) || WEEKDAYS.test(word.folded));
    return (
      loose &&
      isPlainWord(reading, j) &&
      !PEOPLE_CUES.has(word.folded) &&
      !OWNER_CUES.test(word.folded) &&
      !RUN_VERBS.test(word.folded)
    );
  };
  if (!capitalised && (NOT_A_NAME.has(first.folded) || PEOPLE_CUES.has(first.folded))) return null;
  for (;;) {
    if (fits(to + 1)) to += 1;
    else if (capitalised && !reading.shouting && to - k < 4) {
      const joined = joinedAfter(reading, to, taken);
      if (joined === to) break;
      to = joined;
    } else break;
  }
  return { from: k, to };
}

/** Small words that join two parts of one name: "Banque du Rhône", "Fête de la BD", "Doyle v. Contoso". */
const JOINERS = /^(?:de|du|des|of|v|vs)$/;

/**
 * Where a name ending at word `to` ends once the small words that join it to a capitalised word or
 * a code are taken ("Refonte du Reporting", "Fête de la BD"), or a French "d'…" that closes it
 * ("Carnaval d'hiver"); `to` itself when nothing joins.
 */
export function joinedAfter(reading: Reading, to: number, taken: ReadonlySet<number>): number {
  const { list } = reading;
  const free = (j: number) => list[j] !== undefined && !taken.has(j) && !pauseBefore(reading, j);
  const next = list[to + 1];
  if (!next || !free(to + 1)) return to;
  // "Carnaval d'hiver", "Soldes d'été": an elided "d'" and its word, at the end of the name.
  if (/^d'\p{L}{2,}$/u.test(next.folded)) {
    const after = list[to + 2];
    const ends =
      !after || pauseBefore(reading, to + 2) || NOT_A_NAME.has(base(after)) || PEOPLE_CUES.has(base(after));
    return ends || isCapitalised(next.raw.slice(2)) ? to + 1 : to;
  }
  if (!JOINERS.test(next.folded)) return to;
  let k = to + 2;
  if (/^(?:de|d)$/.test(next.folded) && /^(?:la|l)$/.test(base(list[k]))) k += 1;
  const word = list[k];
  // "v." keeps its dot: "Contoso v. Proseware".
  const dotted = /^vs?$/.test(next.folded) && /^\.\s+$/.test(gap(reading, k));
  if (!word || taken.has(k) || (pauseBefore(reading, k) && !dotted)) return to;
  if (PEOPLE_CUES.has(word.folded) || NOT_A_NAME.has(word.folded)) return to;
  return isCapitalised(word.raw) || isCode(word) ? k : to;
}

/** Small words a name given after "call it" may hold between its words ("Women in Legal", "Finances en français"). */
const SMALL = /^(?:in|of|de|du|des|en|the|la|le|les|v|vs)$/;
/** Words that end a name given in full: time, reasons ("called Atlas starting Monday", "because…"). */
const AFTER_NAME = /^(?:starting|beginning|from|next|soon|because|since|car|parce|des|until|jusqu'a)$/;

/**
 * After a word that names the team ("name it", "call it", "appelle-la"), the words up to the next
 * pause, as written: "name it Alex first weeks, …", "call it Women in Legal". At most six words;
 * a list of people, a role, a mail, politeness or a word of time ends it.
 */
export function toPause(reading: Reading, start: number, taken: ReadonlySet<number>): Span | null {
  const { list } = reading;
  const first = list[start];
  const ends = (word: Word) =>
    word.mail ||
    PEOPLE_CUES.has(word.folded) ||
    MEMBER_CUES.test(word.folded) ||
    (OWNER_CUES.test(word.folded) && !isCapitalised(word.raw)) ||
    AFTER_NAME.test(word.folded) ||
    (NOT_A_NAME.has(base(word)) && !SMALL.test(word.folded));
  if (!first || taken.has(start) || ends(first) || DETERMINERS.has(base(first)) || SMALL.test(first.folded))
    return null;
  let to = start;
  while (to + 1 < list.length && to + 1 - start < 6 && !pauseBefore(reading, to + 1) && !taken.has(to + 1)) {
    if (ends(list[to + 1]!)) break;
    to += 1;
  }
  while (to > start && SMALL.test(list[to]!.folded)) to -= 1;
  return { from: start, to };
}

/** A word of a date: a quarter, a half, a fiscal year, a year or a month ("Q4", "FY27", "2027", "March"). */
const dateWord = (word: Word | undefined) =>
  word !== undefined && (isDateCode(word) || MONTHS.test(word.folded));

/**
 * A name that opens with a date, from word k: the date and the words after it up to a pause, a
 * list of people or a function word, at most six ("the Q4 2026 capacity planning project", "the
 * March 2027 intake", "the FY27 budget cycle"). A kind of team that ends it is not part of it
 * unless `kept` says so ("release" is, "project" is not). Null when only a date stands there.
 */
export function datedName(
  reading: Reading,
  k: number,
  taken: ReadonlySet<number>,
  kept: (folded: string) => boolean,
): Span | null {
  const { list } = reading;
  if (!dateWord(list[k]) || taken.has(k)) return null;
  const free = (j: number) => list[j] !== undefined && !taken.has(j) && !pauseBefore(reading, j) && j - k < 6;
  let to = k;
  while (free(to + 1) && dateWord(list[to + 1])) to += 1;
  const dates = to;
  while (free(to + 1)) {
    const word = list[to + 1]!;
    const folded = base(word);
    if (!/^\p{L}[\p{L}'-]*$/u.test(word.raw) || NOT_A_NAME.has(folded) || PEOPLE_CUES.has(folded)) break;
    if (DETERMINERS.has(folded) || OWNER_CUES.test(folded) || MEMBER_CUES.test(folded)) break;
    to += 1;
  }
  if (to > dates + 1 && isConcept(base(list[to])) && !kept(base(list[to]))) to -= 1;
  return to > dates ? { from: k, to } : null;
}

/** Small words a dated name may hold inside ("la clôture du T1 2027", "arrivées de janvier 2027"). */
const INNER = /^(?:de|du|des|d|of|the)$/;

/**
 * A name that ends with a date, from word k: plain words, maybe joined by "de"/"of", then the
 * date, with no pause nor kind of team inside, at most six words ("brand refresh 2027", "the
 * Spring 2027 hires" up to the year, « la clôture du T1 2027 »). Null without a word before it.
 */
export function nameEndingInDate(reading: Reading, k: number, taken: ReadonlySet<number>): Span | null {
  const { list } = reading;
  let words = 0;
  for (let j = k; j < list.length && j - k < 6 && !taken.has(j); j += 1) {
    if (j > k && pauseBefore(reading, j)) return null;
    const word = list[j]!;
    if (isDateCode(word)) {
      let to = j;
      while (to + 1 < list.length && !pauseBefore(reading, to + 1) && isDateCode(list[to + 1])) to += 1;
      return words > 0 ? { from: k, to } : null;
    }
    if (j > k && INNER.test(base(word))) continue;
    const folded = base(word);
    if (
      !/^\p{L}[\p{L}'’-]*$/u.test(word.raw) ||
      (NOT_A_NAME.has(folded) && !MONTHS.test(folded)) ||
      PEOPLE_CUES.has(folded) ||
      DETERMINERS.has(folded) ||
      OWNER_CUES.test(folded) ||
      MEMBER_CUES.test(folded) ||
      isConcept(folded)
    )
      return null;
    words += MONTHS.test(folded) ? 0 : 1;
  }
  return null;
}
