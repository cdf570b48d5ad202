import type { Kysely, Transaction } from 'kysely';
import { actorOf, type AuditActor, SYSTEM_ACTOR } from '../../domain/audit';
import type { Caller } from '../../domain/caller';
import { NotFound, ValidationFailed } from '../../domain/errors';
import { deepMerge, documentProblems, type JsonObject } from '../../domain/metadata';
import type { MetadataQueryResult } from '../../contract';
import type { TeamsPlatform } from '../../platform/port';
import type { MetadataRepository } from '../../store/teams/metadata';
import type { Database } from '../../store/schema';
import type { AuditLog } from '../audit/audit';

/** Who wrote a document, for its audit record. */
interface Writer {
  actor: AuditActor;
  requestId: string | null;
}

/** Per-team metadata by namespace: reading, replacing, merging and containment queries (admins). */
export class MetadataService {
  private readonly now: () => Date;

  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      store: MetadataRepository;
      teams: TeamsPlatform;
      audit: AuditLog;
      now?: () => Date;
    },
  ) {
    this.now = deps.now ?? (() => new Date());
  }

  /** The team's document in `namespace`; `{}` when the team has none there. */
  async get(teamId: string, namespace: string): Promise<JsonObject> {
    await this.requireTeam(teamId);
    return ((await this.deps.store.get(teamId, namespace)) ?? {}) as JsonObject;
  }

  /** Replaces the team's document in `namespace` and returns it. */
  async put(caller: Caller, teamId: string, namespace: string, document: JsonObject): Promise<JsonObject> {
    requireStorable(document, 'body');
    await this.requireTeam(teamId);
    const now = this.now();
    await this.deps.db.transaction().execute(async (trx) => {
      await this.deps.store.put(teamId, namespace, document, now, trx);
      await this.recordWrite(trx, writerOf(caller), teamId, namespace, 'metadata_replaced', now);
    });
    return document;
  }

  /** Deep-merges `patch` into the team's document in `namespace` and returns the result. */
  async patch(caller: Caller, teamId: string, namespace: string, patch: JsonObject): Promise<JsonObject> {
    requireStorable(patch, 'body');
    await this.requireTeam(teamId);
    const now = this.now();
    return this.deps.db.transaction().execute(async (trx) => {
      const merged = await this.deps.store.update(
        teamId,
        namespace,
        (current) => {
          const next = deepMerge(current, patch);
          requireStorable(next, 'body');
          return next;
        },
        now,
        trx,
      );
      await this.recordWrite(trx, writerOf(caller), teamId, namespace, 'metadata_merged', now);
      return merged;
    });
  }

  /**
   * Writes a document on behalf of a provisioning job (its request's metadata), with its audit
   * record, inside the caller's transaction.
   */
  async putForJob(
    trx: Transaction<Database>,
    job: { id: string },
    teamId: string,
    namespace: string,
    document: JsonObject,
    now: Date,
  ): Promise<void> {
    requireStorable(document, 'metadata');
    await this.deps.store.put(teamId, namespace, document, now, trx);
    const writer: Writer = { actor: SYSTEM_ACTOR, requestId: null };
    await this.recordWrite(trx, writer, teamId, namespace, 'metadata_replaced', now, { jobId: job.id });
  }

  /** The teams whose document in `namespace` contains `query`, by team id (at most 10 000). */
  async query(namespace: string, query: JsonObject): Promise<MetadataQueryResult[]> {
    requireStorable(query, 'body');
    const ids = await this.deps.store.query(namespace, query);
    return ids.map((id) => ({ artefact_type: 'MicrosoftTeamsTeam', artefact_id: id }));
  }

  private recordWrite(
    trx: Transaction<Database>,
    writer: Writer,
    teamId: string,
    namespace: string,
    action: string,
    now: Date,
    details: Record<string, unknown> = {},
  ): Promise<void> {
    return this.deps.audit.record(
      trx,
      {
        trail: 'metadata',
        action,
        actor: writer.actor,
        target: { type: 'team', id: teamId },
        outcome: 'success',
        requestId: writer.requestId,
        details: { namespace, ...details },
      },
      now,
    );
  }

  private async requireTeam(teamId: string): Promise<void> {
    const team = await this.deps.teams.getTeam(teamId);
    if (!team) throw new NotFound(`There is no team ${teamId}.`);
  }
}

function writerOf(caller: Caller): Writer {
  return { actor: actorOf(caller), requestId: caller.requestId ?? null };
}

/** Refuses a document or query that is too large, too deep, or holds U+0000. */
function requireStorable(document: JsonObject, target: string): void {
  const problems = documentProblems(document, target);
  if (problems.length > 0) {
    throw new ValidationFailed(problems[0]!.message, problems);
  }
}
