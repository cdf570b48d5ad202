import { z } from 'zod';
import { cardData, text } from '../cards/cardData';

/**
 * Data of `checkName` and `submitRequest`: the template, plus the request form's inputs (people
 * pickers send comma-separated ids). The similar teams card (`joining/`) sends it again with
 * "Create anyway", so it is shared.
 */
export const submitRequestData = cardData({
  templateId: text,
  /** The form's identity (see `RequestFormCardData.formId`); absent on forms rendered without one. */
  formId: text,
  name: text,
  description: text,
  welcomeMessage: text,
  owners: text,
  members: text,
  /** "Create anyway" on the similar teams card: `true` (or "true") sends without looking for similar teams again. */
  skipSimilar: z.unknown().optional(),
});

/** What {@link submitRequestData} reads of a card's data. */
export type SubmitRequestData = z.output<typeof submitRequestData>;
