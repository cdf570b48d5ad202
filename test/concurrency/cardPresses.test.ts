import type { Job, JoinRequest } from '../../src/contract';
import { writeQueuePaused } from '../../src/store/jobs/queuePause';
import { databaseKinds } from '../support/databases';
import { GUESTS, inviteGuests } from '../support/guests';
import { DAY, evaluate, provisionTeam, teamWith } from '../support/lifecycle';
import { ADELE, ALEX, type BotAnswer, ISAIAH, SIOBHAN, type TeamsPerson } from '../bot/support/botHarness';
import { ENGLISH } from '../bot/support/cardTurns';
import { actionData, cardOf, cardText, type SentCard } from '../bot/support/fakeConnector';
import { suiteLifecycleBot } from '../bot/support/suiteBot';

/** What the bot's error cards and "could not" sentences say. */
const FAILED = /Sorry|did not work|went wrong/;

/**
 * The same card action pressed twice at once through the bot's real endpoint (`/api/messages`, the
 * botbuilder adapter, a fake Bot Connector), on SQLite and PostgreSQL: one decision, one effect,
 * and both presses answered with a card that says what happened, never an error.
 */
describe.each(databaseKinds)('a card pressed twice at once, on %s', (kind) => {
  const bot = suiteLifecycleBot(kind, { english: [ALEX, ADELE, SIOBHAN, ISAIAH] }, [
    'ask-members',
    'renewable',
  ]);

  const token = (who: TeamsPerson) => bot.steward.userToken(who.aadObjectId, [], { name: who.name });
  const count = async (action: string, targetId: string) =>
    (
      await bot.steward.steward.store.db
        .selectFrom('audit_records')
        .select('target')
        .where('action', '=', action)
        .execute()
    ).filter((r) => (JSON.parse(r.target) as { id?: string }).id === targetId).length;
  const jobsOf = async (type: string, teamId: string) =>
    (
      await bot.steward.steward.store.db
        .selectFrom('jobs')
        .select('id')
        .where('type', '=', type)
        .where('team_id', '=', teamId)
        .execute()
    ).length;
  /** `who` presses `verb` with `data` twice at once; both answers are cards saying no error. */
  const twice = async (who: TeamsPerson, verb: string, data: Record<string, unknown>, cardId: string) => {
    // The queue paused, so a job of the first press cannot end before the second press arrives.
    await writeQueuePaused(bot.steward.steward.store.db, true);
    const presses = await Promise.all(
      [0, 1].map(() =>
        bot.send(who, {
          type: 'invoke',
          name: 'adaptiveCard/action',
          replyToId: cardId,
          value: { action: { type: 'Action.Execute', verb, data } },
          ...ENGLISH,
        }),
      ),
    ).finally(() => writeQueuePaused(bot.steward.steward.store.db, false));
    return presses.map((answer) => answered(answer));
  };
  const answered = (answer: BotAnswer): string => {
    if (answer.body?.type !== 'application/vnd.microsoft.card.adaptive')
      throw new Error(JSON.stringify(answer.body));
    const text = cardText(bot.cardOfAnswer(answer));
    expect(text).not.toMatch(FAILED);
    return text;
  };
  const cardTo = (who: TeamsPerson, pattern: RegExp): Promise<{ card: SentCard; activityId: string }> =>
    bot.connector.waitFor(() => {
      const found = bot.connector
        .messages(who.conversationId)
        .find((m) => cardOf(m.body) && pattern.test(cardText(cardOf(m.body)!)));
      return found && { card: cardOf(found.body)!, activityId: found.activityId };
    }, 20_000);
  const waiting = async (name: string) => {
    const res = await bot.steward.call<Job>('POST', '/api/v1.0/teams/provisioning', {
      token: await token(ALEX),
      body: { template: { id: 'client-engagement' }, team: { name } },
    });
    expect(res.status).toBe(201);
    return (res.body.data.approval as { id: string }).id;
  };

  it('Approve twice: one approval, both cards say it is approved', async () => {
    const approvalId = await waiting('Pressed twice');
    const card = await cardTo(ADELE, /Pressed twice/);
    const [first, second] = await twice(ADELE, 'approve', actionData(card.card, 'approve')!, card.activityId);
    expect(first).toMatch(/approved/i);
    expect(second).toMatch(/approved/i);
    expect(await count('approval_approved', approvalId)).toBe(1);
  });

  it('Approve and Reject at once: one decision, both cards show it', async () => {
    const approvalId = await waiting('Both buttons');
    const card = await cardTo(ADELE, /Both buttons/);
    const presses = await Promise.all(
      ['approve', 'reject'].map((verb) =>
        bot.execute(ADELE, verb, actionData(card.card, verb)!, card.activityId),
      ),
    );
    const texts = presses.map(answered);
    const decided =
      (await count('approval_approved', approvalId)) + (await count('approval_rejected', approvalId));
    expect(decided).toBe(1);
    const word = (await count('approval_approved', approvalId)) === 1 ? /approved/i : /rejected/i;
    expect(texts.every((t) => word.test(t))).toBe(true);
  });

  describe("on a team's cards", () => {
    let teamId: string;
    beforeAll(async () => {
      teamId = await teamWith(bot.steward, 'ask-members', 'Twice pressed', [[ISAIAH.aadObjectId, 'member']]);
    }, 30_000);

    it('Approve on a request to join, twice: one decision, one join', async () => {
      const asked = await bot.steward.call<JoinRequest>('POST', `/api/v1.0/teams/${teamId}/joinRequests`, {
        token: await token(ADELE),
        body: {},
      });
      expect(asked.status).toBe(201);
      const card = await cardTo(ALEX, /Adele Vance asks to join/);
      const texts = await twice(ALEX, 'decideJoin', actionData(card.card, 'decideJoin')!, card.activityId);
      expect(texts.every((t) => /Approved by Alex Wilber/.test(t))).toBe(true);
      expect(await jobsOf('TeamJoinRequest', teamId)).toBe(1);
    });

    it('Become an owner, twice: one step-up', async () => {
      const since = new Date().toISOString().slice(0, 10);
      await twice(ISAIAH, 'becomeOwner', { teamId, since }, 'ownerless-card');
      expect(await count('owner_step_up', teamId)).toBe(1);
    });

    it('Renew, twice: the team renewed to one day, both cards say so', async () => {
      const renewable = await provisionTeam(bot.steward, 'renewable', 'Renewed twice');
      const texts = await twice(ALEX, 'renewTeam', { teamId: renewable }, 'renewal-card');
      expect(texts.every((t) => /renewed/i.test(t))).toBe(true);
    });

    it('Archive, confirmed twice: one archive job', async () => {
      const renewable = await provisionTeam(bot.steward, 'renewable', 'Archived twice');
      const texts = await twice(
        ALEX,
        'archiveTeamNow',
        { teamId: renewable, confirmed: true },
        'archive-card',
      );
      expect(texts.every((t) => /archiv/i.test(t))).toBe(true);
      expect(await jobsOf('TeamArchiveRequest', renewable)).toBe(1);
    });

    it('Add them, twice: one drift job', async () => {
      const texts = await twice(ALEX, 'addTemplateChanges', { teamId, version: 1 }, 'drift-card');
      expect(texts).toHaveLength(2);
      expect(await jobsOf('TeamDriftApply', teamId)).toBe(1);
    });

    it("Submit on a guest review, twice: one review, one guest's removal", async () => {
      await inviteGuests(bot.steward, teamId, [GUESTS.zoe.id]);
      bot.moveBy(91 * DAY);
      await evaluate(bot.steward);
      const review = await cardTo(ALEX, /Review the guests of/);
      // The card's one guest (input `guest0`) removed.
      const data = { ...actionData(review.card, 'submitGuestReview'), guest0: 'remove' };
      const texts = await twice(ALEX, 'submitGuestReview', data, review.activityId);
      expect(texts.every((t) => /reviewed the guests/i.test(t))).toBe(true);
      expect(await count('guest_review_completed', teamId)).toBe(1);
      const removals = await bot.steward.steward.store.db
        .selectFrom('jobs')
        .select('data')
        .where('type', '=', 'LifecycleChange')
        .where('team_id', '=', teamId)
        .execute();
      expect(removals.filter((j) => String(j.data).includes('removeGuests'))).toHaveLength(1);
    });
  });
});
