import type { StewardClient } from '../../client';
import type { UnavailableChoice, Understanding } from './types';

/** Templates not offered to the person read at most. */
const MAX_UNAVAILABLE = 200;

/**
 * The enabled templates whose audience leaves the person out (`GET /me/catalog/unavailableTemplates`),
 * read so that a message asking for one is told so rather than shown another. Nothing when the
 * list cannot be read: the person is then answered from their own templates only.
 */
export async function unavailableTemplates(api: StewardClient): Promise<UnavailableChoice[]> {
  try {
    const result: UnavailableChoice[] = [];
    for await (const template of api.followNextLinks(await api.getMyUnavailableTemplates())) {
      if (template.id)
        result.push({
          id: template.id,
          name: template.name,
          description: template.description,
          audience: template.audience,
        });
      if (result.length >= MAX_UNAVAILABLE) break;
    }
    return result;
  } catch {
    return [];
  }
}

/**
 * An understanding read against the person's templates and those not offered to them, made one of
 * theirs: when a template not offered fits the message better than any of theirs, it is kept
 * aside as `notOffered`; the templates it points at are then only theirs.
 */
export function withNotOffered(
  understood: Understanding,
  unavailable: readonly UnavailableChoice[],
): Understanding {
  if (unavailable.length === 0) return understood;
  const away = new Map(unavailable.map((template) => [template.id, template]));
  const theirs = understood.templates.filter((match) => !away.has(match.id));
  const best = understood.templates[0];
  const template = best ? away.get(best.id) : undefined;
  // A tie with one of theirs is theirs, and so is one of theirs named by the same words ("community"
  // in two templates' names): what the person may use is the likelier reading.
  const rival = theirs[0];
  const beaten =
    template && best && !(rival && (rival.score >= best.score || sameWords(best.because, rival.because)));
  return {
    ...understood,
    templates: theirs,
    ...(beaten ? { notOffered: { ...template, because: best.because } } : {}),
  };
}

/** Whether every word a match was named by also named the other one. */
function sameWords(words: string, other: string): boolean {
  const others = new Set(other.toLowerCase().split(/\s+/));
  return words
    .toLowerCase()
    .split(/\s+/)
    .every((word) => others.has(word));
}
