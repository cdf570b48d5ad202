import { seedGroups, seedLabels, seedUsers } from '../../src/store/seed/directory';
import type { Agent } from 'undici';
import type { StewardOverrides } from '../../src/main';
import {
  createGraphPlatform,
  type GraphPlatform,
  type GraphPlatformConfig,
  type GraphPlatformOptions,
} from '../../src/platform/graph';
import type { DatabaseKind } from './databases';
import { FakeGraph, type FakeGraphOptions } from './fakeGraph';
import { PEOPLE, type SuiteSteward, type SuiteStewardOptions, suiteSteward } from './steward';

/** The demo tenant (Steward's seed directory and the onboarding template team) in the Graph simulator. */

export const WEB_APP = 'com.microsoft.teamspace.tab.web';
export const TEMPLATE_TEAM = 'seed-team-onboarding-template';
export const BOT = {
  appId: 'b0b0b0b0-0000-0000-0000-00000000b0b0',
  secret: 'bot-secret',
  /** The id of Steward's Teams app manifest (the fake's catalog gives the app another id). */
  teamsAppId: '5e7a1c2d-3b4f-4a6e-9c8d-7f6e5d4c3b2a',
};

/** The settings that point a Steward at the Graph simulator `fake` (its tenant, app and endpoints). */
export function graphSettings(fake: FakeGraph): Record<string, string> {
  return {
    STEWARD_PLATFORM: 'graph',
    STEWARD_GRAPH_TENANT_ID: fake.tenantId,
    STEWARD_GRAPH_CLIENT_ID: fake.clientId,
    STEWARD_GRAPH_CLIENT_SECRET: fake.clientSecret,
    STEWARD_GRAPH_BASE_URL: fake.baseUrl,
    STEWARD_GRAPH_AUTHORITY_HOST: fake.origin,
  };
}

export function personId(displayName: string): string {
  const user = seedUsers.find((u) => u.displayName === displayName);
  if (!user) throw new Error(`no seed person ${displayName}`);
  return user.id;
}

/** The demo tenant in Graph's shapes: people, their groups, the published labels, the web app. */
export function seedTenant(fake: FakeGraph): void {
  for (const { appRoles: _roles, groupIds: _groups, ...user } of seedUsers) fake.addUser(user);
  for (const group of seedGroups) {
    fake.addGroup({
      ...group,
      memberIds: seedUsers.filter((u) => u.groupIds.includes(group.id)).map((u) => u.id),
    });
  }
  for (const { parentId, scopeGroupIds: _scope, ...label } of seedLabels) {
    fake.labels.push({
      ...label,
      isAppliable: true,
      hasProtection: false,
      applicableTo: 'email,file,site,unifiedGroup,teamwork',
      parent: parentId ? { id: parentId } : null,
    });
  }
  fake.apps.set(WEB_APP, {
    id: WEB_APP,
    externalId: null,
    displayName: 'Website',
    distributionMethod: 'store',
  });
  const web = (displayName: string, path: string) => ({
    displayName,
    teamsAppId: WEB_APP,
    configuration: {
      entityId: path,
      contentUrl: `https://example.com/${path}`,
      websiteUrl: `https://example.com/${path}`,
    },
  });
  fake.addTeam({
    id: TEMPLATE_TEAM,
    displayName: 'Onboarding template team',
    description: 'The model team for onboarding cohorts: the Onboarding cohort template clones it.',
    ownerIds: [personId('Katharina Schäfer'), personId('Ana Beatriz Gonçalves')],
    memberIds: [personId('Marcus Johnson'), PEOPLE.patti],
    settings: { funSettings: { allowGiphy: true, giphyContentRating: 'strict' } },
    channels: [
      {
        displayName: 'Welcome',
        description: 'Start here: your first week, who is who, and where to ask.',
        tabs: [web('Onboarding checklist', 'onboarding-checklist')],
      },
      {
        displayName: 'Resources',
        description: 'Handbooks, policies and the tools every newcomer needs.',
        tabs: [web('Employee handbook', 'employee-handbook')],
      },
    ],
  });
}

/** The Graph platform's options at Graph's own pace: `dispatcher` to reach `fake`, and its bot. */
export function botGraphOptions(fake: FakeGraph, dispatcher: Agent): GraphPlatformOptions {
  return { dispatcher, bot: { appId: BOT.appId, appPassword: BOT.secret, appTenantId: fake.tenantId } };
}

/**
 * The Graph platform's options for a suite against `fake`: quick retries and polls, the simulator's
 * bot, and waits cut to 2 ms (a suite's clock need not run at Graph's pace); `overrides` win.
 */
export function quickGraphOptions(
  fake: FakeGraph,
  dispatcher: Agent,
  overrides: Partial<GraphPlatformOptions> = {},
): GraphPlatformOptions {
  return {
    ...botGraphOptions(fake, dispatcher),
    // A Retry-After up to 1.5 s is waited in-process; a longer one delays the job.
    retry: { maxAttempts: 5, baseDelayMs: 1, maxDelayMs: 1500, timeoutMs: 10_000 },
    polling: {
      initialDelayMs: 10,
      cloneInitialDelayMs: 10,
      replicationDelayMs: 10,
      maxDelayMs: 20,
      timeoutMs: 10_000,
      notFoundRetries: 3,
    },
    replicationDelayMs: 10,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, 2))),
    ...overrides,
  };
}

/**
 * The Graph platform's options for suites of channel files folders: polls at 20 ms and Graph's
 * retries, with a files folder looked at every `folderDelayMs` (SharePoint makes one late).
 */
export function filesGraphOptions(
  fake: FakeGraph,
  dispatcher: Agent,
  folderDelayMs: number,
): GraphPlatformOptions {
  return {
    ...botGraphOptions(fake, dispatcher),
    retry: { maxAttempts: 5, baseDelayMs: 1, maxDelayMs: 1500, timeoutMs: 10_000 },
    polling: {
      initialDelayMs: 20,
      cloneInitialDelayMs: 20,
      replicationDelayMs: 20,
      maxDelayMs: 50,
      timeoutMs: 10_000,
      notFoundRetries: 3,
    },
    replicationDelayMs: 10,
    filesFolder: { firstDelayMs: folderDelayMs, maxDelayMs: folderDelayMs, timeoutMs: 60_000 },
  };
}

export interface GraphSuiteOptions<P extends string>
  extends Omit<SuiteStewardOptions<P>, 'env' | 'overrides'> {
  /** Settings over the test settings and {@link graphSettings}. */
  env?: Record<string, string>;
  /** The simulator's options; Steward's bot by default. */
  graph?: FakeGraphOptions;
  /** Readies the simulator once the demo tenant is in it. */
  seed?: (fake: FakeGraph) => void;
  /** The platform's settings over the simulator's (`fake.config()`). */
  config?: (fake: FakeGraph) => Partial<GraphPlatformConfig>;
  /** The platform's options; {@link quickGraphOptions} by default. */
  options?: (fake: FakeGraph, dispatcher: Agent) => GraphPlatformOptions;
  /** What reaches the composition root besides the platform. */
  overrides?: () => Omit<StewardOverrides, 'platform'>;
}

/** A suite's Steward on the Graph simulator, with the simulator and the platform Steward uses. */
export type GraphSuite<P extends string = never> = SuiteSteward<P> & {
  readonly fake: FakeGraph;
  readonly dispatcher: Agent;
  readonly platform: GraphPlatform;
};

/**
 * {@link suiteSteward} on Microsoft Graph's simulator: its `beforeAll` starts the simulator with the
 * demo tenant and makes the platform Steward starts on; its `afterAll`, after Steward's, closes them.
 */
export function suiteGraphSteward<P extends string = never>(
  kind: DatabaseKind,
  options: GraphSuiteOptions<P> = {},
): GraphSuite<P> {
  let fake: FakeGraph | undefined;
  let dispatcher: Agent | undefined;
  let platform: GraphPlatform | undefined;
  beforeAll(async () => {
    fake = await FakeGraph.start(options.graph ?? { bot: BOT });
    dispatcher = fake.dispatcher();
    seedTenant(fake);
    options.seed?.(fake);
    platform = createGraphPlatform(
      { ...fake.config(), ...options.config?.(fake) },
      options.options?.(fake, dispatcher) ?? quickGraphOptions(fake, dispatcher),
    );
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the simulator starts in beforeAll');
    return value;
  };
  const suite = suiteSteward(kind, {
    people: options.people,
    env: () => ({ ...graphSettings(started(fake)), ...options.env }),
    overrides: () => ({ ...options.overrides?.(), platform: started(platform) }),
  });
  afterAll(async () => {
    await dispatcher?.close();
    await fake?.close();
  });
  return Object.defineProperties(suite, {
    fake: { get: () => started(fake) },
    dispatcher: { get: () => started(dispatcher) },
    platform: { get: () => started(platform) },
  }) as GraphSuite<P>;
}

/** The Graph platform on its own against a simulator, for a suite of the adapter. */
export interface GraphPlatformSuite {
  readonly fake: FakeGraph;
  readonly dispatcher: Agent;
  readonly platform: GraphPlatform;
}

/**
 * For the enclosing suite, a simulator started with `graph` and readied by `seed`, and the Graph
 * platform on it with no wait ever waited; all closed in `afterAll`.
 */
export function suiteGraphPlatform(
  graph: FakeGraphOptions,
  seed: (fake: FakeGraph) => void,
): GraphPlatformSuite {
  let fake: FakeGraph | undefined;
  let dispatcher: Agent | undefined;
  let platform: GraphPlatform | undefined;
  beforeAll(async () => {
    fake = await FakeGraph.start(graph);
    dispatcher = fake.dispatcher();
    seed(fake);
    platform = createGraphPlatform(fake.config(), { dispatcher, sleep: async () => undefined });
  });
  afterAll(async () => {
    await platform?.close();
    await dispatcher?.close();
    await fake?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the simulator starts in beforeAll');
    return value;
  };
  return {
    get fake() {
      return started(fake);
    },
    get dispatcher() {
      return started(dispatcher);
    },
    get platform() {
      return started(platform);
    },
  };
}
