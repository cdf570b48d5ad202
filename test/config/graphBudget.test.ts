import { configLoads, DEMO_ENV, GRAPH_APP, graphOf } from '../support/configLoads';

describe('the Graph budget settings', () => {
  const config = configLoads('budget', { ...DEMO_ENV, ...GRAPH_APP, STEWARD_GRAPH_CLIENT_SECRET: 's' });
  const load = (env: Record<string, string> = {}) => graphOf(config.load(env));

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
    expect(config.failure({ [name]: value }).variable).toBe(name);
  });
});
