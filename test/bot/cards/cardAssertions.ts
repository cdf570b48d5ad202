import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import {
  ADAPTIVE_CARD_CONTENT_TYPE,
  TEAMS_CARD_BYTE_LIMIT,
  type AdaptiveCardAttachment,
} from '../../../src/bot/cards/adaptiveCard';
import cardSchema from './adaptiveCard-1.5-subset.schema.json';

const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
addFormats(ajv);
const validateCard = ajv.compile(cardSchema);

/** The card's JSON text, as it goes over the wire. */
export const cardJson = (attachment: AdaptiveCardAttachment): string => JSON.stringify(attachment.content);

/**
 * Checks what every rendered card must satisfy: the attachment type, the Adaptive Card 1.5 schema
 * (the bundled subset), Teams' 28 KB limit, and no template expression left unbound.
 */
export function expectValidCard(
  attachment: AdaptiveCardAttachment,
  options: { allowExpressionText?: boolean } = {},
): void {
  expect(attachment.contentType).toBe(ADAPTIVE_CARD_CONTENT_TYPE);
  expect(attachment.content.type).toBe('AdaptiveCard');
  expect(attachment.content.version).toBe('1.5');
  const valid = validateCard(attachment.content);
  if (!valid) throw new Error(`card does not match the schema: ${ajv.errorsText(validateCard.errors)}`);
  expect(Buffer.byteLength(cardJson(attachment))).toBeLessThan(TEAMS_CARD_BYTE_LIMIT);
  // An unbound `${…}` means the view model lacked a field the template uses.
  if (!options.allowExpressionText) expect(cardJson(attachment)).not.toContain('${');
}

/** Every node of a card whose `type` is `type` (depth first). */
export function findAll(node: unknown, type: string): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') {
      const object = value as Record<string, unknown>;
      if (object.type === type) found.push(object);
      Object.values(object).forEach(visit);
    }
  };
  visit(node);
  return found;
}

/** The `Action.Execute` actions of a card with `verb`. */
export const executeActions = (attachment: AdaptiveCardAttachment, verb: string): Record<string, unknown>[] =>
  findAll(attachment.content, 'Action.Execute').filter((action) => action.verb === verb);
