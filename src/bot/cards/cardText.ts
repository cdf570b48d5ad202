/** Text shaping shared by the card view models: lengths, dates, names. */

/** `text` cut to at most `max` characters (code points, so no emoji is split), with an ellipsis when cut. */
export function clip(text: string, max: number): string {
  const characters = Array.from(text);
  return characters.length <= max ? text : `${characters.slice(0, max - 1).join('')}…`;
}

/**
 * An ISO 8601 instant as the RFC 3339 form (`2026-05-04T09:30:00Z`) that the card functions
 * `{{DATE(…)}}` and `{{TIME(…)}}` accept, so each reader sees it in their own locale and time zone.
 */
export function cardDateTime(iso: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return '1970-01-01T00:00:00Z';
  return new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Names as one line: "Adele Vance, Siobhán Ní Bhriain and Megan Bowen". */
export function listOfNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/**
 * The first line of a message, so a card never shows a stack trace or a multi-line dump, cut to
 * a readable length; an empty message becomes a generic sentence.
 */
export function plainSentence(message: string, max = 300): string {
  const firstLine = message.split(/\r?\n/, 1)[0]?.trim() ?? '';
  return firstLine ? clip(firstLine, max) : 'Something went wrong.';
}
