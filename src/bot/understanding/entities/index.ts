import { LIST_JOINERS, PEOPLE_CUES, PURPOSE_CUES } from './words';
import { base, pauseBefore, spanText, type Reading } from './reading';

export { reading, spanText, type Reading, type Span } from './reading';
export { teamNameSpan } from './teamName';
export { peopleMentions } from './people';
export { requestFilterOf, requestNameSpan } from './request';

/**
 * The parts of a request read from its words: the team's name, its purpose, the people named and
 * their role, and the request a status question is about. Rules over the words (see
 * docs/guides/bot.md for the conventions), never a pattern written by someone else.
 */

/** The purpose: the words after "for"/"pour" up to the first pause or list of people, as written. */
export function purpose(reading: Reading): string | null {
  const { list } = reading;
  for (let i = 0; i < list.length; i += 1) {
    if (!PURPOSE_CUES.has(base(list[i]))) continue;
    let to = i + 1;
    while (
      to + 1 < list.length &&
      !pauseBefore(reading, to + 1) &&
      !PEOPLE_CUES.has(base(list[to + 1])) &&
      !LIST_JOINERS.has(base(list[to + 1])) &&
      to - i < 10
    )
      to += 1;
    if (to >= list.length) continue;
    const text = spanText(reading, { from: i + 1, to });
    if (text.length >= 3) return text;
  }
  return null;
}
