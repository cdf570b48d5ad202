import { escapeMarkup } from '../../lib/markup';

/** Text in and out of the viewer's HTML: escaped on the way in, plain from a message, links only to the web. */

/** `text` safe to place in HTML content or a quoted attribute. */
export const escapeHtml = escapeMarkup;

/** Plain text of a message's HTML: line breaks kept, tags dropped, common entities decoded (and re-escaped on output). */
export function htmlToText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h[1-6])\s*>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();
}

/** `url` when it is an absolute http(s) URL, so a tab can never link to `javascript:` or `data:`. */
export function httpUrlOrUndefined(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}
