import {
  decideLifecycle,
  EMPTY_LIFECYCLE_RECORD,
  type LifecycleEvaluation,
} from '../../domain/lifecycle/decide';
import { laterDay } from '../../domain/lifecycle/dates';
import type { LifecycleFacts, LifecycleSource } from '../../platform/port';
import type { LifecycleRepository, StoredLifecycle } from '../../store/lifecycle/lifecycle';
import type { TemplateRepository } from '../../store/catalog/templates';
import { PolicyResolver, type TeamPolicy } from './policies';

/** One team decided: what the platform said, its policy, what was stored, and the evaluation. */
export interface TeamDecision {
  facts: LifecycleFacts;
  teamPolicy: TeamPolicy;
  stored: StoredLifecycle | undefined;
  evaluation: LifecycleEvaluation;
}

/** Activity rows written at once while reading the platform's report. */
const ACTIVITY_BATCH = 1000;

/**
 * Walks the tenant's teams page by page and decides each with `decideLifecycle`: the evaluator
 * (which then acts on each page), its preview (which only collects) and a team's own lifecycle all
 * decide through here, so they agree. Memory holds one page at a time, whatever the tenant's size.
 */
export class LifecycleWalker {
  constructor(
    private readonly deps: {
      source: LifecycleSource;
      store: LifecycleRepository;
      templates: TemplateRepository;
      pageSize: number;
    },
  ) {}

  /** Reads the platform's activity report into the store, in batches; returns the teams it had. */
  async importActivity(now: Date): Promise<number> {
    let batch: Array<{ teamId: string; day: string }> = [];
    let count = 0;
    for await (const row of this.deps.source.activity()) {
      if (row.lastActivityDate === null) continue;
      batch.push({ teamId: row.teamId, day: row.lastActivityDate });
      count++;
      if (batch.length >= ACTIVITY_BATCH) {
        await this.deps.store.saveActivity(batch, now);
        batch = [];
      }
    }
    await this.deps.store.saveActivity(batch, now);
    return count;
  }

  /** Decides every team on `asOf`, handing each page to `visit` before reading the next; returns the teams seen. */
  async walk(asOf: string, visit: (page: TeamDecision[]) => Promise<void>): Promise<number> {
    const policies = await PolicyResolver.create(this.deps);
    let cursor: string | undefined;
    let teams = 0;
    do {
      const page = await this.deps.source.listTeams(cursor, this.deps.pageSize);
      teams += page.teams.length;
      await visit(await this.decide(page.teams, asOf, policies));
      cursor = page.next;
    } while (cursor !== undefined);
    return teams;
  }

  /** One team decided on `asOf`, or undefined when the platform does not know it. */
  async one(teamId: string, asOf: string): Promise<TeamDecision | undefined> {
    const facts = await this.deps.source.getTeam(teamId);
    if (!facts) return undefined;
    const [decision] = await this.decide([facts], asOf, await PolicyResolver.create(this.deps));
    return decision;
  }

  private async decide(
    teams: LifecycleFacts[],
    asOf: string,
    policies: PolicyResolver,
  ): Promise<TeamDecision[]> {
    const ids = teams.map((t) => t.teamId);
    const [stored, resolved] = await Promise.all([this.deps.store.load(ids), policies.forTeams(ids)]);
    return teams.map((platformFacts) => {
      const saved = stored.get(platformFacts.teamId);
      const teamPolicy = resolved.get(platformFacts.teamId)!;
      // eslint-disable-next-line no-restricted-syntax -- replaces a field the facts have, adds none
      const facts = {
        ...platformFacts,
        lastActivityDate: laterDay(platformFacts.lastActivityDate, saved?.lastActivityOn ?? null),
      };
      const evaluation = decideLifecycle(
        teamPolicy.policy,
        facts,
        saved?.record ?? EMPTY_LIFECYCLE_RECORD,
        asOf,
        teamPolicy.permanentOwnerIds,
      );
      return { facts, teamPolicy, stored: saved, evaluation };
    });
  }
}
