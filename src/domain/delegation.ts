import { Seal } from './seal';

/**
 * Delegated authority: what Steward does on a person's behalf rather than as itself. Microsoft
 * Graph applies a sensitivity label to a group only with a delegated token (`api/group-update.md`:
 * "Application permissions are not supported when updating assignedLabels"), and only for a person
 * who may change that group: one of its owners (`api/group-post-owners.md`: the owners "are allowed
 * to modify the group object") or a holder of an administrator role over groups. So the label is
 * put on by the requester (an owner of the team the plan makes), an approver who is such an
 * administrator, or, later, an owner.
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
  /**
   * What gets a new `token` once it has lapsed, without the person (on Graph, the refresh token
   * the on-behalf-of answer carries when `offline_access` is asked for); opaque, sealed, never logged.
   */
  readonly refreshToken?: string;
}

/**
 * A grant kept for a job: whose it is in the request (`requester`, or an `approver`), and the
 * last moment it may be used (`keptUntil`), which with a refresh token outlasts its access token.
 */
export interface KeptGrant extends DelegatedGrant {
  readonly as: 'requester' | 'approver' | 'caller';
  readonly keptUntil: Date;
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
 * another job's row does not open. A job keeps a list of grants; a text sealed before the list
 * holds one grant and opens as a list of one.
 */
export class GrantSeal {
  private readonly seal_: Seal;

  constructor(secret: string) {
    this.seal_ = new Seal(secret, 'steward delegated grants v1');
  }

  seal(grants: readonly KeptGrant[], boundTo: string): string {
    const plain = JSON.stringify(
      grants.map((g) => ({
        u: g.userId,
        t: g.token,
        e: g.expiresAt.getTime(),
        ...(g.refreshToken ? { r: g.refreshToken } : {}),
        a: g.as,
        k: g.keptUntil.getTime(),
      })),
    );
    return this.seal_.seal(plain, boundTo);
  }

  /** The grants, or undefined when the text was sealed with another key, for another row, or altered. */
  open(sealed: string, boundTo: string): KeptGrant[] | undefined {
    const plain = this.seal_.open(sealed, boundTo);
    if (plain === undefined) return undefined;
    const parsed = JSON.parse(plain) as SealedGrant | SealedGrant[];
    return (Array.isArray(parsed) ? parsed : [parsed]).map((g) => ({
      userId: g.u,
      token: g.t,
      expiresAt: new Date(g.e),
      ...(g.r ? { refreshToken: g.r } : {}),
      as: g.a ?? 'requester',
      keptUntil: new Date(g.k ?? g.e),
    }));
  }
}

interface SealedGrant {
  u: string;
  t: string;
  e: number;
  r?: string;
  a?: KeptGrant['as'];
  k?: number;
}
