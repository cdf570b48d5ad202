import { z } from 'zod';

/**
 * The fields of a card's `data` as verbs read them. A card's data is whatever its sender wrote, so
 * each field is read leniently, as the verbs always did: a field of another type counts as absent
 * (the verb then says what it says of a missing one), and fields no schema names are kept (a card
 * may carry them back, as the similar teams card does the form's answers). A schema of these fields
 * reads any object; only data that is not one is refused.
 */

/** A text field: a string, else absent. */
export const text = z.string().optional().catch(undefined);

/** An id cards send as text or as a number: as text, else absent. */
export const textOrNumber = z
  .union([z.string(), z.number().transform(String)])
  .optional()
  .catch(undefined);

/** A confirmation or filter that counts only when it is `true` itself. */
export const onlyTrue = z.literal(true).optional().catch(undefined);

/** Data a verb reads field by field itself (its inputs are named by the card, such as `guest0`). */
export const anyData = z.record(z.string(), z.unknown());

/** Data with the fields `shape` names read as above, and any other field kept as it came. */
export const cardData = <Shape extends z.ZodRawShape>(shape: Shape) => z.looseObject(shape);

/** A text field as the verbs' `field` read it: a string, or a number as text; else ''. */
export const textOrEmpty = z.union([z.string(), z.number().transform(String)]).catch('');
