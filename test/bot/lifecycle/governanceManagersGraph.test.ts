import type { Agent } from 'undici';
import { createGraphPlatform, type GraphPlatform } from '../../../src/platform/graph';
import { databaseKinds } from '../../support/databases';
import { FakeGraph } from '../../support/fakeGraph';
import { seedTenant } from '../../support/graphTenant';
import { evaluate } from '../../support/lifecycle';
import { PEOPLE } from '../../support/steward';
import { cardOf, cardText } from '../support/fakeConnector';
import {
  ADELE,
  type BotHarness,
  LYNNE,
  MEGAN,
  startBotHarness,
  type TeamsPerson,
} from '../support/botHarness';

const API_APP_ID = '5e7a0d1c-3b2a-4c4d-9e8f-0a1b2c3d4e5f';
const ENGLISH = { locale: 'en-US', localTimezone: 'UTC' };

/**
 * A team with no owner on Microsoft Graph (the simulator), escalated to governance by the evaluator
 * (the tenant's default policy: `notifyGovernance`): the bot learns who the governance managers are
 * from Steward's app-role assignments in Entra ID, read through Graph (Lynne through a group), and
 * tells them in chat; the global admin, listed too, is not told while there is a governance
 * manager. When Graph refuses, the bot says so in its log, with the reason and no secret.
 */
describe.each(databaseKinds)(
  'ownerless teams escalated to governance managers found through Graph, on %s',
  (kind) => {
    let fake: FakeGraph;
    let dispatcher: Agent;
    let platform: GraphPlatform;
    let bot: BotHarness;
    const logLines: Array<Record<string, unknown>> = [];

    beforeAll(async () => {
      fake = await FakeGraph.start({ pageSize: 2 });
      dispatcher = fake.dispatcher();
      seedTenant(fake);
      const sp = fake.addServicePrincipal({
        appId: API_APP_ID,
        displayName: 'Steward API',
        appRoles: [{ value: 'GOVERNANCE_MANAGER' }, { value: 'GLOBAL_ADMIN' }],
      });
      const board = fake.addGroup({
        displayName: 'Governance board',
        mailNickname: 'govboard',
        memberIds: [PEOPLE.lynne],
      });
      fake.assignAppRole(sp, 'GOVERNANCE_MANAGER', { type: 'Group', id: board });
      fake.assignAppRole(sp, 'GLOBAL_ADMIN', { type: 'User', id: PEOPLE.megan });
      platform = createGraphPlatform({ ...fake.config(), rolesApp: API_APP_ID }, { dispatcher });
      bot = await startBotHarness(
        kind,
        {
          STEWARD_JOB_POLL_MS: '25',
          STEWARD_LIFECYCLE_EVALUATION_AT: 'off',
          STEWARD_GOVERNANCE_MANAGERS_CACHE_SECONDS: '0',
          STEWARD_LOG_LEVEL: 'info',
        },
        { platform },
        undefined,
        logLines,
      );
      for (const person of [ADELE, LYNNE, MEGAN])
        await bot.send(person, { type: 'message', text: 'help', ...ENGLISH });
    }, 60_000);
    afterAll(async () => {
      await bot?.close();
      await dispatcher?.close();
      await fake?.close();
    });

    const cardsAbout = (who: TeamsPerson, mark: number, name: string) =>
      bot.connector
        .messages(who.conversationId, mark)
        .filter((m) => cardOf(m.body) && cardText(cardOf(m.body)).includes(name));

    /** Resolves once every `team_ownerless` delivery to the bot has been answered. */
    const ownerlessDelivered = async () => {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const rows = await bot.steward.steward.store.db
          .selectFrom('hook_deliveries')
          .select('status')
          .where('event_type', '=', 'team_ownerless')
          .execute();
        if (rows.length > 0 && rows.every((r) => r.status === 'delivered')) return;
        if (Date.now() > deadline) throw new Error(`team_ownerless deliveries: ${JSON.stringify(rows)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };

    it('tells the governance manager found through a group assigned the app role', async () => {
      fake.addTeam({ displayName: 'Graph Nobody Home', memberIds: [PEOPLE.adele] });
      const mark = bot.connector.sent.length;
      await evaluate(bot.steward);
      const lynne = await bot.connector.waitFor(
        () => cardsAbout(LYNNE, mark, 'Graph Nobody Home')[0],
        20_000,
      );
      expect(cardText(bot.connector.currentCard(lynne.activityId)!)).toContain(
        'As a governance manager, please find it an owner.',
      );
      // Once the bot has handled the event (it answers the delivery after posting every card): the
      // global admin is listed, but governance managers are told first; the member is not asked.
      await ownerlessDelivered();
      expect(cardsAbout(MEGAN, mark, 'Graph Nobody Home')).toEqual([]);
      expect(cardsAbout(ADELE, mark, 'Graph Nobody Home')).toEqual([]);
    }, 60_000);

    it('logs why nobody was told when Graph refuses, without a secret', async () => {
      fake.granted.delete('Application.Read.All');
      fake.addTeam({ displayName: 'Graph Unheard', memberIds: [PEOPLE.adele] });
      const mark = bot.connector.sent.length;
      await evaluate(bot.steward);
      const line = await bot.connector.waitFor(
        () => logLines.find((l) => /nobody was told of an ownerless team/.test(String(l.msg))),
        20_000,
      );
      expect(line).toMatchObject({
        source: 'appRoleAssignments',
        reason: expect.stringMatching(/Application\.Read\.All/),
      });
      expect(cardsAbout(LYNNE, mark, 'Graph Unheard')).toEqual([]);
      const everything = JSON.stringify(logLines);
      expect(everything).not.toContain(fake.clientSecret);
      expect(everything).not.toMatch(/eyJ[\w-]+\.eyJ|Bearer /);
    }, 60_000);
  },
);
