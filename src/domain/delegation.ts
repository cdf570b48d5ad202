import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Delegated authority: what Steward does on a person's behalf rather than as itself. Microsoft
 * Graph applies a sensitivity label to a group only with a delegated token (`api/group-update.md`:
 * "Application permissions are not supported when updating assignedLabels"), so the label is put
 * on a team by a person who is signed in: the requester, the last approver, or an owner.
 */

/** A person's own sign-in as the API received it (their bearer token): used at once, never kept or logged. */
export interface SignedInPerson {
  readonly userId: string;
  /** The access token the person called Steward's API with (the on-behalf-of flow's `assertion`). */
  readonly assertion: string;
}

/** What the platform gave in exchange for a person's sign-in: a token that acts as them, until `expiresAt`. */
export interface DelegatedGrant {
  readonly userId: string;
  /** Opaque to Steward (on Graph, a delegated access token); stored only sealed, never logged. */
  readonly token: string;
  readonly expiresAt: Date;
}

/** What became of a team's sensitivity label, as a provisioning job's data and the team's record keep it. */
export interface LabelOutcome {
  /** The template's label. */
  id: string;
  status: 'applied' | 'missing';
  /** Who applied it (their object id), when it was applied. */
  appliedBy?: string;
  /** Why it is missing, in a sentence. */
  reason?: string;
}

const SEAL_VERSION = 'v1';

/**
 * Seals delegated grants for storage: AES-256-GCM under a key derived (HKDF-SHA256) from the
 * configured secret, with the job id as additional data, so a sealed grant moved to another job's
 * row does not open. A random 96-bit nonce per seal.
 */
export class GrantSeal {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'steward', 'steward delegated grants v1', 32));
  }

  seal(grant: DelegatedGrant, boundTo: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(boundTo));
    const plain = JSON.stringify({ u: grant.userId, t: grant.token, e: grant.expiresAt.getTime() });
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [SEAL_VERSION, iv, cipher.getAuthTag(), body]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /** The grant, or undefined when the text was sealed with another key, for another row, or altered. */
  open(sealed: string, boundTo: string): DelegatedGrant | undefined {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== SEAL_VERSION || !iv || !tag || body === undefined) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(boundTo));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      const plain = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
      const { u, t, e } = JSON.parse(plain.toString('utf8')) as { u: string; t: string; e: number };
      return { userId: u, token: t, expiresAt: new Date(e) };
    } catch {
      return undefined;
    }
  }
}
