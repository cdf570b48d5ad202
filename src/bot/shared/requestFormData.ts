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
  /** The searches for others, below the people already chosen (ticked boxes under `owners` / `members`). */
  moreOwners: text,
  moreMembers: text,
  /**
   * The names of the people the form had chosen, as JSON `[{ title, value }]` (text: no host shows
   * it, and nothing reads it as the card's words), so the form shown again names them (the directory is searched by name, not by id). Only ever shown to the person who sent them.
   */
  named: z
    .string()
    .max(64_000)
    .transform((json): unknown => {
      try {
        return JSON.parse(json);
      } catch {
        return undefined;
      }
    })
    .pipe(z.array(z.object({ title: z.string().max(256), value: z.string().max(256) })).max(200))
    .optional()
    .catch(undefined),
  /** "Create anyway" on the similar teams card: `true` (or "true") sends without looking for similar teams again. */
  skipSimilar: z.unknown().optional(),
});

/** What {@link submitRequestData} reads of a card's data. */
export type SubmitRequestData = z.output<typeof submitRequestData>;
