import { conceptOf, isConcept } from '../templates';
import { isCapitalised } from '../text';
import {
  DETERMINERS,
  KIND_NOUNS_AFTER,
  KIND_NOUNS_BEFORE,
  NAME_FILLERS,
  NAMED_OBJECTS,
  NAMING_CUES,
  NAMING_VERBS,
  PARTNER_FILLERS,
  PARTNER_NOUNS,
  PURPOSE_CUES,
  TEAM_NOUNS,
  WELCOME_CONCEPTS,
} from './words';
import {
  base,
  colonBefore,
  gap,
  isCode,
  isDateCode,
  isPlainWord,
  nameLike,
  pauseBefore,
  precededByPurpose,
  sentenceStart,
  teamWord,
  type Reading,
  type Span,
} from './reading';
import { appositionName, signedName } from './company';
import {
  datedName,
  lowercaseTail,
  nameEndingInDate,
  nameBefore,
  nameFrom,
  quotedSpan,
  toPause,
  wholeName,
} from './names';

/** Kinds of work a name keeps ("the Orion rollout", "the Zeta migration"), unlike "deal" or "bid". */
const KEPT_KINDS =
  /^(?:rollout|migration|release|pilot|workshop|hackathon|conference|event|study|offsite|summit|upgrade|deployment|launch)$/;

/**
 * The team's name: quoted, after "called"/"nommée", or a proper noun beside a kind of team. The
 * readings are tried from the surest to the loosest; the first that finds a name wins.
 */
export function teamNameSpan(reading: Reading, taken: ReadonlySet<number>): Span | null {
  return (
    quotedSpan(reading) ??
    afterNamingWord(reading, taken) ??
    datedAfterPurpose(reading, taken) ??
    besideKindOfTeam(reading, taken) ??
    afterTeamWord(reading, taken) ??
    afterPurpose(reading, taken) ??
    signedName(reading, taken) ??
    appositionName(reading, taken) ??
    openingBeforeColon(reading, taken)
  );
}

/** A name after a naming word: "called Mercury", "name it Odyssey", "le nom sera Phénix". */
function afterNamingWord(reading: Reading, taken: ReadonlySet<number>): Span | null {
  const { list } = reading;
  for (let i = 0; i < list.length; i += 1) {
    const start = namingStart(reading, i);
    if (start < 0 || start >= list.length) continue;
    const span =
      wholeName(reading, start, taken) ??
      toPause(reading, start, taken) ??
      nameFrom(reading, start, taken, true);
    if (span) return span;
  }
  return null;
}

/** A word with its doubled letters made single ("nommee" → "nomee"). */
const single = (folded: string) => folded.replace(/(\p{L})\1/gu, '$1');
const SINGLE_CUES = new Set([...NAMING_CUES].filter((cue) => cue.length > 4).map(single));

/** Where the name starts when word i names what follows it, or -1. */
function namingStart(reading: Reading, i: number): number {
  const { list } = reading;
  const folded = base(list[i]);
  if (NAMING_VERBS.test(folded) || NAMING_VERBS.test(list[i]!.folded)) {
    // "name it Odyssey", "call the team Falcon", "appelle-la Colibri"
    let start = i + 1;
    while (
      start < list.length &&
      start - i <= 3 &&
      (NAMED_OBJECTS.test(list[start]!.folded) || NAME_FILLERS.test(list[start]!.folded))
    )
      start += 1;
    return start;
  }
  // "nomée", "apelée": a naming word typed with a letter single instead of doubled.
  if (NAMING_CUES.has(folded) || SINGLE_CUES.has(single(folded))) {
    let start = i + 1;
    // "the team name to be Phoenix", "le nom sera Phénix"
    if (folded === 'name' || folded === 'nom')
      while (start < list.length && start - i <= 3 && NAME_FILLERS.test(list[start]!.folded)) start += 1;
    return start;
  }
  if (folded === "s'appelle" || folded === 'appelle') return i + 1;
  if (folded === 'nom' && base(list[i + 1]) === 'de') return i + 2;
  return -1;
}

/** A proper noun beside a word of a kind of team, a partner or the team itself, at any word. */
function besideKindOfTeam(reading: Reading, taken: ReadonlySet<number>): Span | null {
  for (let i = 0; i < reading.list.length; i += 1) {
    if (taken.has(i)) continue;
    const span =
      setOffAfterKind(reading, i, taken) ??
      afterPartner(reading, i, taken) ??
      afterKindNoun(reading, i, taken) ??
      beforeKindNoun(reading, i, taken) ??
      beforeTeamNoun(reading, i, taken);
    if (span) return span;
  }
  return null;
}

/** "un nouveau client, Woodgrove Bank, …": a proper noun set off by commas after a kind of team. */
function setOffAfterKind(reading: Reading, i: number, taken: ReadonlySet<number>): Span | null {
  if (
    !KIND_NOUNS_BEFORE.has(base(reading.list[i])) ||
    !/^\s*,\s*$/.test(gap(reading, i + 1)) ||
    !teamWord(reading, i + 1) ||
    taken.has(i + 1)
  )
    return null;
  const span = nameFrom(reading, i + 1, taken, false);
  return span && /^\s*,/.test(gap(reading, span.to + 1)) ? span : null;
}

/** "our partner Litware", "partnership with Wingtip Toys", "partenariat avec la société GDI". */
function afterPartner(reading: Reading, i: number, taken: ReadonlySet<number>): Span | null {
  const { list } = reading;
  if (!PARTNER_NOUNS.test(base(list[i]))) return null;
  let k = i + 1;
  while (k < list.length && k - i <= 3 && PARTNER_FILLERS.test(base(list[k])) && !pauseBefore(reading, k))
    k += 1;
  if (k >= list.length || pauseBefore(reading, k) || !teamWord(reading, k) || taken.has(k)) return null;
  return nameFrom(reading, k, taken, false);
}

/** "projet Atlas", "campagne printemps", "project: Orion": a name after a kind of team. */
function afterKindNoun(reading: Reading, i: number, taken: ReadonlySet<number>): Span | null {
  const { list } = reading;
  if (
    !KIND_NOUNS_BEFORE.has(base(list[i])) ||
    !list[i + 1] ||
    (pauseBefore(reading, i + 1) && !colonBefore(reading, i + 1))
  )
    return null;
  // "the Vega account: Adele as owner": the name stands before the kind word.
  if (i > 0 && !pauseBefore(reading, i) && teamWord(reading, i - 1)) return null;
  const span = nameFrom(reading, i + 1, taken, false);
  if (!span || (reading.shouting && !precededByPurpose(reading, i))) return null;
  return lowercaseTail(reading, span, taken);
}

/** "the Contoso deal", "Atlas project", "the Q3 Launch campaign": a name before a kind of team. */
function beforeKindNoun(reading: Reading, i: number, taken: ReadonlySet<number>): Span | null {
  const { list } = reading;
  if (!KIND_NOUNS_AFTER.has(base(list[i])) || i === 0 || pauseBefore(reading, i)) return null;
  // "the Zeta migration project", "our Summer Launch squad": the first kind noun is in the name.
  const kindAfter = list[i + 1] && !pauseBefore(reading, i + 1) && KIND_NOUNS_AFTER.has(base(list[i + 1]));
  if (kindAfter && (teamWord(reading, i - 1) || isCode(list[i - 1]))) {
    const span = nameBefore(reading, i - 1, taken);
    if (span && !taken.has(i)) return { from: span.from, to: i };
  }
  const from = i - 1;
  if (nameLike(reading, from, false) || isCode(list[from])) {
    const span = nameBefore(reading, from, taken);
    // "the Orion rollout", "the Q3 launch": a kind of project no template names, or a name that
    // only dates it, keeps the kind word, and the capitalised words after it ("Q3 Launch Review").
    const dated = span !== null && list.slice(span.from, span.to + 1).every((word) => isDateCode(word));
    if (!span || taken.has(i) || (!KEPT_KINDS.test(base(list[i])) && !dated)) return span;
    let to = i;
    while (
      to - span.from < 5 &&
      teamWord(reading, to + 1) &&
      !pauseBefore(reading, to + 1) &&
      !taken.has(to + 1)
    )
      to += 1;
    return { from: span.from, to };
  }
  // "for the blue sky project": up to two plain words after "for" and its determiners.
  let first = from;
  if (first > 0 && isPlainWord(reading, first - 1) && !pauseBefore(reading, first)) first -= 1;
  if (!isPlainWord(reading, from) || !precededByPurpose(reading, first)) return null;
  if (taken.has(first) || taken.has(from)) return null;
  return { from: first, to: from };
}

/** "the Mercury team", "a Northwind client team": a proper noun, maybe a kind of team between. */
function beforeTeamNoun(reading: Reading, i: number, taken: ReadonlySet<number>): Span | null {
  const { list } = reading;
  if (!TEAM_NOUNS.test(base(list[i])) || i === 0 || pauseBefore(reading, i)) return null;
  let from = i - 1;
  while (from > 0 && i - from <= 2 && isConcept(base(list[from])) && !pauseBefore(reading, from + 1))
    from -= 1;
  if (!teamWord(reading, from) || sentenceStart(reading, from) || pauseBefore(reading, from + 1)) return null;
  return nameBefore(reading, from, taken);
}

/** A proper noun right after "team" ("a project team Quasar", "new team: Hyperion"). */
function afterTeamWord(reading: Reading, taken: ReadonlySet<number>): Span | null {
  const { list } = reading;
  for (let i = 0; i + 1 < list.length; i += 1) {
    if (!/^(?:team|equipe|space|espace|request|demande)$/.test(base(list[i])) || taken.has(i + 1)) continue;
    if (pauseBefore(reading, i + 1) && !colonBefore(reading, i + 1)) continue;
    // "request: Aurora" only after "team": a request names its team after a colon.
    if (/^(?:request|demande)$/.test(base(list[i])) && !/^(?:team|equipe)$/.test(base(list[i - 1]))) continue;
    // "project team atlas": a plain word too, when a kind of team comes before "team".
    const afterKind =
      i > 0 && isConcept(base(list[i - 1])) && !pauseBefore(reading, i) && !pauseBefore(reading, i + 1);
    if (teamWord(reading, i + 1) || (afterKind && isPlainWord(reading, i + 1))) {
      const span = nameFrom(reading, i + 1, taken, false);
      if (span) return span;
    }
  }
  return null;
}

/** A proper noun after "for"/"pour" ("a team for Mercury with Adele"). */
function afterPurpose(reading: Reading, taken: ReadonlySet<number>): Span | null {
  const { list } = reading;
  for (let i = 0; i < list.length; i += 1) {
    if (!PURPOSE_CUES.has(base(list[i]))) continue;
    if (welcomesBefore(reading, i)) continue;
    let k = i + 1;
    while (DETERMINERS.has(base(list[k])) && k < list.length) k += 1;
    // "the Marketing Summit 2027": a capitalised kind of team opens a name when a proper noun follows.
    const opens =
      k + 1 < list.length &&
      !reading.shouting &&
      isCapitalised(list[k]!.raw) &&
      isConcept(base(list[k])) &&
      !pauseBefore(reading, k + 1) &&
      teamWord(reading, k + 1);
    if (k < list.length && (teamWord(reading, k) || opens)) {
      const span = nameFrom(reading, k, taken, false);
      if (span) return span;
    }
  }
  return null;
}

/** "for the Q4 2026 capacity planning project": a name that opens with a date after "for". */
function datedAfterPurpose(reading: Reading, taken: ReadonlySet<number>): Span | null {
  const { list } = reading;
  for (let i = 0; i < list.length; i += 1) {
    if (!PURPOSE_CUES.has(base(list[i]))) continue;
    let k = i + 1;
    while (k < list.length && DETERMINERS.has(base(list[k]))) k += 1;
    const span =
      datedName(reading, k, taken, (folded) => KEPT_KINDS.test(folded)) ??
      nameEndingInDate(reading, k, taken);
    if (span) return span;
  }
  return null;
}

/** A proper noun opening the message before a colon ("Mercury: new project team please"). */
function openingBeforeColon(reading: Reading, taken: ReadonlySet<number>): Span | null {
  const { list } = reading;
  let to = -1;
  while (
    to + 1 < list.length &&
    to < 2 &&
    teamWord(reading, to + 1) &&
    (to < 0 || !pauseBefore(reading, to + 1))
  )
    to += 1;
  return to >= 0 && colonBefore(reading, to + 1) && !taken.has(0) ? { from: 0, to } : null;
}

/** Whether a kind of team for welcoming a new joiner stands just before word i ("an onboarding buddy team for"). */
function welcomesBefore(reading: Reading, i: number): boolean {
  for (let k = i - 1; k >= Math.max(0, i - 3); k -= 1) {
    const concept = conceptOf(base(reading.list[k]));
    if (concept && WELCOME_CONCEPTS.has(concept)) return true;
    if (!/^(?:team|equipe|teams|equipes|space|espace)$/.test(base(reading.list[k])) && !concept) return false;
  }
  return false;
}
