import { NotFound, ValidationFailed } from '../domain/errors';
import { deepMerge, documentProblems, type JsonObject } from '../domain/metadata';
import type { MetadataQueryResult } from '../domain/wire';
import type { TeamsPlatform } from '../platform/port';
import type { MetadataRepository } from '../store/metadata';

/** Per-team metadata by namespace: reading, replacing, merging and containment queries (admins). */
export class MetadataService {
  private readonly now: () => Date;

  constructor(private readonly deps: { store: MetadataRepository; teams: TeamsPlatform; now?: () => Date }) {
    this.now = deps.now ?? (() => new Date());
  }

  /** The team's document in `namespace`; `{}` when the team has none there. */
  async get(teamId: string, namespace: string): Promise<JsonObject> {
    await this.requireTeam(teamId);
    return ((await this.deps.store.get(teamId, namespace)) ?? {}) as JsonObject;
  }

  /** Replaces the team's document in `namespace` and returns it. */
  async put(teamId: string, namespace: string, document: JsonObject): Promise<JsonObject> {
    requireStorable(document, 'body');
    await this.requireTeam(teamId);
    await this.deps.store.put(teamId, namespace, document, this.now());
    return document;
  }

  /** Deep-merges `patch` into the team's document in `namespace` and returns the result. */
  async patch(teamId: string, namespace: string, patch: JsonObject): Promise<JsonObject> {
    requireStorable(patch, 'body');
    await this.requireTeam(teamId);
    return this.deps.store.update(
      teamId,
      namespace,
      (current) => {
        const merged = deepMerge(current, patch);
        requireStorable(merged, 'body');
        return merged;
      },
      this.now(),
    );
  }

  /** The teams whose document in `namespace` contains `query`, by team id (at most 10 000). */
  async query(namespace: string, query: JsonObject): Promise<MetadataQueryResult[]> {
    requireStorable(query, 'body');
    const ids = await this.deps.store.query(namespace, query);
    return ids.map((id) => ({ artefact_type: 'MicrosoftTeamsTeam', artefact_id: id }));
  }

  private async requireTeam(teamId: string): Promise<void> {
    const team = await this.deps.teams.getTeam(teamId);
    if (!team) throw new NotFound(`There is no team ${teamId}.`);
  }
}

/** Refuses a document or query that is too large, too deep, or holds U+0000. */
function requireStorable(document: JsonObject, target: string): void {
  const problems = documentProblems(document, target);
  if (problems.length > 0) {
    throw new ValidationFailed(problems[0]!.message, problems);
  }
}
