/** Text shaping shared by the card view models: lengths, dates, ids, Markdown. */

/** `text` cut to at most `max` characters (code points, so no emoji is split), with an ellipsis when cut. */
export function clip(text: string, max: number): string {
  const characters = Array.from(text);
  return characters.length <= max ? text : `${characters.slice(0, max - 1).join('')}…`;
}

/**
 * An instant as Teams' card functions `{{DATE(…, SHORT)}}` and `{{TIME(…)}}`, which each client
 * formats in its own locale and time zone: the approval cards are one card shown to several
 * approvers, and refreshed by Teams, so the client, not the bot, knows whose clock it is.
 */
export function teamsDateTime(iso: string): { date: string; time: string } {
  const time = Date.parse(iso);
  const rfc3339 = Number.isNaN(time)
    ? '1970-01-01T00:00:00Z'
    : new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return { date: `{{DATE(${rfc3339}, SHORT)}}`, time: `{{TIME(${rfc3339})}}` };
}

/**
 * The first line of a message, so a card never shows a stack trace or a multi-line dump, cut to
 * a readable length; an empty message becomes a generic sentence.
 */
export function plainSentence(message: string, max = 300, empty = 'Something went wrong.'): string {
  const firstLine = message.split(/\r?\n/, 1)[0]?.trim() ?? '';
  return firstLine ? clip(firstLine, max) : empty;
}

/** A GUID, with the brackets or parentheses around it, as the API's log lines write ids. */
const GUID = /\s?[([]?\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b[)\]]?/gi;

/**
 * A sensitivity label named by its id in an older log line ("Privacy private, label 901c…"): a
 * person needs its name. (Newer lines say "with its sensitivity label 901c…", whose id goes as any id.)
 */
const LABEL_ID = /,\s*label\s+[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;

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
  return status === 'completed' ? webAddress(webUrl) : '';
}

/** `url` when it is a web address (an "Open team" button opens nothing else), else ''. */
export function webAddress(url: string | null): string {
  return url && /^https?:\/\//i.test(url) ? url : '';
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
