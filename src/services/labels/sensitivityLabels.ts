import type { Caller } from '../../domain/caller';
import {
  type DelegatedGrant,
  GrantSeal,
  type LabelOutcome,
  type SignedInPerson,
} from '../../domain/delegation';
import { Conflict, DelegationUnavailable, NotFound, PlatformBusy, PlatformError } from '../../domain/errors';
import type { TeamLabelStatus } from '../../contract';
import type { Platform } from '../../platform/port';
import type { Db } from '../../store/schema';
import type { SensitivityLabelRepository } from '../../store/labels/sensitivityLabels';
import type { TeamAccess } from '../access/teamAccess';

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

/**
 * Sensitivity labels, which Microsoft Graph applies only with a person's delegated token
 * (`api/group-update.md`). Whose authority, least first:
 *
 * - a request that needs no approval: the requester's, exchanged when they ask;
 * - a request that needs approval: the last approver's, exchanged when they approve;
 * - afterwards: an owner's, exchanged when they press "Apply the label" (used at once, never kept).
 *
 * The exchanged grant waits for its job sealed in `delegated_grants` (AES-256-GCM, bound to the job
 * id), for as long as the token lives and never longer than `maxSeconds`; the job takes it out
 * (deleted as it is read) when it reaches the label, and expired ones are deleted. No token is ever
 * logged or returned. When no grant can be had, or the platform refuses it, the team is made
 * without its label: the job says why, and the team is listed as missing its label.
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
   * returned `keep` stores it sealed (in the transaction that queues the job); `line` is for the
   * job's log.
   */
  async prepare(person: SignedInPerson | undefined, who: string): Promise<PreparedGrant> {
    if (!person) return { line: missingLine(`${who} did not sign in with a token Steward can act with`) };
    let grant: DelegatedGrant;
    try {
      grant = await this.deps.platform.delegation.exchange(person);
    } catch (error) {
      if (error instanceof DelegationUnavailable) return { line: missingLine(error.message) };
      throw error;
    }
    const expiresAt = new Date(
      Math.min(grant.expiresAt.getTime(), this.now().getTime() + this.deps.grants.maxSeconds * 1000),
    );
    return {
      line: `The sensitivity label will be applied with ${who}'s authority.`,
      keep: async (trx, jobId) => {
        await this.deps.store.dropExpired(this.now(), trx);
        await this.deps.store.putGrant(
          { jobId, userId: grant.userId, sealed: this.seal.seal({ ...grant, expiresAt }, jobId), expiresAt },
          trx,
        );
      },
    };
  }

  /**
   * The job's label: put on with the grant the job carries, which is used once and deleted. Never
   * throws over the label (the team exists and is usable without it); only the platform's budget
   * (`PlatformBusy`, which parks the job) passes through.
   */
  async applyForJob(job: {
    id: string;
    team: { id: string; displayName: string };
    templateId: string;
    labelId: string;
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
    const grant = taken && this.seal.open(taken.sealed, job.id);
    let outcome: LabelOutcome;
    if (!grant || grant.expiresAt.getTime() <= now.getTime()) {
      outcome = {
        id: job.labelId,
        status: 'missing',
        reason: taken
          ? 'The delegated grant for it could not be used (it has expired, or it was sealed with another key).'
          : 'No delegated grant was kept for it: nobody whose authority Steward may use was signed in.',
      };
    } else {
      outcome = await this.applyWith(job.team.id, job.labelId, grant);
    }
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
