import { StemmerEn } from '@nlpjs/lang-en-min';
import { StemmerFr } from '@nlpjs/lang-fr';
import { NeuralNetwork, type NeuralExample } from '@nlpjs/neural';
import { corpusEn } from './corpusEn';
import { corpusFr } from './corpusFr';
import { fold, withoutElision, words } from './text';
import type { Ranked } from './grammar';
import type { Intent, UnderstoodLanguage } from './types';

/**
 * The intent classifier: nlp.js's neural network (one layer of perceptrons, one per intent) over
 * the stemmed words of a message, one network per language, trained once per process when a
 * message first needs it, from the corpus beside it (corpusEn.ts, corpusFr.ts). Synchronous;
 * nothing is cached per message, so memory does not grow with the messages read.
 */

const INTENTS = Object.keys(corpusEn) as Intent[];

/** Below this share of the winning intent, the message is not understood (`none`). */
const MIN_CONFIDENCE = 0.5;

interface Classifier {
  stem: (word: string) => string;
  network: NeuralNetwork;
  vocabulary: ReadonlySet<string>;
}

/** A letter repeated three times or more (a backreference on one letter: linear). */
const ELONGATED = /(\p{L})\1{2,}/gu;

/** The features of a message: its stemmed, folded words (elided articles removed), each once. */
export function features(folded: readonly string[], stem: (word: string) => string): Record<string, number> {
  const result: Record<string, number> = {};
  for (const word of folded) {
    for (const part of withoutElision(word).split('-')) {
      if (!part || /^\d+$/.test(part)) continue;
      // A letter typed three times or more is one letter: "hellooo" is "hello", "merciii" is "merci".
      result[stem(part.replace(ELONGATED, '$1'))] = 1;
    }
  }
  return result;
}

function train(
  corpus: Readonly<Record<Intent, readonly string[]>>,
  stem: (word: string) => string,
): Classifier {
  const examples: NeuralExample[] = [];
  const vocabulary = new Set<string>();
  for (const intent of INTENTS) {
    for (const utterance of corpus[intent]) {
      const input = features(
        words(utterance).map((word) => word.folded),
        stem,
      );
      for (const feature of Object.keys(input)) vocabulary.add(feature);
      examples.push({ input, output: { [intent]: 1 } });
    }
  }
  const network = new NeuralNetwork({ log: false });
  network.train(examples);
  return { stem, network, vocabulary };
}

function stemmer(stemmerOf: { stemWord(word: string): string }): (word: string) => string {
  return (word) => stemmerOf.stemWord(fold(word));
}

/** How each language's classifier is made: trained on its corpus, when a message first needs it. */
const TRAINING: Record<UnderstoodLanguage, () => Classifier> = {
  en: () => train(corpusEn, stemmer(new StemmerEn())),
  fr: () => train(corpusFr, stemmer(new StemmerFr())),
};

const classifiers: Partial<Record<UnderstoodLanguage, Classifier>> = {};

/**
 * The classifier of `language`, trained once per process on first use (about 40 ms of CPU each), so
 * a process that reads no typed message in a language, or none at all, never spends it.
 */
function classifierOf(language: UnderstoodLanguage): Classifier {
  return (classifiers[language] ??= TRAINING[language]());
}

/** Whether either language's classifier knows a folded word (a word of its corpus, by its stem). */
export function isKnownWord(folded: string): boolean {
  return (['en', 'fr'] as const).some((language) => {
    const classifier = classifierOf(language);
    return classifier.vocabulary.has(classifier.stem(folded));
  });
}

/** Greetings and names of the bot a message may open with. */
const OPENERS = new Set(
  'hi hello hey hiya yo good morning afternoon evening steward bonjour salut coucou bonsoir hello re bjr slt'.split(
    ' ',
  ),
);

/** Words a greeting may end with: whom it greets ("bonjour à toi", "hi all"). */
const GREETED = new Set(
  'a toi vous tous tout le monde there all everyone everybody you folks team'.split(' '),
);

export interface Classification {
  intent: Intent;
  confidence: number;
  /** How many of the message's words the classifier knows. */
  known: number;
  /** Every intent with its share of the scores, best first. */
  ranked: Ranked;
}

/** The intent of a message's folded words in a language, and how sure the classifier is. */
export function classify(folded: readonly string[], language: UnderstoodLanguage): Classification {
  const classifier = classifierOf(language);
  // A greeting before a request does not make the request a greeting: "hi, a team for Atlas please".
  let start = 0;
  while (start < folded.length - 2 && OPENERS.has(folded[start]!)) start += 1;
  // Only greeting words ("bonjour à toi", "hello there"): the greeting is the message.
  if (folded.slice(start).every((word) => OPENERS.has(word) || GREETED.has(word))) start = 0;
  const input = features(folded.slice(start), classifier.stem);
  const known = Object.keys(input).filter((feature) => classifier.vocabulary.has(feature)).length;
  if (known === 0) return { intent: 'none', confidence: 1, known, ranked: [] };
  const scores = { ...classifier.network.run(input) };
  let best: Intent = 'none';
  let bestScore = 0;
  let total = 0;
  for (const intent of INTENTS) {
    const score = scores[intent] ?? 0;
    total += score;
    if (score > bestScore) {
      best = intent;
      bestScore = score;
    }
  }
  if (total === 0) return { intent: 'none', confidence: 1, known, ranked: [] };
  const ranked = INTENTS.map((each) => [each, (scores[each] ?? 0) / total] as const).sort(
    (a, b) => b[1] - a[1],
  );
  const confidence = bestScore / total;
  if (confidence < MIN_CONFIDENCE) return { intent: 'none', confidence: 1 - confidence, known, ranked };
  return { intent: best, confidence, known, ranked };
}
