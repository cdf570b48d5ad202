import { isCapitalised } from '../text';
import { REQUEST_NOUNS, WAITING_CUES } from './words';
import {
  base,
  isCode,
  isPlainWord,
  nameLike,
  pauseBefore,
  sentenceStart,
  type Reading,
  type Span,
} from './reading';
import { nameBefore, nameFrom, quotedSpan, wholeName } from './names';

/** For a status question: only waiting requests, or all. */
export function requestFilterOf(reading: Reading): 'all' | 'waiting' {
  for (let i = 0; i < reading.list.length; i += 1) {
    const folded = base(reading.list[i]);
    if (WAITING_CUES.test(folded)) return 'waiting';
    if ((folded === 'pas' || folded === 'not') && /^(?:encore|yet)$/.test(base(reading.list[i + 1])))
      return 'waiting';
  }
  return 'all';
}

/** For a status question: the team name of the one request asked about ("my Northwind request"). */
export function requestNameSpan(reading: Reading): Span | null {
  const quoted = quotedSpan(reading);
  if (quoted) return quoted;
  for (let i = 0; i < reading.list.length; i += 1) {
    const span = beforeRequestNoun(reading, i) ?? afterOwnTeam(reading, i) ?? afterRequestNoun(reading, i);
    if (span) return span;
  }
  return midQuestion(reading);
}

/** "my Northwind request", "the Atlas team": a name just before word i, a request or a team. */
function beforeRequestNoun(reading: Reading, i: number): Span | null {
  const { list } = reading;
  if (!REQUEST_NOUNS.has(base(list[i])) || i === 0) return null;
  const last = i - 1;
  const proper = (k: number) => nameLike(reading, k, false) || isCode(list[k]);
  // "the Q3 Launch team": a capitalised word after a proper noun or a code is part of the name.
  const joined =
    !reading.shouting &&
    isCapitalised(list[last]!.raw) &&
    last > 0 &&
    proper(last - 1) &&
    !pauseBefore(reading, last);
  if (proper(last) || joined) return nameBefore(reading, last, new Set());
  if (isPlainWord(reading, last) && /^(?:my|the|our|mon|ma|la|notre)$/.test(base(list[last - 1])))
    return { from: last, to: last };
  return null;
}

/** "mon equipe cassiopee", "my team atlas": a plain word after one's team. */
function afterOwnTeam(reading: Reading, i: number): Span | null {
  const { list } = reading;
  if (
    /^(?:team|equipe)$/.test(base(list[i])) &&
    /^(?:my|our|mon|ma|notre)$/.test(base(list[i - 1])) &&
    list[i + 1] &&
    !pauseBefore(reading, i + 1) &&
    isPlainWord(reading, i + 1)
  )
    return { from: i + 1, to: i + 1 };
  return null;
}

/** "request for Northwind", "demande pour Atlas", "la demande Atlas", "demande de Northwind". */
function afterRequestNoun(reading: Reading, i: number): Span | null {
  const { list } = reading;
  if (!REQUEST_NOUNS.has(base(list[i]))) return null;
  let k = i + 1;
  while (
    k < list.length &&
    /^(?:for|pour|de|d|du|about|on|sur|named|called|nommee|appelee|the|le|la|l)$/.test(base(list[k]))
  )
    k += 1;
  if (k === i + 1 && !(list[k] && !reading.shouting && isCapitalised(list[k]!.raw))) return null;
  const span = wholeName(reading, k, new Set()) ?? nameFrom(reading, k, new Set(), false);
  if (
    span &&
    (nameLike(reading, span.from, false) ||
      isPlainWord(reading, span.from) ||
      isCode(list[span.from]) ||
      span.to > span.from)
  )
    return span;
  return null;
}

/** Otherwise a capitalised word in the middle of the question ("where is Northwind at?"). */
function midQuestion(reading: Reading): Span | null {
  for (let i = 1; i < reading.list.length; i += 1) {
    if (!sentenceStart(reading, i) && !reading.shouting && nameLike(reading, i, false)) {
      const span = nameFrom(reading, i, new Set(), false);
      if (span) return span;
    }
  }
  return null;
}
