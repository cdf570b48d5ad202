import { base, gap, nameLike, pauseBefore, teamWord, type Reading, type Span } from './reading';
import { nameFrom } from './names';
import { DETERMINERS, MEMBER_CUES, NOT_A_NAME, OWNER_CUES, PARTNER_FILLERS, PEOPLE_CUES } from './words';

/**
 * The company a team is for, named the way people introduce one: set off by commas after the noun
 * it names ("an outside vendor, Adatum.", "notre imprimeur externe, Print Mosane ?"), or after a
 * verb of winning or signing business ("we just signed Relecloud", "on a signé avec Pharmacie
 * Centrale"). Such a name is the team's, not a person to add.
 */

/** Nouns of people: "my colleague, Megan" names a person, not a company. */
const PERSON_NOUNS =
  /^(?:colleagues?|collegues?|manager|boss|chef|buddy|parrain|marraine|friends?|amie?s?|person|personne|joiner|newcomer|recrue|stagiaire|intern|hire|employee|employe|employee?s?|lead|responsable|contact|assistant|assistante)$/;

/** Verbs of winning or signing a client or a partner. */
const SIGNING = /^(?:signed|sign|signing|pitching|pitch|won|landed|signe|signer|signons|decroche|decrocher)$/;

/** "an outside vendor, Adatum.": a proper noun set off by commas after a noun and its determiner. */
export function appositionName(reading: Reading, taken: ReadonlySet<number>): Span | null {
  const { list } = reading;
  for (let k = 2; k < list.length; k += 1) {
    if (!/^\s*,\s*$/.test(gap(reading, k)) || !teamWord(reading, k) || taken.has(k)) continue;
    // The noun before the comma, maybe after adjectives, with its determiner at most three words back.
    let i = k - 1;
    const noun = base(list[i]);
    if (PERSON_NOUNS.test(noun) || PEOPLE_CUES.has(noun) || MEMBER_CUES.test(noun) || OWNER_CUES.test(noun))
      continue;
    if (nameLike(reading, i, false) || NOT_A_NAME.has(noun)) continue;
    while (i > 0 && k - i <= 3 && !DETERMINERS.has(base(list[i - 1])) && !pauseBefore(reading, i)) i -= 1;
    if (i === 0 || !DETERMINERS.has(base(list[i - 1])) || pauseBefore(reading, i)) continue;
    const span = nameFrom(reading, k, taken, false);
    if (span && (span.to + 1 >= list.length || pauseBefore(reading, span.to + 1))) return span;
  }
  return null;
}

/** "we just signed Relecloud", "on a signé avec la société Verdier": the client a verb of signing names. */
export function signedName(reading: Reading, taken: ReadonlySet<number>): Span | null {
  const { list } = reading;
  for (let i = 0; i < list.length; i += 1) {
    if (!SIGNING.test(base(list[i]))) continue;
    let k = i + 1;
    while (
      k < list.length &&
      k - i <= 3 &&
      /^(?:to|with|avec|a|on|up)$|^(?:the|la|le|l)$/.test(base(list[k]))
    )
      k += 1;
    while (k < list.length && k - i <= 4 && PARTNER_FILLERS.test(base(list[k]))) k += 1;
    if (k < list.length && !pauseBefore(reading, k) && teamWord(reading, k) && !taken.has(k))
      return nameFrom(reading, k, taken, false);
  }
  return null;
}
