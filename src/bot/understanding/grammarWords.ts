/**
 * The word classes the grammar of questions (`grammar.ts`) reads: folded words (no case, no
 * accents, elided articles removed), English and French, and how a message's words are tested
 * against them. Every pattern is fixed and linear.
 */
import { isCapitalised, withoutElision, type Word } from './text';

export const APPROVING =
  /^(?:approv\w*|approb\w*|check\w*|examin\w*|verif\w*|approuv\w*|valid\w*|sign\w*|ok|okay|oks|review\w*|decid\w*|decision\w*|decis\w*|accord\w*|autoris\w*|authori[sz]\w*|green-?light\w*|go-ahead|yes|oui|sign-?offs?|green|vert)$/;
export const LIFECYCLE =
  /^(?:expir\w*|prolong\w*|extend|extension|inactiv\w*|archiv\w*|renew\w*|renouvel\w*|delet\w*|supprim\w*|stale|actives?|actifs?|dormant\w*|dorment|dort|unused|lapse\w*|echeance\w*|perim\w*|use|used|uses|utilise\w*|servent|sert|run|runs|running|fin|end|ends|ending)$/;
export const TEMPLATE_NOUNS = /^(?:templates?|modeles?|gabarits?|catalog\w*|kinds?|types?|sorts?|options?)$/;
export const STATUS_WORDS =
  /^(?:status|statut|etat|where|ou|news|nouvelles?|avance\w*|ready|pret\w*|waiting|wait|still|yet|outstanding|open|requested|ask|asked|happen\w*|fait|existe?\w*|exists?|rejetee?s?|demandee?s?|approved|approuvee?s?|validee?s?|created|creee?s?|stuck|bloquee?s?|pending|attente|going|gone|through|asked|happening|progress|update\w*|submitted|soumise?s?|accepted|acceptee?s?|rejected|refusee?s?|declined|up|rendue?s?|ok|bon)$/;
export const REQUEST_NOUNS = /^(?:requests?|reqs?|tickets?|demandes?)$/;
export const TEAM_NOUNS =
  /^(?:teams?|equipes?|spaces?|espaces?|workspaces?|groups?|groupes?|sites?|channels?)$/;
export const OWN = /^(?:my|mes|ma|mon|our|nos|notre|mine)$/;
/** Verbs of wanting, needing or making something, and the politeness of an order. */
export const WANTING =
  /^(?:need|needs|want|wants|wanted|like|get|create|make|set|spin|open|start|build|request|give|faut|faudrait|fallait|besoin|voudrais|voudrait|voulais|veux|veut|aimerais|aimerait|souhaite|souhaiterais|cree|creer|creez|ouvrir|ouvre|ouvrez|monter|monte|prendrait|lancer|demander|please|pls|plz|stp|svp|merci)$/;
export const NEW = /^(?:new|nouveau|nouvelle|nouvel|neuve|neuf|another|autre)$/;
export const QUESTION_OPENERS =
  /^(?:who|who'd|who's|whod|whos|whom|qui|does|do|is|are|faut-il|faut|doit|doivent|est-ce|need|needs)$/;
/** Verbs of deciding in the imperative (or the infinitive an order may use): not "approved requests?". */
export const DECIDING =
  /^(?:approve|reject|accept|decline|deny|validate|approuve|approuvez|approuver|valide|validez|valider|valide-les|approuve-les|refuse|refusez|refuser|accepte|acceptez|accepter|rejette|rejetez|rejeter)$/;
export const POLITE_OPENERS =
  /^(?:please|pls|plz|kindly|can|could|would|you|peux-tu|pouvez-vous|peux|pouvez|tu|vous|svp|stp|veuillez|veux-tu|voulez-vous)$/;
/** Articles and possessives, elided ones included ("l'invitation"): a thing named with one is no request's name. */
/** The most words an order to decide names its request in ("reject woodgrove bank please"). */
export const ORDER_WORDS = 6;
export const DETERMINERS =
  /^(?:the|a|an|this|that|my|your|le|la|les|un|une|ce|cette|mon|ma|ton|ta|[ld]['’]\S*)$/;
export const ALL = /^(?:all|everything|every|everyone|tout|toutes|tous|them|les)$/;
export const RIGHTS =
  /^(?:owner|owners|admin\w*|rights?|droits?|access|acces|permissions?|proprietaire|administrat\w*|privileges?)$/;
export const GRANTING = /^(?:make|give|grant|donne-moi|donnez-moi|donne|donnez|rends-moi|fais-moi|mets-moi)$/;
/** Words of taking a request back: withdrawing, cancelling, dropping, letting it go. */
export const WITHDRAWING =
  /^(?:withdraw[\w-]*|cancel[\w-]*|annul[\w-]*|retir[\w-]*|drop\w*|longer|back|off|ditch\w*|retract\w*|scrap\w*|remove|delete|pull|kill|forget|nevermind|never|mind|undo|revoke|retir\w*|annul\w*|laisse|lache|tomber|oublie|oublier|abandon\w*|supprim\w*|enleve|efface)$/;

export function foldedOf(list: readonly Word[]): string[] {
  return list.map((word) => withoutElision(word.folded));
}

/** The words with the capitalised ones inside the sentence blanked: names ("projet Renouvellement parc PC"). */
export function withoutNames(folded: readonly string[], list: readonly Word[]): string[] {
  // In capitals, a capital says nothing of a name.
  if (list.every((word) => word.raw === word.raw.toUpperCase())) return [...folded];
  return folded.map((word, i) => (i > 0 && isCapitalised(list[i]!.raw) ? '' : word));
}

/** Whether any word is of a class. */
export const has = (folded: readonly string[], pattern: RegExp): boolean =>
  folded.some((word) => pattern.test(word));

export type Test = (word: string) => boolean;
export const of =
  (pattern: RegExp): Test =>
  (word) =>
    pattern.test(word);

/** Whether a word of `first` is followed within `within` words by one of `then`. */
export function followed(folded: readonly string[], first: Test, then: Test, within: number): boolean {
  return folded.some((word, i) => first(word) && folded.slice(i + 1, i + 1 + within).some(then));
}
