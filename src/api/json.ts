/** A response body that is already JSON, as UTF-8 bytes; `sendJson` writes them as they are. */
export class JsonText {
  constructor(readonly bytes: Buffer) {}
}

const encoded = new WeakMap<object, Buffer>();

/**
 * The JSON of `value` as UTF-8 bytes, remembered for each object it was given. Only for objects that
 * are never changed after they are first serialised (the catalog's shared, frozen templates): a new
 * object gets new bytes, and they go away with their objects.
 *
 * Bytes rather than text: one accented name makes a whole JSON text a two-byte string, which Node
 * then encodes to UTF-8 on every write, a cost that grows with the body (most of a catalog read's
 * own work besides the socket). Encoded once, a response is a copy of bytes.
 */
export function sharedJson(value: object): Buffer {
  let bytes = encoded.get(value);
  if (bytes === undefined) {
    bytes = Buffer.from(JSON.stringify(value));
    if (Object.isFrozen(value)) encoded.set(value, bytes);
  }
  return bytes;
}
