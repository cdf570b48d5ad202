import type { Caller } from '../../domain/caller';
import {
  type DelegatedGrant,
  GrantSeal,
  type KeptGrant,
  type LabelOutcome,
  type SignedInPerson,
} from '../../domain/delegation';
import { Conflict, DelegationUnavailable, NotFound, PlatformBusy, PlatformError } from '../../domain/errors';
import type { TeamLabelStatus } from '../../contract';
import type { Platform } from '../../platform/port';
import type { Db } from '../../store/schema';
import type { SensitivityLabelRepository } from '../../store/labels/sensitivityLabels';
import type { TeamAccess } from '../access/teamAccess';
import { ownersFirst, tryGrant, whose } from './grantAttempts';

/** What the label service is built from. */
export interface SensitivityLabelDeps {
  store: SensitivityLabelRepository;
  platform: Pick<Platform, 'delegation' | 'teams'>;
  access: TeamAccess;
  /** `config.delegatedGrants`: what the sealing key is derived from, and the longest a grant is kept. */
  grants: { sealSecret: string; maxSeconds: number };
  now?: () => Date;
}

/** A grant ready to be kept with its job (sealed), or why there is none. */
export type PreparedGrant =
  | { keep: (trx: Db, jobId: string) => Promise<void>; line: string }
  | { keep?: undefined; line: string };

/** How long Entra ID keeps a refresh token usable: "90 days for all other scenarios" ("Refresh tokens"). */
const REFRESH_TOKEN_MS = 90 * 24 * 3600 * 1000;

/**
 * Sensitivity labels, which Microsoft Graph applies only with the delegated token of a person who
 * may change the group: one of its owners, or an administrator whose role covers groups
 * (`api/group-update.md`, `api/group-post-owners.md`). Whose authority:
 *
 * - the requester's, exchanged when they ask, whether or not the request needs approval: the
 *   plan makes them an owner of the team (`addRequesterAsTeamOwner`), so Graph takes it;
 * - when the job holds no grant of a planned owner, the last approver's too, exchanged when they
 *   approve: Graph takes it from an approver who is a groups administrator, and refuses it (403)
 *   otherwise, when the next grant is tried;
 * - afterwards: an owner's, exchanged when they press "Apply the label" (used at once, never kept).
 *
 * The grants wait for their job sealed in `delegated_grants` (AES-256-GCM, bound to the job id).
 * A grant with a refresh token is kept for up to 90 days (the refresh token's life) and never
 * longer than `maxSeconds`; one without, as long as its token lives. The job takes them out
 * (deleted as they are read) when it reaches the label, renews an access token that has lapsed
 * (or that Graph answers 401 to) with its refresh token, and tries the planned owners' grants
 * first. No token is ever logged or returned. When no grant can be had, or Graph refuses every
 * one, the team is made without its label: the job says why, and the team is listed as missing it.
 */
export class SensitivityLabels {
  private readonly seal: GrantSeal;
  private readonly now: () => Date;

  constructor(private readonly deps: SensitivityLabelDeps) {
    this.seal = new GrantSeal(deps.grants.sealSecret);
    this.now = deps.now ?? (() => new Date());
  }

  /**
   * Exchanges `person`'s sign-in for a grant the job will use for its label; never throws. The
   * returned `keep` stores it sealed with the job's other grants (in the transaction that queues
   * or approves the job); `line` is for the job's log.
   */
  async prepare(
    person: SignedInPerson | undefined,
    who: string,
    as: KeptGrant['as'] = 'requester',
  ): Promise<PreparedGrant> {
    if (!person) return { line: missingLine(`${who} did not sign in with a token Steward can act with`) };
    let grant: DelegatedGrant;
    try {
      grant = await this.deps.platform.delegation.exchange(person);
    } catch (error) {
      if (error instanceof DelegationUnavailable) return { line: missingLine(error.message) };
      throw error;
    }
    const now = this.now().getTime();
    const lasts = grant.refreshToken ? now + REFRESH_TOKEN_MS : grant.expiresAt.getTime();
    const keptUntil = new Date(Math.min(lasts, now + this.deps.grants.maxSeconds * 1000));
    return {
      line: `The sensitivity label will be applied with ${who}'s authority.`,
      keep: (trx, jobId) => this.keep(trx, jobId, { ...grant, as, keptUntil }),
    };
  }

  /** Whether the job holds a usable grant of one of `owners` (an approver's is then not needed). */
  async holdsOwnerGrant(jobId: string, owners: readonly string[]): Promise<boolean> {
    const row = await this.deps.store.findGrant(jobId);
    const now = this.now().getTime();
    const kept = row ? (this.seal.open(row.sealed, jobId) ?? []) : [];
    return kept.some((g) => owners.includes(g.userId) && g.keptUntil.getTime() > now);
  }

  /**
   * The job's label: put on with the grants the job carries (planned owners' first), which are
   * used once and deleted. Never throws over the label (the team exists and is usable without
   * it); only the platform's budget (`PlatformBusy`, which parks the job) passes through, and the
   * grants not yet tried are kept again for the job's next turn.
   */
  async applyForJob(job: {
    id: string;
    team: { id: string; displayName: string };
    templateId: string;
    labelId: string;
    /** The team's owners in the plan, whose grants Graph takes. */
    owners?: readonly string[];
  }): Promise<LabelOutcome> {
    const now = this.now();
    const earlier = await this.deps.store.find(job.team.id);
    // This job's step ran before (a crash after the label, before the checkpoint): done already.
    if (earlier?.job_id === job.id && earlier.status === 'applied') {
      return {
        id: job.labelId,
        status: 'applied',
        ...(earlier.applied_by ? { appliedBy: earlier.applied_by } : {}),
      };
    }
    const taken = await this.deps.store.takeGrant(job.id, now);
    const grants = taken && this.seal.open(taken.sealed, job.id);
    const outcome: LabelOutcome = !taken
      ? {
          id: job.labelId,
          status: 'missing',
          reason: 'No delegated grant was kept for it: nobody whose authority Steward may use was signed in.',
        }
      : !grants
        ? {
            id: job.labelId,
            status: 'missing',
            reason: 'The delegated grant for it could not be used (it was sealed with another key).',
          }
        : await this.applyWithAny(job.id, job.team.id, job.labelId, ownersFirst(grants, job.owners));
    await this.deps.store.record({
      team_id: job.team.id,
      display_name: job.team.displayName,
      template_id: job.templateId,
      label_id: job.labelId,
      status: outcome.status,
      reason: outcome.reason ?? null,
      applied_by: outcome.appliedBy ?? null,
      job_id: job.id,
      updated_at: now.toISOString(),
    });
    return outcome;
  }

  /**
   * "Apply the label", by an owner of the team (or an admin, whom Graph then checks itself), with
   * their own sign-in, used at once and not kept. 404 for a team Steward did not make from a
   * template with a label; 409 when their sign-in cannot be exchanged or the platform refuses it.
   */
  async applyByOwner(
    caller: Caller,
    teamId: string,
    person: SignedInPerson | undefined,
  ): Promise<TeamLabelStatus> {
    await this.deps.access.requireRelation(caller, teamId, 'owner');
    const record = await this.deps.store.find(teamId);
    if (!record)
      throw new NotFound(`Team "${teamId}" was not made from a template with a sensitivity label.`);
    if (record.status === 'applied') return statusOf(record.label_id, 'applied', record.applied_by);
    if (!person)
      throw new DelegationUnavailable('Applications cannot apply a sensitivity label: a person must.');
    const grant = await this.deps.platform.delegation.exchange(person);
    const outcome = await this.applyWith(teamId, record.label_id, grant);
    if (outcome.status !== 'applied') throw new Conflict(outcome.reason ?? 'The label could not be applied.');
    await this.deps.store.record({
      ...record,
      status: 'applied',
      reason: null,
      applied_by: caller.id,
      updated_at: this.now().toISOString(),
    });
    return statusOf(record.label_id, 'applied', caller.id);
  }

  /** Deletes the job's grant if it is still kept (the job ended without using it). */
  forget(jobId: string, trx: Db): Promise<void> {
    return this.deps.store.dropGrant(jobId, trx);
  }

  /** Teams made without their template's label (the governance report). */
  missing(limit: number) {
    return this.deps.store.missing(limit);
  }

  /** Keeps `grant` with the job's others: one a person, and one approver's (the last to approve). */
  private async keep(trx: Db, jobId: string, grant: KeptGrant): Promise<void> {
    const now = this.now();
    await this.deps.store.dropExpired(now, trx);
    const row = await this.deps.store.findGrant(jobId, trx);
    const kept = row ? (this.seal.open(row.sealed, jobId) ?? []) : [];
    const others = kept.filter(
      (g) =>
        g.userId !== grant.userId &&
        !(grant.as === 'approver' && g.as === 'approver') &&
        g.keptUntil.getTime() > now.getTime(),
    );
    await this.put(trx, jobId, [...others, grant]);
  }

  private async put(db: Db | undefined, jobId: string, grants: readonly KeptGrant[]): Promise<void> {
    if (grants.length === 0) return;
    const expiresAt = new Date(Math.max(...grants.map((g) => g.keptUntil.getTime())));
    await this.deps.store.putGrant(
      { jobId, userId: grants[0]!.userId, sealed: this.seal.seal(grants, jobId), expiresAt },
      db,
    );
  }

  /** Each grant in turn until Graph takes one; why each was not used, when none is. */
  private async applyWithAny(
    jobId: string,
    teamId: string,
    labelId: string,
    grants: readonly KeptGrant[],
  ): Promise<LabelOutcome> {
    const reasons: string[] = [];
    for (let i = 0; i < grants.length; i++) {
      const attempt = { grant: grants[i]! };
      try {
        const refused = await tryGrant(this.deps.platform, teamId, labelId, attempt, this.now());
        if (!refused) return { id: labelId, status: 'applied', appliedBy: attempt.grant.userId };
        reasons.push(`${whose(attempt.grant)}: ${refused.reason.replace(/\.$/, '')}.`);
        if (refused.final) break;
      } catch (error) {
        // The budget parks the job: this grant (renewed, maybe) and the untried ones wait for it.
        if (error instanceof PlatformBusy)
          await this.put(undefined, jobId, [attempt.grant, ...grants.slice(i + 1)]);
        throw error;
      }
    }
    return { id: labelId, status: 'missing', reason: reasons.join(' ') };
  }

  private async applyWith(teamId: string, labelId: string, grant: DelegatedGrant): Promise<LabelOutcome> {
    try {
      await this.deps.platform.teams.applyLabel(teamId, labelId, grant);
      return { id: labelId, status: 'applied', appliedBy: grant.userId };
    } catch (error) {
      if (error instanceof PlatformBusy) throw error;
      if (error instanceof PlatformError)
        return { id: labelId, status: 'missing', reason: `The platform refused it: ${error.message}` };
      throw error;
    }
  }
}

function missingLine(reason: string): string {
  return `The team will be made without its sensitivity label unless an owner applies it later: ${reason.replace(/\.$/, '')}.`;
}

function statusOf(labelId: string, status: 'applied' | 'missing', appliedBy: string | null): TeamLabelStatus {
  return { labelId, status, ...(appliedBy ? { appliedBy } : {}) };
}
