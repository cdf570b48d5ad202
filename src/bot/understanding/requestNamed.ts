import { NOT_A_NAME } from './entities/words';
import { isKnownWord } from './intents';
import { isCapitalised, withoutElision, words, type Word } from './text';

/**
 * Which of the person's own requests a message names by part of its team's name ("is the Northwind
 * one up and running?" for "Northwind Traders", "des nouvelles de la migration intune ?"), and
 * whether it asks to withdraw it rather than how it is doing. Pure: the requests are given.
 */

/** A request of the person, by its team's names: as created (with the convention's prefix) and as typed. */
export interface NamedRequest {
  jobId: string;
  teamName: string | null;
  requestedName: string | null;
}

/** What a message asks of one request it names. */
export interface RequestAsked {
  jobId: string;
  /** The name to look it up by, as the typed `status <team name>` would. */
  name: string;
  withdraw: boolean;
}

/**
 * Words that name no request on their own, however a team is called: kinds of team and of work,
 * states, and the words of a question about a request ("the Fabrikam team", "my Intune request").
 */
const NOT_DISTINCT = new Set(
  (
    'project projet projects projets client clients partner partenaire partners partenaires space espace ' +
    'workspace group groupe community communaute campaign campagne marketing legal juridique matter dossier ' +
    'request demande team equipe one thing stuff truc affaire onboarding cohort cohorte buddy department ' +
    'departement squad escouade approved approuve approuvee validated valide validee ready prete pret created ' +
    'creee done fini finie status statut news nouvelles pending waiting attente still encore yet deja already ' +
    'where ou what why pourquoi how comment when quand'
  ).split(' '),
);

/**
 * Words of a question about how a request is doing ("is it ready", "ça avance", "any news",
 * "still waiting"): a name met by one word only is a request's only beside one of them, or a
 * withdrawal ("il fait beau à Lyon ?" names no request).
 */
const ASKING_WORDS =
  /^(?:requests?|demandes?|teams?|equipes?|espaces?|space|status|statut|approv\w*|approuv\w*|valid\w*|accept\w*|refus\w*|reject\w*|ready|pret\w*|created?|cree\w*|creation|done|fini\w*|news|nouvelles?|where|ou|waiting|attente|pending|stuck|bloque\w*|avance\w*|progress\w*|along|running|live|happened|bec[oa]me|devenue?|updates?|passee?|rendue?|sign\w*|check\w*|yet|still|toujours|encore)$/;

/** Prefixes of naming conventions ("PRJ-", "CLI-US-"): a code of capitals before a hyphen. */
const CONVENTION_PREFIX = /^(?:[A-Z]{2,5}-)+/;

/**
 * Words of a message that ask to withdraw: cancel, drop, scrap, forget it, never mind, take back;
 * "annule", "retire", "laisse tomber", "oublie ça", "abandonne".
 */
const WITHDRAW_WORDS =
  /^(?:withdraw\w*|cancel\w*|scrap\w*|ditch\w*|drop\w*|pull|kill|abandon\w*|retract\w*|revoke\w*|annul\w*|retir\w*|abandonn\w*|oubli\w*|supprim\w*)$/;
const WITHDRAW_PAIRS: ReadonlyArray<readonly [RegExp, RegExp]> = [
  [/^never$/, /^mind$/],
  [/^take$/, /^back$/],
  [/^call$/, /^off$/],
  [/^laiss\w*$/, /^tomber$/],
  [/^forget$/, /^(?:it|about)$/],
];

/** The words of a name that can name it alone: not a word of every request, not a function word. */
function distinctWords(name: string): string[] {
  return words(name.replace(CONVENTION_PREFIX, ''))
    .map((word) => withoutElision(word.folded))
    .filter((word) => word.length >= 2 && !NOT_A_NAME.has(word));
}

/** Whether the message asks to withdraw (a verb of cancelling, or "never mind", "laisse tomber"). */
export function asksToWithdraw(list: readonly Word[]): boolean {
  return list.some((word, i) => {
    const folded = withoutElision(word.folded).replace(/-.*$/, '');
    if (WITHDRAW_WORDS.test(folded)) return true;
    const next = list[i + 1]?.folded ?? '';
    return WITHDRAW_PAIRS.some(([first, second]) => first.test(folded) && second.test(next));
  });
}

/**
 * The one request of `requests` the message names best, by the words of its team's name: all of a
 * name's words, or enough of them and at least one that names no other thing (a word of four
 * letters or more, no kind of team). Null when none is named, or two are named as well.
 */
export function requestNamedIn(
  text: string,
  requests: readonly NamedRequest[],
  /** The name the engine read in the message, if any: a request named otherwise is not this one. */
  spoken: string | null = null,
  /** The message is known to ask about a request (typed after `status`). */
  asking = false,
): RequestAsked | null {
  const list = words(text);
  const said = new Set(list.map((word) => withoutElision(word.folded)));
  const spokenWords = spoken
    ? distinctWords(spoken).filter((word) => word.length >= 3 && !NOT_DISTINCT.has(word))
    : [];
  let best: { request: NamedRequest; score: number; whole: boolean } | null = null;
  let tie = false;
  for (const request of requests) {
    for (const name of [request.requestedName, request.teamName]) {
      if (!name) continue;
      const named = [...new Set(distinctWords(name))];
      if (named.length === 0 || spokenWords.some((word) => !named.includes(word))) continue;
      const found = named.filter((word) => said.has(word));
      const telling = found.filter(
        (word) => word.length >= 4 && !NOT_DISTINCT.has(word) && !/^\d+$/.test(word),
      );
      if (telling.length === 0) continue;
      // Every word of the name, or more than one, or one that is not a word of the language asked in.
      const score = found.length / named.length + found.length * 0.01;
      if (found.length < named.length && found.length < 2 && !unusual(telling[0]!, list)) continue;
      const whole = found.length === named.length && found.length >= 2;
      if (best && best.request.jobId === request.jobId) {
        best.score = Math.max(best.score, score);
        best.whole ||= whole;
        continue;
      }
      if (!best || score > best.score + 1e-9) {
        best = { request, score, whole };
        tie = false;
      } else if (Math.abs(score - best.score) < 1e-9) tie = true;
    }
  }
  if (!best || tie) return null;
  const { request } = best;
  const withdraw = asksToWithdraw(list);
  // Only a whole name of two words or more is a request's on its own; part of one, beside a
  // question about a request or a withdrawal.
  if (
    !best.whole &&
    !withdraw &&
    !asking &&
    !list.some((word) => ASKING_WORDS.test(withoutElision(word.folded).replace(/-.*$/, '')))
  )
    return null;
  return {
    jobId: request.jobId,
    name: (request.teamName ?? request.requestedName ?? request.jobId).trim(),
    withdraw,
  };
}

/**
 * Whether one word of a name, alone, names it: written with a capital after the message's first
 * word, or a word the engine does not know in either language (a company's or a product's name:
 * "intune", "tailspin").
 */
function unusual(folded: string, list: readonly Word[]): boolean {
  if (!isKnownWord(folded)) return true;
  return list.some(
    (word, i) => i > 0 && withoutElision(word.folded) === folded && isCapitalised(withoutElision(word.raw)),
  );
}
