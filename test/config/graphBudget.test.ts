import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Config, loadConfig } from '../../src/config';
import { configErrorOf } from '../support/configErrors';
import { DEMO_CHOICES } from '../support/demoChoices';

const ENV = {
  STEWARD_AUTH_SECRET: 'a-secret-that-is-long-enough-for-hs256-0123456789',
  STEWARD_PLATFORM: 'graph',
  STEWARD_GRAPH_TENANT_ID: '11111111-2222-3333-4444-555555555555',
  STEWARD_GRAPH_CLIENT_ID: '66666666-7777-8888-9999-000000000000',
  STEWARD_GRAPH_CLIENT_SECRET: 's',
};
type GraphConfig = Extract<Config['platform'], { kind: 'graph' }>;

describe('the Graph budget settings', () => {
  let cwd: string;
  beforeEach(() => {
    cwd = mkdtempSync(path.join(os.tmpdir(), 'steward-budget-'));
  });
  afterEach(() => rmSync(cwd, { recursive: true, force: true }));
  const load = (env: Record<string, string> = {}) =>
    loadConfig({ ...DEMO_CHOICES, ...ENV, ...env }, cwd).platform as GraphConfig;

  test("Microsoft's published limits by default, 90 % of a team's and 98 % of a class's spent, a 10 s wait at most", () => {
    expect(load().budget).toEqual({
      limits: {
        createTeamPerSecond: 10,
        cloneTeamPerSecond: 6,
        channelOrTabPerSecond: 30,
        otherPerSecond: 30,
        perTeamPerSecond: 4,
        perChannelPerSecond: 1,
        channelCreationsPerTeamPerSecond: 1,
        memberAdditionsPerMinute: 4,
      },
      headroom: 0.9,
      classHeadroom: 0.98,
      maxWaitMs: 10_000,
    });
  });

  test('each limit may be set; the scale multiplies them all', () => {
    const { budget } = load({
      STEWARD_GRAPH_LIMIT_CREATE_TEAM_RPS: '5',
      STEWARD_GRAPH_LIMIT_MEMBER_ADDS_PER_MINUTE: '2',
      STEWARD_GRAPH_LIMIT_SCALE: '0.5',
      STEWARD_GRAPH_BUDGET_HEADROOM: '1',
      STEWARD_GRAPH_BUDGET_CLASS_HEADROOM: '0.95',
      STEWARD_GRAPH_BUDGET_MAX_WAIT_MS: '0',
    });
    expect(budget.limits).toMatchObject({
      createTeamPerSecond: 2.5,
      memberAdditionsPerMinute: 1,
      otherPerSecond: 15,
    });
    expect(budget).toMatchObject({ headroom: 1, classHeadroom: 0.95, maxWaitMs: 0 });
  });

  test.each([
    ['STEWARD_GRAPH_LIMIT_PER_TEAM_RPS', '0'],
    ['STEWARD_GRAPH_LIMIT_OTHER_RPS', 'fast'],
    ['STEWARD_GRAPH_LIMIT_SCALE', '-1'],
    ['STEWARD_GRAPH_BUDGET_HEADROOM', '1.5'],
    ['STEWARD_GRAPH_BUDGET_CLASS_HEADROOM', '0'],
    ['STEWARD_GRAPH_BUDGET_MAX_WAIT_MS', '2.5'],
    ['STEWARD_GRAPH_TIME_SCALE', '0'],
  ])('%s=%s is refused, naming the setting', (name, value) => {
    expect(configErrorOf(() => load({ [name]: value }), `${name}=${value}`).variable).toBe(name);
  });
});
