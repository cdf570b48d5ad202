import { cardPostedTo, ENGLISH, FRENCH, pressWith } from '../support/cardTurns';
import type { JoinRequest } from '../../../src/contract';
import { databaseKinds } from '../../support/databases';
import { provisionTeam } from '../../support/lifecycle';
import { cardOf, cardText } from '../support/fakeConnector';
import { redeliver } from '../support/redeliver';
import { ADELE, ALEX, MEGAN, startBotHarness, type TeamsPerson } from '../support/botHarness';
import { suiteBot } from '../support/suiteBot';

/**
 * The asker of a request to join reads the owners' decision before "you are now a member", even
 * when the delivery saying they joined arrives before the one saying the owners accepted.
 */
describe.each(databaseKinds)('what the asker of a request to join is told, in order, on %s', (kind) => {
  const bot = suiteBot(() =>
    startBotHarness(kind, { STEWARD_JOB_POLL_MS: '25', STEWARD_LIFECYCLE_EVALUATION_AT: 'off' }),
  );
  let teamId: string;

  beforeAll(async () => {
    await bot.send(ALEX, { type: 'message', text: 'help', ...ENGLISH });
    teamId = await provisionTeam(bot.steward, 'project', 'Order deal');
  }, 60_000);

  it.each([
    ['English', ADELE, 'Adele Vance', ENGLISH, 'help', /accepted your request/, /You are now a member/],
    [
      'French',
      MEGAN,
      'Megan Bowen',
      FRENCH,
      'bonjour',
      /a accepté votre demande/,
      /Vous êtes maintenant membre/,
    ],
  ])(
    '%s: "accepted" comes before "you are now a member"',
    async (_, asker: TeamsPerson, name, locale, hello, accepted, member) => {
      await bot.send(asker, { type: 'message', text: hello, ...locale });
      const mark = bot.connector.sent.length;
      const token = await bot.steward.userToken(asker.aadObjectId, [], { name });
      const asked = await bot.steward.call<JoinRequest>('POST', `/api/v1.0/teams/${teamId}/joinRequests`, {
        token,
        body: { message: 'Please' },
      });
      expect(asked.status).toBe(201);
      const toAlex = await cardPostedTo(bot.connector, ALEX, mark, new RegExp(`${name} asks to join`));
      // The delivery saying the member joined comes first, the decision's after it.
      await redeliver(bot.steward, 'team_member_joined', { joinRequest: { id: asked.body.id } });
      await pressWith(
        bot,
        ALEX,
        'decideJoin',
        { joinRequestId: asked.body.id, decision: 'approve' },
        toAlex.activityId,
      );
      await cardPostedTo(bot.connector, asker, mark, member);
      const told = bot.connector
        .messages(asker.conversationId, mark)
        .map((m) => cardText(cardOf(m.body)))
        .filter((text) => accepted.test(text) || member.test(text));
      expect(told).toHaveLength(2);
      expect(told[0]).toMatch(accepted);
      expect(told[1]).toMatch(member);
    },
    60_000,
  );
});
