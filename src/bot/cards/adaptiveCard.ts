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

/** A card's template: the JSON of `templates/<name>.json`, imported as a module, so the compiler
 * copies it into `dist/` beside its renderer and no runtime path points outside the program. */
export type CardTemplate = object;

const templates = new WeakMap<CardTemplate, Template>();

/** The parsed template of a card, made once per process. */
function cardTemplate(json: CardTemplate): Template {
  let template = templates.get(json);
  if (!template) {
    template = new Template(json);
    templates.set(json, template);
  }
  return template;
}

/**
 * Binds `data` to the card `name`'s template. Expressions are evaluated in the template only:
 * a `${…}` inside a data value is copied as text, so user input cannot reach the expression engine.
 */
export function renderCard(name: string, json: CardTemplate, data: object): AdaptiveCardAttachment {
  const content = cardTemplate(json).expand({ $root: data }) as AdaptiveCard;
  const bytes = Buffer.byteLength(JSON.stringify(content));
  if (bytes >= TEAMS_CARD_BYTE_LIMIT) throw new CardTooLargeError(name, bytes);
  return { contentType: ADAPTIVE_CARD_CONTENT_TYPE, content };
}
