import { isConcept } from './templates';
import { isCapitalised, type Word } from './text';
import type { Intent } from './types';
import {
  APPROVING,
  LIFECYCLE,
  TEMPLATE_NOUNS,
  STATUS_WORDS,
  REQUEST_NOUNS,
  TEAM_NOUNS,
  OWN,
  WANTING,
  NEW,
  QUESTION_OPENERS,
  DECIDING,
  POLITE_OPENERS,
  ALL,
  RIGHTS,
  GRANTING,
  WITHDRAWING,
  DETERMINERS,
  ORDER_WORDS,
  foldedOf,
  followed,
  has,
  of,
  withoutNames,
} from './grammarWords';
import { asksOwnApprovals, composesTeam } from './grammarShapes';

/**
 * The grammar of what people ask, over the classifier's guess: the word classes an intent cannot
 * do without ("who approves" needs a word of approving, "which teams expire" a word of a team's
 * end), and the shapes of sentence that say an intent whatever the classifier leans to ("my
 * requests", "I've asked for", "who has to approve…", "approve Alex's request"). English and
 * French; every pattern is a fixed, linear expression over one folded word.
 */

/** The classifier's intents, each with its share of the scores, best first. */
export type Ranked = readonly (readonly [Intent, number])[];

/** What the grammar settles on: an intent, how sure, and whether it orders a decision. */
export interface Settled {
  intent: Intent;
  confidence: number;
  decidesRequests?: true;
}

/** Intents of Steward's domain: the only fallbacks, and none for a message without its words. */
export const OF_THE_DOMAIN: ReadonlySet<Intent> = new Set([
  'requestTeam',
  'askApprovers',
  'askRequestStatus',
  'askMyApprovals',
  'withdrawRequest',
  'askExpiringTeams',
  'askTemplates',
]);

/** A name between quotes (no quote inside: linear). */
const QUOTED = /["“«][^"“”«»\n]{1,100}["”»]|(?:^|\s)'[^'\n]{1,100}'/;

/** The least share of what remains an intent needs once the best one lacked its words. */
const AFTER_VETO = 0.5;

/** How sure a reading the grammar is sure of is said to be: above the bot's bar for acting. */
const SURE = 0.9;

/** "my (team) requests", "what requests do I have", "what I've asked for", "que j'ai demandées". */
export function asksOwnRequests(list: readonly Word[]): boolean {
  const folded = list.map((word) => word.folded);
  const plural = followed(folded, of(OWN), of(/^(?:requests|reqs|demandes|tickets)$/), 2);
  // "what requests do I have going", not "requests I have to decide on" (their approvals).
  const mineAsked = folded.some(
    (word, i) =>
      /^(?:requests|demandes)$/.test(word) &&
      folded.slice(i + 1).some((w) => /^(?:i|je|j'ai)$/.test(w)) &&
      !folded.slice(i + 1).some((w) => APPROVING.test(w) || DECIDING.test(w)),
  );
  const asked = folded.some(
    (word, i) =>
      (/^(?:asked|requested|submitted|demandee?s?)$/.test(word) &&
        folded.slice(Math.max(0, i - 2), i).some((w) => /^(?:i|i've|ive|we|we've|j'ai|ai|avons)$/.test(w))) ||
      (/^(?:ask|request|submit)$/.test(word) &&
        /^(?:did|have|had)$/.test(folded[i - 2] ?? '') &&
        folded[i - 1] === 'i'),
  );
  return plural || mineAsked || asked;
}

/** Whether a message is about one's teams ending: a word of expiry, renewal or disuse. */
export function asksLifecycle(list: readonly Word[]): boolean {
  const folded = withoutNames(foldedOf(list), list);
  const ending = folded.some(
    (word, i) =>
      (LIFECYCLE.test(word) && !/^(?:use|used|run|runs|running|end|ends|ending|fin)$/.test(word)) ||
      (/^(?:run|runs|running)$/.test(word) && folded[i + 1] === 'out') ||
      (/^(?:end|ends|ending|fin)$/.test(word) && /^(?:of|de)$/.test(folded[i + 1] ?? '')),
  );
  return ending && has(folded, TEAM_NOUNS);
}

/** "who has to approve a client team?", "faut-il une validation pour…": a question of who approves a kind of team. */
function asksWhoApproves(list: readonly Word[]): boolean {
  const folded = withoutNames(foldedOf(list), list);
  if (!has(folded, APPROVING) || DECIDING.test(folded[0] ?? '')) return false;
  // Not about one's own request ("who approved my request?") nor one's own approvals.
  if (followed(folded, of(OWN), of(/^(?:requests?|demandes?|approvals?|approbations?|teams?|equipes?)$/), 2))
    return false;
  // "has the Atlas team been approved?", "l'équipe X a été validée ?": a state, unless something must be.
  const modal = has(
    folded,
    /^(?:must|need|needs|needed|have|has|faut|faut-il|doit|doivent|required|requise?|necessaire)$/,
  );
  if (!modal && has(folded, /^(?:approved|approuvee?s?|validee?s?|accepted|acceptee?s?)$/)) return false;
  const question =
    QUESTION_OPENERS.test(folded[0] ?? '') ||
    folded.some((w) =>
      /^(?:who|who'd|who's|whom|qui|etapes?|steps?|required|requise?|needed|necessaire)$/.test(w),
    );
  return question && (has(folded, TEAM_NOUNS) || folded.some((word) => isConcept(word)));
}

/** "approve Alex's request", "refuse Coho Winery": an imperative of deciding opening a short order. */
export function ordersDecision(list: readonly Word[], text = ''): boolean {
  const folded = foldedOf(list);
  let start = 0;
  while (start < folded.length - 1 && POLITE_OPENERS.test(folded[start]!)) start += 1;
  if (!DECIDING.test(folded[start] ?? '')) return false;
  const rest = folded.slice(start + 1);
  return (
    has(rest, REQUEST_NOUNS) ||
    has(rest, ALL) ||
    list.slice(start + 1).some((word) => /'s$/.test(word.folded)) ||
    // A request named bare: "reject the meeting", "accepte l'invitation" name other things.
    (rest.length > 0 &&
      rest.length <= ORDER_WORDS &&
      !text.includes('?') &&
      !has(rest, TEAM_NOUNS) &&
      !list.slice(start + 1).some((word) => DETERMINERS.test(word.folded)))
  );
}

/** "make me owner of every team", "donne-moi les droits sur toutes les équipes": rights Steward never grants. */
function asksRights(folded: readonly string[]): boolean {
  return followed(folded, of(GRANTING), of(RIGHTS), 4) && has(folded, ALL);
}

/** "need a new team", "il me faudrait une équipe", "merci d'ouvrir un espace": asks for a team. */
function asksForTeam(folded: readonly string[]): boolean {
  const thing = (w: string) => TEAM_NOUNS.test(w) || isConcept(w);
  return (
    followed(folded, of(WANTING), thing, 5) ||
    followed(folded, of(NEW), thing, 2) ||
    // "partner workspace pls": a kind of team, then politeness.
    followed(folded, thing, of(/^(?:please|pls|plz|stp|svp)$/), 2)
  );
}

/** "name it Kestrel", "call the team Falcon", "appelle-la Colibri", "nommée Quai 7". */
function namesTeam(folded: readonly string[]): boolean {
  return (
    (followed(
      folded,
      of(/^(?:name|call|nomme|appelle|appelle-la|appelle-le|nomme-la|baptise|baptise-la)$/),
      of(/^(?:it|la|le|the|this|cette)$/),
      1,
    ) ||
      has(folded, /^(?:named|called|titled|nommee?|nomee?|appelee?|apelee?|intitulee?|baptisee?)$/)) &&
    !has(folded, /^(?:status|statut|etat|where|ou)$/)
  );
}

/** "mon équipe …, est-elle créée ?", "is my Atlas team ready?": the state of one's own team or request. */
function asksOwnState(folded: readonly string[]): boolean {
  return (
    followed(folded, of(OWN), of(/^(?:teams?|equipes?|requests?|demandes?)$/), 1) &&
    has(
      folded,
      /^(?:ready|pret\w*|approved|approuvee?s?|validee?s?|created|creee?s?|done|finie?s?|accepted|acceptee?s?|rejected|refusee?s?)$/,
    ) &&
    !has(folded, WANTING)
  );
}

/** The words an intent cannot do without: without them, it is not that intent. */
const NEEDS: Partial<Record<Intent, (folded: readonly string[], list: readonly Word[]) => boolean>> = {
  askApprovers: (folded) => has(folded, APPROVING),
  withdrawRequest: (folded) => has(folded, WITHDRAWING),
  askMyApprovals: (folded) =>
    has(folded, APPROVING) || has(folded, DECIDING) || has(folded, /^(?:attend\w*|waiting|wait|pending)$/),
  askExpiringTeams: (folded, list) => has(withoutNames(folded, list), LIFECYCLE),
  askTemplates: (folded) =>
    has(folded, TEMPLATE_NOUNS) ||
    has(
      folded,
      /^(?:which|what|quel\w*|best|meilleur\w*|recommend\w*|conseill\w*|suit\w*|fits?|convient|choose|choisir)$/,
    ),
  // A request, a word of its state, or a name: "my team lost the quiz" asks nothing of a request.
  askRequestStatus: (folded, list) =>
    has(folded, REQUEST_NOUNS) ||
    has(folded, STATUS_WORDS) ||
    list.some((word, i) => i > 0 && isCapitalised(word.raw) && word.raw !== word.raw.toUpperCase()),
  // "our team won the match": a team one has is talked about, not asked for.
  requestTeam: (folded) =>
    !followed(folded, of(/^(?:our|my|their|notre|mon|ma|nos|mes|leur|leurs)$/), of(TEAM_NOUNS), 1) ||
    has(folded, WANTING) ||
    has(folded, NEW) ||
    folded.some((word) => isConcept(word)),
};

/** Whether a message has the words an intent cannot do without (every intent of the corpus has them). */
export function hasWordsOf(intent: Intent, list: readonly Word[]): boolean {
  const needs = NEEDS[intent];
  return !needs || needs(foldedOf(list), list);
}

/**
 * The intent of a message once its grammar is read: the classifier's best intent that has the
 * words it needs, unless the sentence's shape says another.
 */
export function settle(
  list: readonly Word[],
  ranked: Ranked,
  intent: Intent,
  confidence: number,
  text = '',
): Settled {
  const folded = foldedOf(list);
  if (asksRights(folded)) return { intent: 'none', confidence: 1 };
  if (ordersDecision(list, text))
    return { intent: 'askMyApprovals', confidence: SURE, decidesRequests: true };
  if (asksOwnApprovals(folded)) return { intent: 'askMyApprovals', confidence: Math.max(confidence, SURE) };
  if (asksWhoApproves(list) && intent !== 'askApprovers') return { intent: 'askApprovers', confidence: SURE };
  const loose =
    intent === 'none' || intent === 'askCapabilities' || intent === 'greeting' || intent === 'thanks';
  // A team asked for by its name is not about its end ("called Longboat … replaces the nightly job").
  const named = intent === 'requestTeam' && (namesTeam(folded) || QUOTED.test(text));
  if (asksLifecycle(list) && intent !== 'withdrawRequest' && !named)
    return { intent: 'askExpiringTeams', confidence: Math.max(confidence, SURE) };
  if (
    !/^(?:withdrawRequest|askExpiringTeams|requestTeam)$/.test(intent) &&
    asksOwnRequests(list) &&
    !has(folded, /^(?:withdraw\w*|cancel\w*|retir\w*|annul\w*)$/)
  )
    return { intent: 'askRequestStatus', confidence: Math.max(confidence, SURE) };
  if (has(folded, /^(?:templates?|modeles?|gabarits?)$/) && (loose || intent === 'askRequestStatus'))
    return { intent: 'askTemplates', confidence: SURE };
  if (loose && asksForTeam(folded)) return { intent: 'requestTeam', confidence: SURE };
  // "onboarding cohort team 'Winter joiners'": a kind of team and a name in quotes.
  if (loose && folded.some((word) => isConcept(word)) && QUOTED.test(text))
    return { intent: 'requestTeam', confidence: SURE };
  // "name it Björn onboarding", "appelle-la Colibri": naming a team is asking for it.
  if (namesTeam(folded) && !has(folded, REQUEST_NOUNS) && intent !== 'requestTeam')
    return { intent: 'requestTeam', confidence: SURE };
  // "status for the Southwind team please": the state of a request is what is asked.
  if (
    (intent === 'requestTeam' || loose) &&
    has(folded, /^(?:status|statut|etat|progress|avancement)$/) &&
    !has(
      folded,
      /^(?:need|want|like|create|make|set|spin|open|new|faut|besoin|voudrais|veux|cree|creer|nouvelle)$/,
    )
  )
    return { intent: 'askRequestStatus', confidence: Math.max(confidence, SURE) };
  if (composesTeam(folded, text) && (intent === 'askRequestStatus' || loose))
    return { intent: 'requestTeam', confidence: Math.max(confidence, SURE) };
  if (asksOwnState(folded) && (intent === 'requestTeam' || loose))
    return { intent: 'askRequestStatus', confidence: SURE };
  const needs = NEEDS[intent];
  if (!needs || needs(folded, list)) return { intent, confidence };
  if (asksForTeam(folded) || namesTeam(folded) || composesTeam(folded, text))
    return { intent: 'requestTeam', confidence: SURE };
  // The best intent that has its words, as sure as its share of what remains.
  for (const [other, share] of ranked) {
    if (other === intent || !OF_THE_DOMAIN.has(other)) continue;
    const wants = NEEDS[other];
    if (wants && !wants(folded, list)) continue;
    const sure = Math.min(1, share / Math.max(1e-9, 1 - (ranked[0]?.[1] ?? 0)));
    return sure >= AFTER_VETO ? { intent: other, confidence: sure } : { intent: 'none', confidence: 1 };
  }
  return { intent: 'none', confidence: 1 };
}
