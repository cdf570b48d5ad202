/**
 * Shapes of sentence the grammar (`grammar.ts`) reads beside its own: the writer's decisions to
 * make, and a team composed with the people to put in it. Fixed, linear patterns over folded words.
 */
import { isConcept } from './templates';
import { APPROVING, OWN, REQUEST_NOUNS, STATUS_WORDS, WITHDRAWING, followed, has, of } from './grammarWords';

const WAITING = /^(?:waiting|wait|waits|pending|attend\w*|attente)$/;
/** The writer as the one who decides: "me", "moi", or "my"/"ma" before a word of deciding. */
const WRITER = /^(?:me|moi)$/;

/** "my approvals", "show my pending approvals", "mes approbations": the writer's own decisions to make. */
export function asksOwnApprovals(folded: readonly string[]): boolean {
  return (
    (followed(folded, of(OWN), of(/^(?:approvals|approbations|validations|decisions)$/), 2) ||
      waitsOnWriter(folded)) &&
    !has(folded, WITHDRAWING)
  );
}

/**
 * "which requests are waiting on a decision from me?", « les demandes en attente de ma décision »,
 * « des demandes qui attendent après moi »: requests (or anything) waiting on the writer.
 */
function waitsOnWriter(folded: readonly string[]): boolean {
  if (!has(folded, REQUEST_NOUNS) && !has(folded, /^(?:anything|something|rien|quelque|quoi)$/)) return false;
  return folded.some((word, i) => {
    if (!WAITING.test(word)) return false;
    const after = folded.slice(i + 1, i + 6);
    return after.some(
      (next, k) => WRITER.test(next) || (OWN.test(next) && APPROVING.test(after[k + 1] ?? '')),
    );
  });
}

/** Nouns of a person's part used as a label: "buddy = Priya", « mon parrain c'est Diego », "my mentor is Sam". */
const PART = /^(?:buddy|mentor|parrain|marraine|tuteur|tutrice)$/;

/** "équipe marketing 'Benelux Events' avec Zoé": a kind of team and people to put in it, nothing of a request's state. */
export function composesTeam(folded: readonly string[], text: string): boolean {
  return (
    folded.some((word) => isConcept(word)) &&
    (has(folded, /^(?:with|w|avec|add|ajoute|ajouter|including|owners?|members?|membres?|proprietaires?)$/) ||
      followed(folded, of(PART), of(/^(?:is|est)$/), 1) ||
      /\s\+\s|(?:buddy|mentor|parrain|marraine)\s?[=:]/i.test(text)) &&
    !has(folded, REQUEST_NOUNS) &&
    !has(folded, STATUS_WORDS)
  );
}
