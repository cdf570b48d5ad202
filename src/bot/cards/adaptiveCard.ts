import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Template } from 'adaptivecards-templating';

/** The attachment content type Teams and the Bot Framework use for Adaptive Cards. */
export const ADAPTIVE_CARD_CONTENT_TYPE = 'application/vnd.microsoft.card.adaptive';

/** Teams refuses a message whose card JSON is larger than this (28 KB). */
export const TEAMS_CARD_BYTE_LIMIT = 28 * 1024;

/** A rendered Adaptive Card: plain JSON, ready to be sent. */
export interface AdaptiveCard {
  type: 'AdaptiveCard';
  version: string;
  body?: unknown[];
  actions?: unknown[];
  refresh?: { action: Record<string, unknown>; userIds?: string[] };
  [property: string]: unknown;
}

/** A card as a message attachment; the bot wraps it into its SDK's attachment type. */
export interface AdaptiveCardAttachment {
  contentType: typeof ADAPTIVE_CARD_CONTENT_TYPE;
  content: AdaptiveCard;
}

/** Raised when a rendered card would be refused by Teams for its size. */
export class CardTooLargeError extends Error {
  constructor(
    readonly card: string,
    readonly bytes: number,
  ) {
    super(`The ${card} is ${bytes} bytes; Teams accepts at most ${TEAMS_CARD_BYTE_LIMIT}.`);
    this.name = 'CardTooLargeError';
  }
}

/** Where the card templates live: `cards/` at the package root, from `src/bot/cards` and `dist/bot/cards` alike. */
const CARDS_DIRECTORY = path.resolve(__dirname, '..', '..', '..', 'cards');

const templates = new Map<string, Template>();

/** The parsed template of `cards/<fileName>`, read from disk once per process. */
function cardTemplate(fileName: string): Template {
  let template = templates.get(fileName);
  if (!template) {
    template = new Template(JSON.parse(readFileSync(path.join(CARDS_DIRECTORY, fileName), 'utf8')));
    templates.set(fileName, template);
  }
  return template;
}

/**
 * Binds `data` to the template `cards/<fileName>`. Expressions are evaluated in the template only:
 * a `${…}` inside a data value is copied as text, so user input cannot reach the expression engine.
 */
export function renderCard(fileName: string, data: object): AdaptiveCardAttachment {
  const content = cardTemplate(fileName).expand({ $root: data }) as AdaptiveCard;
  const bytes = Buffer.byteLength(JSON.stringify(content));
  if (bytes >= TEAMS_CARD_BYTE_LIMIT) throw new CardTooLargeError(fileName, bytes);
  return { contentType: ADAPTIVE_CARD_CONTENT_TYPE, content };
}
