/** A response body that is already JSON text; `sendJson` writes it as it is. */
export class JsonText {
  constructor(readonly text: string) {}
}

const texts = new WeakMap<object, string>();

/**
 * `JSON.stringify` that remembers the text of each object it was given. Only for objects that are
 * never changed after they are first serialised (the catalog's shared, frozen templates): a new
 * object gets new text, and texts go away with their objects.
 */
export function stringifyShared(value: object): string {
  let text = texts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    if (Object.isFrozen(value)) texts.set(value, text);
  }
  return text;
}
