import type { Agent } from 'undici';
import { type GraphLimits, PUBLISHED_GRAPH_LIMITS } from '../../src/domain/graphBudget';
import { createGraphPlatform } from '../../src/platform/graph';
import { migrate, openStore, type Store } from '../../src/store/database';
import { GraphBudgetRepository } from '../../src/store/graphBudget/graphBudget';
import { createTestDatabase, type DatabaseKind, storeOptionsOf, type TestDatabase } from './databases';
import { FakeGraph } from './fakeGraph';
import { BOT, graphSettings, seedTenant } from './graphTenant';
import { startTestSteward, type TestSteward } from './steward';

/** A Steward on the Graph simulator with a Graph budget of its own limits, and how to stop them. */
export interface BudgetedSteward {
  fake: FakeGraph;
  app: TestSteward;
  close(): Promise<void>;
}

/**
 * Starts the Graph simulator (fast operations) and a Steward on `kind` whose Graph budget keeps to
 * `limits` (Microsoft's published ones otherwise) with no headroom, Graph's pace at a hundredth,
 * and `concurrency` slots. The budget's rows are reached through a connection of their own, as
 * another process on the same database would reach them.
 */
export async function startBudgetedSteward(
  kind: DatabaseKind,
  options: { limits: Partial<GraphLimits>; maxWaitMs: number; concurrency: number },
): Promise<BudgetedSteward> {
  const fake = await FakeGraph.start({ bot: BOT, latency: { minMs: 50, maxMs: 100 }, replicationMs: 50 });
  const dispatcher: Agent = fake.dispatcher();
  seedTenant(fake);
  let db: TestDatabase | undefined;
  let budgetStore: Store | undefined;
  let app: TestSteward | undefined;
  const close = async () => {
    await app?.close();
    await budgetStore?.close();
    await dispatcher.close();
    await fake.close();
    await db?.drop();
  };
  try {
    db = await createTestDatabase(kind);
    budgetStore = openStore(storeOptionsOf(db));
    await migrate(budgetStore.db);
    const limits = { ...PUBLISHED_GRAPH_LIMITS, ...options.limits };
    const platform = createGraphPlatform(
      { ...fake.config(), timeScale: 0.01, budget: { limits, headroom: 1, maxWaitMs: options.maxWaitMs } },
      {
        dispatcher,
        bot: { appId: BOT.appId, appPassword: BOT.secret, appTenantId: fake.tenantId },
        budgetStore: new GraphBudgetRepository(budgetStore.db),
      },
    );
    app = await startTestSteward(
      db,
      {
        STEWARD_WORKER_CONCURRENCY: String(options.concurrency),
        STEWARD_JOB_POLL_MS: '50',
        ...graphSettings(fake),
      },
      { platform },
    );
    return { fake, app, close };
  } catch (error) {
    await close();
    throw error;
  }
}
