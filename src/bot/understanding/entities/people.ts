import type { PersonMention } from '../types';
import { fold, isCapitalised } from '../text';
import {
  BY,
  LIST_JOINERS,
  MEMBER_CUES,
  MONTHS,
  OWNER_CUES,
  PART_NOUNS,
  PEOPLE_CUES,
  ROLE_FILLERS,
  RUN_VERBS,
} from './words';
import {
  base,
  gap,
  isPlainWord,
  nameLike,
  pauseBefore,
  sentenceStart,
  spanText,
  type Reading,
  type Span,
} from './reading';

/** The writer of the message in a list of names ("et moi", "and me"). */
const REQUESTER = /^(?:me|myself|moi|moi-meme)$/;
/** Role nouns in the singular: after a list of names, they name only the last. */
const SINGULAR_ROLES = /^(?:co-?owner|owner|co-?proprietaire|proprietaire|proprio|responsable|admin)$/;

/** The people named, in order, each with the role the words around them give. */
export function peopleMentions(
  reading: Reading,
  taken: ReadonlySet<number>,
  notPeople: ReadonlySet<string> = new Set(),
): { mentions: PersonMention[]; used: Set<number> } {
  const { list } = reading;
  const mentions: PersonMention[] = [];
  const used = new Set<number>();
  // The words of the catalog's template names ("Contoso", "France") are never a person.
  const skip = new Set(taken);
  list.forEach((word, k) => {
    if (notPeople.has(word.folded)) skip.add(k);
  });
  taken = skip;
  let i = 0;
  while (i < list.length) {
    const start = listStart(reading, i, taken);
    const group = start ? namesFrom(reading, start.at, taken, start.startsList || start.loose) : [];
    if (!start || group.length === 0) {
      i += 1;
      continue;
    }
    const { role, lastOnly } = roleOf(reading, i, start.startsList, group);
    group.forEach((span, at) => {
      const own = lastOnly && at < group.length - 1 ? 'member' : role;
      addMention(mentions, spanText(reading, span).replace(/(?:['’]s)?[.'’]*$/, ''), own);
      for (let j = span.from; j <= span.to; j += 1) used.add(j);
    });
    i = group[group.length - 1]!.to + 1;
  }
  return { mentions, used };
}

/**
 * Where the names at word i start: after a cue of a list of people ("with", "owners", "run by"),
 * and the fillers after it, or at a free name; null when neither stands there.
 */
function listStart(
  reading: Reading,
  i: number,
  taken: ReadonlySet<number>,
): { at: number; startsList: boolean; loose: boolean } | null {
  const { list } = reading;
  const cue = base(list[i]);
  // "Nomvula as owner, Joao…": a role word a comma follows gives the name before it its role.
  const closesRole = (OWNER_CUES.test(cue) || MEMBER_CUES.test(cue)) && /^\s*[,;]/.test(gap(reading, i + 1));
  // "add emily as owner and diego as member": after a role, "and" opens the next list.
  const before = base(list[i - 1]);
  const afterRole =
    LIST_JOINERS.has(cue) &&
    i > 0 &&
    (OWNER_CUES.test(before) || MEMBER_CUES.test(before)) &&
    roleAhead(reading, i + 2);
  const cueLists =
    (PEOPLE_CUES.has(cue) && !closesRole && (!PART_NOUNS.test(cue) || labels(reading, i))) ||
    (BY.has(cue) && RUN_VERBS.test(before)) ||
    afterRole;
  const startsList = cueLists && !taken.has(i + 1);
  const standalone = !cueLists && !taken.has(i) && nameLike(reading, i, false) && isFreeName(reading, i);
  const loose = !cueLists && !standalone && !taken.has(i) && plainNamesBeforeRole(reading, i, taken);
  if (loose) return { at: i, startsList: false, loose };
  if (!startsList && !standalone) return null;
  let k = startsList ? i + 1 : i;
  while (startsList && k < list.length && ROLE_FILLERS.has(base(list[k])) && !PEOPLE_CUES.has(base(list[k])))
    k += 1;
  return { at: k, startsList, loose: false };
}

/**
 * Whether a noun of a person's part at word i labels the names after it: after a pause ("…,
 * manager patti"), before "=", ":", "is", « c'est », or before a capitalised name ("buddy Priya").
 */
function labels(reading: Reading, i: number): boolean {
  const next = reading.list[i + 1];
  if (!next) return false;
  return (
    pauseBefore(reading, i) ||
    /^\s*[=:]\s*$/.test(gap(reading, i + 1)) ||
    /^(?:is|est|c'est|sera|will)$/.test(next.folded) ||
    (!reading.shouting && isCapitalised(next.raw))
  );
}

/** Whether a role follows word k within three words, with no pause ("diego as member"). */
function roleAhead(reading: Reading, k: number): boolean {
  for (let j = k; j < Math.min(reading.list.length, k + 3); j += 1) {
    if (pauseBefore(reading, j)) return false;
    const folded = base(reading.list[j]);
    if (OWNER_CUES.test(folded) || MEMBER_CUES.test(folded)) return true;
  }
  return false;
}

/** Words between a list of names and the role after it ("megan shud own it", "adele and isaiah as owners"). */
const ROLE_VERBS =
  /^(?:shud|shld|should|shall|will|wil|would|can|could|to|must|gonna|are|r|as|comme|en|tant|que|sera|seront|va|vont|doit|doivent|les|la|le|co|is|my|our|mon|ma|notre|est)$/;

/**
 * Names written in lower case, one word each, opening a sentence or after a pause and joined by
 * commas, "and", "et", "+" or "&", when a role follows them ("…, adele and isaiah owners",
 * "megan shud own it", "élodie et lucas membres").
 */
function plainNamesBeforeRole(reading: Reading, i: number, taken: ReadonlySet<number>): boolean {
  const { list } = reading;
  if (!pauseBefore(reading, i) || reading.shouting) return false;
  let k = i;
  for (let names = 0; names < 6; names += 1) {
    if (
      taken.has(k) ||
      !isPlainWord(reading, k) ||
      isCapitalised(list[k]!.raw) ||
      REQUESTER.test(base(list[k]))
    )
      return false;
    if (LIST_JOINERS.has(base(list[k + 1])) && !pauseBefore(reading, k + 1)) k += 2;
    else if (/^\s*[,+&]\s*$/.test(gap(reading, k + 1))) k += 1;
    else break;
  }
  let r = k + 1;
  while (r < list.length && r - k <= 3 && ROLE_VERBS.test(base(list[r])) && !pauseBefore(reading, r)) r += 1;
  const role = base(list[r]);
  return r < list.length && !pauseBefore(reading, r) && (OWNER_CUES.test(role) || MEMBER_CUES.test(role));
}

/** The names listed from word k: joined by commas, "and", "et", "&" or "+". */
function namesFrom(reading: Reading, k: number, taken: ReadonlySet<number>, inList: boolean): Span[] {
  const group: Span[] = [];
  for (;;) {
    const name = personAt(reading, k, taken, inList);
    if (!name) break;
    group.push(name);
    k = name.to + 1;
    // List joiners: a comma, "and", "et", "&".
    const next = base(reading.list[k]);
    if (LIST_JOINERS.has(next) && personAt(reading, k + 1, taken, inList)) {
      k += 1;
      continue;
    }
    // "megan + patti", "Adele & Lynne"
    if (/^\s*[+&]\s*$/.test(gap(reading, k)) && personAt(reading, k, taken, inList)) continue;
    if (/,/.test(gap(reading, k)) && personAt(reading, k, taken, inList) && !/[;.!?]/.test(gap(reading, k)))
      continue;
    break;
  }
  return group;
}

/** A person named twice is one person, an owner if either mention says so. */
function addMention(mentions: PersonMention[], text: string, role: 'owner' | 'member'): void {
  const before = mentions.find((mention) => fold(mention.text) === fold(text));
  if (!before) mentions.push({ text, role });
  else if (role === 'owner') before.role = 'owner';
}

/** A capitalised word outside a list is a person unless a sentence starts with it and no role follows. */
function isFreeName(reading: Reading, i: number): boolean {
  // "in Belgium", "à Lyon", "from Paris": a place.
  if (
    i > 0 &&
    !pauseBefore(reading, i) &&
    /^(?:in|at|from|a|en|au|aux|de|depuis|vers|chez|across|throughout|around|partout)$/.test(
      reading.list[i - 1]!.folded,
    )
  )
    return false;
  if (MONTHS.test(reading.list[i]!.folded)) return false;
  // "Marcus here": the one writing, not a person for the team.
  if (reading.list[i + 1]?.folded === 'here' && (i + 2 >= reading.list.length || pauseBefore(reading, i + 2)))
    return false;
  if (!sentenceStart(reading, i)) return true;
  // "Lynne and Adele must be in it": a list of names opening a sentence.
  if (LIST_JOINERS.has(base(reading.list[i + 1])) && nameLike(reading, i + 2, false)) return true;
  // "Megan will co-own it": a role follows within a few words.
  for (let k = i + 1; k < Math.min(reading.list.length, i + 7); k += 1) {
    const folded = base(reading.list[k]);
    if (OWNER_CUES.test(folded) || MEMBER_CUES.test(folded)) return true;
  }
  return false;
}

/** One person's name at word k: a mail, or up to four name-like words with no pause inside. */
function personAt(reading: Reading, k: number, taken: ReadonlySet<number>, inList: boolean): Span | null {
  const { list } = reading;
  const word = list[k];
  if (!word || taken.has(k)) return null;
  if (word.mail) return { from: k, to: k };
  if (!nameLike(reading, k, inList)) return null;
  const capitalised = !reading.shouting && isCapitalised(word.raw);
  let to = k;
  while (to + 1 < list.length && to - k < 3 && !pauseBefore(reading, to + 1) && !taken.has(to + 1)) {
    const next = list[to + 1]!;
    if (next.mail || LIST_JOINERS.has(next.folded) || /[+&]/.test(gap(reading, to + 1))) break;
    const particle = /^(?:de|da|del|van|von|der|el|al|le|dos|du|di)$/.test(next.folded);
    if (capitalised) {
      if (isCapitalised(next.raw) && nameLike(reading, to + 1, false)) to += 1;
      else if (particle && list[to + 2] && isCapitalised(list[to + 2]!.raw) && !pauseBefore(reading, to + 2))
        to += 2;
      else break;
    } else if (inList && to - k < 1 && nameLike(reading, to + 1, true)) {
      to += 1;
    } else break;
  }
  return { from: k, to };
}

/** Owner when a role of running the team stands just before the list or just after it; member otherwise. */
function roleOf(
  reading: Reading,
  cueIndex: number,
  startsList: boolean,
  group: readonly Span[],
): { role: 'owner' | 'member'; lastOnly: boolean } {
  const { list } = reading;
  const all = (role: 'owner' | 'member') => ({ role, lastOnly: false });
  if (startsList) {
    const cue = base(list[cueIndex]);
    if (OWNER_CUES.test(cue) || BY.has(cue)) return all('owner');
    if (MEMBER_CUES.test(cue)) return all('member');
    // "I'll own it together with Oliver", "co-own it with Oliver": he owns it too.
    if (/^(?:with|avec)$/.test(cue)) {
      for (let k = cueIndex - 1; k >= Math.max(0, cueIndex - 3); k -= 1) {
        if (pauseBefore(reading, k + 1)) break;
        if (OWNER_CUES.test(base(list[k]))) return all('owner');
        if (!/^(?:it|la|le|together|ensemble|jointly)$/.test(base(list[k]))) break;
      }
    }
  } else {
    // Before a free name: "owners are Adele and Lynne" is handled as a list; "as owner Adele" too.
    let k = group[0]!.from - 1;
    while (k >= 0 && ROLE_FILLERS.has(base(list[k])) && !pauseBefore(reading, k + 1)) k -= 1;
    if (k >= 0 && k < group[0]!.from - 1 && OWNER_CUES.test(base(list[k]))) return all('owner');
  }
  const last = group[group.length - 1]!.to;
  for (let k = last + 1; k < Math.min(list.length, last + 6); k += 1) {
    if (/[;.!?]/.test(gap(reading, k))) break;
    if (k > last + 1 && pauseBefore(reading, k) && /,/.test(gap(reading, k))) break;
    const folded = base(list[k]);
    if (PEOPLE_CUES.has(folded) && !OWNER_CUES.test(folded) && !MEMBER_CUES.test(folded)) break;
    if (LIST_JOINERS.has(folded) && nameLike(reading, k + 1, false)) break;
    // "Chloé Bernard et moi comme propriétaire": the role is the writer's.
    if (LIST_JOINERS.has(folded) && REQUESTER.test(base(list[k + 1]))) break;
    if (MEMBER_CUES.test(folded)) return all('member');
    // A singular role word after several names is the last one's ("…, et Megan en propriétaire").
    if (OWNER_CUES.test(folded)) return { role: 'owner', lastOnly: SINGULAR_ROLES.test(folded) };
  }
  return all('member');
}
