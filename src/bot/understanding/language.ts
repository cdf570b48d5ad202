import type { UnderstoodLanguage } from './types';
import type { Word } from './text';

/**
 * English or French, told by the words only each language uses often (articles, pronouns,
 * prepositions, the words of politeness) and by French accents. A message with neither is read as
 * English (`known` false), and mostly not understood.
 */

const ENGLISH = new Set(
  (
    'the a an of to for with and or in on at by from is are was be will would could can please ' +
    "i i'd i'm i'll me my mine we our us you your it its this that these those who what which when " +
    'where how why do does did have has need want like hi hello hey thanks thank cheers new team ' +
    'teams request requests called named some any there their them about just also still yet not ' +
    'help show list tell'
  ).split(' '),
);

const FRENCH = new Set(
  (
    "le la les un une des du de d' l' et ou en au aux pour avec par sur dans est sont sera seront " +
    "je j' j'ai me m' moi mon ma mes nous notre nos vous votre vos il elle ils elles on ce cet cette " +
    'ces qui que quoi quel quelle quels quelles quand comment pourquoi faut voudrais veux aimerais ' +
    'besoin bonjour salut merci stp svp plait equipe equipes demande demandes appelee appele nommee ' +
    "nomme pas encore aussi peux peut sais fais mes quoi ca c'est y a-t-il"
  ).split(' '),
);

/** French letters English never writes. */
const FRENCH_LETTERS = /[éèêàùçœâîôûë]/i;

export interface LanguageGuess {
  language: UnderstoodLanguage;
  /** Whether the message had words of English or French at all. */
  known: boolean;
  /** How many of its words are English or French words (of the language chosen). */
  hits: number;
}

export function detectLanguage(text: string, list: readonly Word[]): LanguageGuess {
  let en = 0;
  let fr = 0;
  for (const word of list) {
    const elided = /^[a-z]{1,2}'/.exec(word.folded);
    if (elided && FRENCH.has(elided[0])) fr += 1;
    if (ENGLISH.has(word.folded)) en += 1;
    if (FRENCH.has(word.folded)) fr += 1;
  }
  if (FRENCH_LETTERS.test(text.slice(0, 500))) fr += 1;
  if (fr > en) return { language: 'fr', known: true, hits: fr };
  if (en === 0 && fr === 0) return { language: 'en', known: false, hits: 0 };
  return { language: 'en', known: en > 0, hits: en };
}
