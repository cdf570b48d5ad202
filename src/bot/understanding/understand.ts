import { OF_THE_DOMAIN, settle } from './grammar';
import { classify } from './intents';
import { detectLanguage } from './language';
import { isConcept, matchTemplates, templateNameWords } from './templates';
import {
  peopleMentions,
  purpose,
  reading,
  requestFilterOf,
  requestNameSpan,
  spanText,
  teamNameSpan,
} from './entities';
import { isCapitalised, MAX_UNDERSTOOD_CHARS, withoutElision, words, type Word } from './text';
import { aboutSteward, asksAbilities, decidesAll } from './topic';
import type { TemplateChoice, Understanding } from './types';

/** Words between parentheses (no parenthesis inside: linear). */
const ASIDE = /\([^()]{0,200}\)/g;

/** "my requests", "mes demandes": the message is about the writer's own requests. */
function ownRequests(list: readonly Word[]): boolean {
  return list.some(
    (word, i) =>
      /^(?:my|mes|ma|mon)$/.test(word.folded) &&
      /^(?:requests?|reqs?|demandes?|teams?|equipes?)$/.test(list[i + 1]?.folded ?? ''),
  );
}

/** "see my requests", "voir mes demandes", "show me my reqs": a verb of seeing and one's own requests. */
function seesOwnRequests(list: readonly Word[]): boolean {
  const own = list.some(
    (word, i) =>
      /^(?:my|mes)$/.test(word.folded) && /^(?:requests|reqs|demandes)$/.test(list[i + 1]?.folded ?? ''),
  );
  return (
    own &&
    list.some((word) =>
      /^(?:see|show|view|list|voir|afficher|affiche|montre\w*|consulter|liste)$/.test(word.folded),
    )
  );
}

/** Whether word i is of no language: a letter, a capitalised word, or a word a "+" or "&" joins to another. */
function namesOnly(text: string, list: readonly Word[], i: number): boolean {
  const word = list[i]!;
  if (word.raw.length <= 1 || (i > 0 && isCapitalised(word.raw))) return true;
  const before = i > 0 ? text.slice(list[i - 1]!.end, word.start) : '';
  const after = i + 1 < list.length ? text.slice(word.end, list[i + 1]!.start) : '';
  return /[+&/]/.test(before) || /[+&]/.test(after);
}

/**
 * What a message typed in a person's own words asks, in English or French: its intent (nlp.js's
 * neural classifier, trained on its first message), the templates it points at, the team's name,
 * its purpose, the people named with their role, and for a status question which requests. Pure,
 * synchronous, local: no message text leaves the process. Only the first MAX_UNDERSTOOD_CHARS
 * characters are read, so any message is understood within the same time.
 */
export function understand(
  text: string,
  templates: readonly TemplateChoice[],
  /**
   * The message was not understood without its templates: it is a request only if it names one
   * of `templates` by its name ("onboarding cohort 'Winter joiners'", "l'équipe des annonces IT").
   */
  byTemplateName = false,
): Understanding {
  const cut = typeof text === 'string' ? text.slice(0, MAX_UNDERSTOOD_CHARS) : '';
  const list = words(cut);
  const guess = detectLanguage(cut, list);
  const result: Understanding = {
    language: guess.language,
    intent: 'none',
    confidence: 1,
    templates: [],
    teamName: null,
    description: null,
    people: [],
    requestFilter: null,
    requestName: null,
  };
  if (list.length === 0) return result;
  // Both classifiers read the message; the language is the one whose words it uses more.
  // An aside in parentheses ("(sorry, no umlaut on my keyboard)") says nothing of what is asked.
  const asides = [...cut.matchAll(ASIDE)].map((match) => [match.index, match.index + match[0].length]);
  const asked = list.filter((word) => !asides.some(([from, to]) => word.start >= from! && word.end <= to!));
  const folded = (asked.length > 0 ? asked : list).map((word) => word.folded);
  const en = classify(folded, 'en');
  const fr = classify(folded, 'fr');
  const enScore = (guess.language === 'en' ? guess.hits : 0) + en.known;
  const frScore = (guess.language === 'fr' ? guess.hits : 0) + fr.known;
  const language = frScore > enScore || (frScore === enScore && guess.language === 'fr') ? 'fr' : 'en';
  const classified = language === 'fr' ? fr : en;
  const { known } = classified;
  result.language = language;
  // Several words, few of them English or French: another language, not understood. Names
  // ("Orion", "megan + adele") and letters ("w/") are of no language.
  const counted = list.filter((word, i) => !namesOnly(cut, list, i)).length;
  const offTopic = !aboutSteward(list);
  if (offTopic) result.offTopic = true;
  if (!guess.known && counted >= 3 && known * 2 < counted) return result;
  if (counted >= 4 && guess.hits <= 1 && known * 3 < counted) return result;
  // The classifier's guess, read again for the grammar of the sentence (`grammar.ts`).
  const { intent, confidence, decidesRequests } = settle(
    list,
    classified.ranked,
    classified.intent,
    classified.confidence,
    cut,
  );
  // "approve everything pending", "approve Alex's request": an order to decide, whatever it reads most like.
  if (decidesRequests || (decidesAll(list) && intent !== 'askApprovers')) {
    result.intent = 'askMyApprovals';
    result.decideAll = true;
    return result;
  }
  // "who won the football last night" reads most like "who approves…", and is about none of it.
  // An unsure guess on a message of no word of the domain is no guess: "c'est quoi le menu".
  const unsure =
    confidence < 0.6 &&
    intent !== 'greeting' &&
    intent !== 'thanks' &&
    !(intent === 'askCapabilities' && asksAbilities(list));
  if ((OF_THE_DOMAIN.has(intent) || intent === 'none' || unsure) && offTopic) return result;
  if (byTemplateName) {
    if (!namesTemplate(list, templates)) return result;
    result.intent = 'requestTeam';
    result.confidence = Math.round(confidence * 100) / 100;
    fillRequest(result, cut, list, templates);
    return result;
  }
  result.intent = intent;
  result.confidence = Math.round(confidence * 100) / 100;
  const read = reading(cut, list);
  switch (intent) {
    case 'requestTeam':
      // "je voudrais voir mes demandes": wanting to see one's requests is no request for a team.
      if (seesOwnRequests(list)) {
        result.intent = 'askRequestStatus';
        result.requestFilter = requestFilterOf(read);
      } else fillRequest(result, cut, list, templates);
      break;
    case 'askMyApprovals':
      // "do I need anyone to approve a client team?" asks who approves a kind of team; "montre le
      // statut de mes demandes" asks about one's own requests.
      if (ownRequests(list)) result.intent = 'askRequestStatus';
      else if (
        list.some((word) => isConcept(withoutElision(word.folded))) ||
        /^(?:who|qui)$/.test(list[0]!.folded)
      )
        result.intent = 'askApprovers';
      if (result.intent === 'askRequestStatus') result.requestFilter = requestFilterOf(read);
      if (result.intent === 'askApprovers')
        result.templates = matchTemplates(list, templates, new Set(), false);
      break;
    case 'askApprovers':
      // A question about one template names it: a word of another template's description
      // ("Legal approves every request") does not make that template the one asked about.
      result.templates = matchTemplates(list, templates, new Set(), false);
      break;
    case 'askTemplates':
      result.templates = matchTemplates(list, templates);
      break;
    case 'askRequestStatus': {
      const name = requestNameSpan(read);
      if (name) result.requestName = spanText(read, name);
      else result.requestFilter = requestFilterOf(read);
      break;
    }
    case 'withdrawRequest': {
      const name = requestNameSpan(read);
      if (name) result.requestName = spanText(read, name);
      break;
    }
    default:
      break;
  }
  return result;
}

/** A template named by its name: most of it, in two words or more ("IT announcements", "dossier juridique"). */
const NAMED_SHARE = 0.7;

function namesTemplate(list: readonly Word[], templates: readonly TemplateChoice[]): boolean {
  const best = matchTemplates(list, templates, new Set(), false)[0];
  return best !== undefined && best.score >= NAMED_SHARE && best.because.trim().split(/\s+/).length >= 2;
}

/** A request's team name, people, templates and purpose, read from the message. */
function fillRequest(
  result: Understanding,
  cut: string,
  list: readonly Word[],
  templates: readonly TemplateChoice[],
): void {
  const read = reading(cut, list);
  const name = teamNameSpan(read, new Set());
  const taken = new Set<number>();
  if (name) {
    // "pour l'audit TVA 2027": a lower-case elided article is not part of the name ("L'Oréal" keeps its own).
    result.teamName = spanText(read, name).replace(/^[ld]['’](?=\p{L})/u, '');
    for (let i = name.from; i <= name.to; i += 1) taken.add(i);
  }
  const people = peopleMentions(read, taken, templateNameWords(templates));
  result.people = people.mentions;
  for (const i of people.used) taken.add(i);
  result.templates = matchTemplates(list, templates, taken);
  result.description = purpose(read);
}
