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

/** A GUID, with the brackets or parentheses around it, as the API's log lines write ids. */
const GUID = /\s?[([]?\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b[)\]]?/gi;

/** A sensitivity label named by its id ("Privacy private, label 901c…"): a person needs its name. */
const LABEL_ID = /,?\s*label\s+[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;

/**
 * A log line as a person reads it: ids (approval, team and job GUIDs) taken out, since the names
 * around them say the same; support finds the ids in the request's log and on the card's footer.
 */
export function withoutIds(line: string): string {
  return line
    .replace(LABEL_ID, '')
    .replace(GUID, '')
    .replace(/\s+([.,:;])/g, '$1')
    .trim();
}

/** The team's link for an "Open team" button: only once the team is ready, and only a web address. */
export function teamLink(status: string, webUrl: string | null): string {
  return status === 'completed' && webUrl && /^https?:\/\//i.test(webUrl) ? webUrl : '';
}

/**
 * Text shown in a TextBlock as the characters it holds: Teams reads TextBlocks as Markdown, where
 * `\.` is a full stop and `*x*` is emphasis, so a message listing forbidden characters would lose them.
 */
export function markdownText(text: string): string {
  return text.replace(/[\\*_`[\]]/g, (character) => `\\${character}`);
}

/**
 * A message with each long quoted value shortened, so what it says after the value (such as a
 * length limit after an over-long name) is not cut off.
 */
export function shortQuotes(message: string, max = 40): string {
  return message.replace(/"([^"]{2,})"/g, (quoted, inner: string) =>
    Array.from(inner).length > max ? `"${clip(inner, max)}"` : quoted,
  );
}
