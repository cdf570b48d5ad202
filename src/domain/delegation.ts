import { Seal } from './seal';

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

/**
 * Seals delegated grants for storage (`Seal`), bound to their job's id, so a sealed grant moved to
 * another job's row does not open.
 */
export class GrantSeal {
  private readonly seal_: Seal;

  constructor(secret: string) {
    this.seal_ = new Seal(secret, 'steward delegated grants v1');
  }

  seal(grant: DelegatedGrant, boundTo: string): string {
    const plain = JSON.stringify({ u: grant.userId, t: grant.token, e: grant.expiresAt.getTime() });
    return this.seal_.seal(plain, boundTo);
  }

  /** The grant, or undefined when the text was sealed with another key, for another row, or altered. */
  open(sealed: string, boundTo: string): DelegatedGrant | undefined {
    const plain = this.seal_.open(sealed, boundTo);
    if (plain === undefined) return undefined;
    const { u, t, e } = JSON.parse(plain) as { u: string; t: string; e: number };
    return { userId: u, token: t, expiresAt: new Date(e) };
  }
}
