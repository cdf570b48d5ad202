import { isCapitalised } from '../text';
import { DETERMINERS, LIST_JOINERS, NOT_A_NAME, OWNER_CUES, PEOPLE_CUES, RUN_VERBS, WEEKDAYS } from './words';
import {
  base,
  gap,
  isCode,
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
  while (fits(to + 1)) to += 1;
  return { from: k, to };
}
