import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const SEAL_VERSION = 'v1';

/**
 * Seals a secret Steward must keep and use again (a delegated grant, a webhook's signing secret)
 * for storage: AES-256-GCM under a key derived (HKDF-SHA256) from the deployment's configured
 * secret and the sealed thing's `purpose`, so the keys of two purposes differ, with the row the
 * text belongs to (`boundTo`) as additional data, so a sealed text moved to another row does not
 * open. A random 96-bit nonce per seal. The text is `v1.<nonce>.<tag>.<ciphertext>`, base64url.
 */
export class Seal {
  private readonly key: Buffer;

  constructor(secret: string, purpose: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'steward', purpose, 32));
  }

  seal(plain: string, boundTo: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(boundTo));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [SEAL_VERSION, iv, cipher.getAuthTag(), body]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /** The text, or undefined when it was sealed with another key, for another row, or altered. */
  open(sealed: string, boundTo: string): string | undefined {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== SEAL_VERSION || !iv || !tag || body === undefined) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(boundTo));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      return undefined;
    }
  }
}
