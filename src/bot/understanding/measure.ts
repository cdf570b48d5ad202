import { fold } from './text';
import type { Intent, TemplateChoice, Understanding, UnderstoodLanguage } from './types';

/**
 * How well the engine understands a labelled set of messages: intent accuracy and, per kind of
 * entity (template, name, person), precision, recall and F1. The tests and the benchmark measure
 * with this one function.
 */

/** A message as a person wrote it, with what it means, labelled by hand. */
export interface LabelledMessage {
  text: string;
  language: UnderstoodLanguage;
  intent: Intent;
  /** The name of the template meant, or null. */
  template: string | null;
  /** The new team's name, or for a status question the request named; null when none. */
  teamName: string | null;
  people: { text: string; role: 'owner' | 'member' }[];
  split: 'train' | 'test';
}

export interface EntityScore {
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  precision: number;
  recall: number;
  f1: number;
}

export interface Measure {
  messages: number;
  intentAccuracy: number;
  languageAccuracy: number;
  template: EntityScore;
  name: EntityScore;
  person: EntityScore;
  /** Entities of all three kinds together. */
  entities: EntityScore;
  /** The messages misread, for a person to look at. */
  misses: { text: string; what: string; expected: unknown; got: unknown }[];
}

interface Counts {
  tp: number;
  fp: number;
  fn: number;
}

function score({ tp, fp, fn }: Counts): EntityScore {
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { truePositives: tp, falsePositives: fp, falseNegatives: fn, precision, recall, f1 };
}

const same = (a: string, b: string) =>
  fold(a).replace(/\s+/g, ' ').trim() === fold(b).replace(/\s+/g, ' ').trim();

/** Compares one expected value with one found: both null is nothing, equal is a hit. */
function compare(counts: Counts, expected: string | null, got: string | null): boolean {
  if (expected === null && got === null) return true;
  if (expected !== null && got !== null && same(expected, got)) {
    counts.tp += 1;
    return true;
  }
  if (got !== null) counts.fp += 1;
  if (expected !== null) counts.fn += 1;
  return false;
}

export function measure(
  messages: readonly LabelledMessage[],
  templates: readonly TemplateChoice[],
  understand: (text: string, templates: readonly TemplateChoice[]) => Understanding,
): Measure {
  const counts = {
    template: { tp: 0, fp: 0, fn: 0 },
    name: { tp: 0, fp: 0, fn: 0 },
    person: { tp: 0, fp: 0, fn: 0 },
  };
  let intents = 0;
  let languages = 0;
  const misses: Measure['misses'] = [];
  const idOf = new Map(templates.map((template) => [template.name, template.id]));
  for (const message of messages) {
    const got = understand(message.text, templates);
    if (got.intent === message.intent) intents += 1;
    else misses.push({ text: message.text, what: 'intent', expected: message.intent, got: got.intent });
    if (got.language === message.language || message.intent === 'none') languages += 1;
    const expectedTemplate =
      message.template === null ? null : (idOf.get(message.template) ?? message.template);
    const gotTemplate = got.templates[0]?.id ?? null;
    if (!compare(counts.template, expectedTemplate, gotTemplate))
      misses.push({ text: message.text, what: 'template', expected: expectedTemplate, got: gotTemplate });
    const gotName = got.teamName ?? got.requestName;
    if (!compare(counts.name, message.teamName, gotName))
      misses.push({ text: message.text, what: 'name', expected: message.teamName, got: gotName });
    const left = got.people.map((person) => `${fold(person.text)}|${person.role}`);
    let personMiss = false;
    for (const person of message.people) {
      const at = left.indexOf(`${fold(person.text)}|${person.role}`);
      if (at >= 0) {
        counts.person.tp += 1;
        left.splice(at, 1);
      } else {
        counts.person.fn += 1;
        personMiss = true;
      }
    }
    counts.person.fp += left.length;
    if (personMiss || left.length > 0)
      misses.push({ text: message.text, what: 'people', expected: message.people, got: got.people });
  }
  const all = {
    tp: counts.template.tp + counts.name.tp + counts.person.tp,
    fp: counts.template.fp + counts.name.fp + counts.person.fp,
    fn: counts.template.fn + counts.name.fn + counts.person.fn,
  };
  const n = Math.max(1, messages.length);
  return {
    messages: messages.length,
    intentAccuracy: intents / n,
    languageAccuracy: languages / n,
    template: score(counts.template),
    name: score(counts.name),
    person: score(counts.person),
    entities: score(all),
    misses,
  };
}
