import { databaseKinds } from '../../support/databases';
import { GUESTS, inviteGuests } from '../../support/guests';
import { DAY, evaluate, teamWith } from '../../support/lifecycle';
import { PEOPLE } from '../../support/steward';
import { cardSaying, ENGLISH, FRENCH, frenchText, pressOnCard } from '../support/cardTurns';
import { actionData, cardOf, cardText, refreshOf, type SentCard, verbsOf } from '../support/fakeConnector';
import { ADELE, ALEX, type BotAnswer, SIOBHAN, type TeamsPerson } from '../support/botHarness';
import { suiteLifecycleBot } from '../support/suiteBot';

/**
 * The lifecycle cards refreshed as they are opened (Universal Actions `refresh`): each card carries
 * an `Action.Execute` refresh for its own person, and the bot answers it with the card as it stands
 * now (renewed, archived, someone became owner, the guests reviewed), in the opener's language,
 * without posting anything in the chat. Alex and Adele read English, Siobhán French.
 */
describe.each(databaseKinds)('lifecycle cards refreshed when opened, on %s', (kind) => {
  const bot = suiteLifecycleBot(kind, { english: [ALEX, ADELE], french: [SIOBHAN] }, [
    'renewable',
    'dormant',
    'ask-members',
  ]);

  /** A team of `template` that Alex owns, with `people` in their roles. */
  const team = (template: string, name: string, people: Array<[TeamsPerson, 'owner' | 'member']>) =>
    teamWith(
      bot.steward,
      template,
      name,
      people.map(([person, role]) => [person.aadObjectId, role]),
    );
  /** The card about `name` posted to `who` since `mark`. */
  const cardTo = (who: TeamsPerson, name: string, mark: number) =>
    bot.connector.waitFor(
      () =>
        bot.connector
          .messages(who.conversationId, mark)
          .find((m) => cardOf(m.body) && cardText(m.body).includes(name)),
      20_000,
    );
  /** Teams refreshing `card` by itself as `who` opens it (the activity `activityId`). */
  const opened = (who: TeamsPerson, card: SentCard | undefined, activityId: string, locale = ENGLISH) =>
    bot.send(who, {
      type: 'invoke',
      name: 'adaptiveCard/action',
      replyToId: activityId,
      value: { action: refreshOf(card)!.action, trigger: 'automatic' },
      ...locale,
    });
  /** The card a refresh answered with, having posted nothing in `who`'s chat. */
  const refreshed = (who: TeamsPerson, answer: BotAnswer, before: number) => {
    expect(bot.connector.messages(who.conversationId, before)).toEqual([]);
    const card = bot.cardOfAnswer(answer);
    expect(refreshOf(card)?.userIds).toEqual([who.teamsId]);
    return card;
  };

  it('refreshes the renewal card of each owner for them alone, and shows a renewal made elsewhere', async () => {
    const teamId = await team('renewable', 'Harbour', [[SIOBHAN, 'owner']]);
    bot.moveBy(336 * DAY);
    const mark = bot.connector.sent.length;
    await evaluate(bot.steward);
    const alex = await cardTo(ALEX, 'Harbour', mark);
    const siobhan = await cardTo(SIOBHAN, 'Harbour', mark);
    expect(refreshOf(cardOf(alex.body))).toEqual({
      action: {
        type: 'Action.Execute',
        title: 'Refresh',
        verb: 'refreshLifecycleCard',
        data: { card: 'renewal', teamId },
      },
      userIds: [ALEX.teamsId],
    });
    expect(refreshOf(cardOf(siobhan.body))).toMatchObject({
      action: { title: 'Actualiser', verb: 'refreshLifecycleCard' },
      userIds: [SIOBHAN.teamsId],
    });

    // Opened before anyone answers: the card as it was, buttons and all.
    let before = bot.connector.sent.length;
    const open = refreshed(ALEX, await opened(ALEX, cardOf(alex.body), alex.activityId), before);
    expect(verbsOf(open)).toEqual(['renewTeam', 'archiveTeamNow', 'notRightPerson']);

    const megan = await bot.steward.userToken(PEOPLE.megan, ['GLOBAL_ADMIN'], { name: 'Megan Bowen' });
    const renewal = await bot.steward.call('POST', `/api/v1.0/teams/${teamId}/lifecycle/renew`, {
      token: megan,
    });
    expect(renewal.status).toBe(200);
    await cardSaying(bot.connector, siobhan.activityId, /Megan Bowen a renouvelé/);
    // Siobhán opens the card she was first sent: the renewal, in French, with no buttons.
    before = bot.connector.sent.length;
    const now = refreshed(
      SIOBHAN,
      await opened(SIOBHAN, cardOf(siobhan.body), siobhan.activityId, FRENCH),
      before,
    );
    expect(frenchText(now)).toContain('Megan Bowen a renouvelé **Harbour**');
    expect(verbsOf(now)).toEqual([]);

    // Someone the card was not sent to learns nothing from sending its refresh, and nothing is posted.
    before = bot.connector.sent.length;
    const stranger = await opened(ADELE, cardOf(alex.body), 'some-forwarded-card');
    expect(stranger.body).toMatchObject({
      statusCode: 200,
      type: 'application/vnd.microsoft.activity.message',
      value: 'This card is no longer available.',
    });
    expect(bot.connector.sent.length).toBe(before);
  }, 90_000);

  it('refreshes the inactivity card to the archive another owner asked for', async () => {
    await team('dormant', 'Quiet room', [[SIOBHAN, 'owner']]);
    bot.moveBy(31 * DAY);
    const mark = bot.connector.sent.length;
    await evaluate(bot.steward);
    const alex = await cardTo(ALEX, 'Quiet room', mark);
    const siobhan = await cardTo(SIOBHAN, 'Quiet room', mark);
    expect(refreshOf(cardOf(alex.body))?.action.data).toMatchObject({ card: 'inactivity' });
    const asking = bot.cardOfAnswer(
      await pressOnCard(bot, SIOBHAN, siobhan.activityId, 'archiveTeamNow', FRENCH),
    );
    // Archive asks first; "Yes, archive it" archives.
    bot.cardOfAnswer(
      await bot.send(SIOBHAN, {
        type: 'invoke',
        name: 'adaptiveCard/action',
        replyToId: siobhan.activityId,
        value: {
          action: {
            type: 'Action.Execute',
            verb: 'archiveTeamNow',
            data: actionData(asking, 'archiveTeamNow'),
          },
        },
        ...FRENCH,
      }),
    );
    const before = bot.connector.sent.length;
    const now = refreshed(ALEX, await opened(ALEX, cardOf(alex.body), alex.activityId), before);
    expect(cardText(now)).toMatch(
      /Siobhán O'Connor asked Steward to archive \*\*Quiet room\*\*|Quiet room is archived/,
    );
    expect(verbsOf(now)).toEqual([]);
  }, 90_000);

  it('refreshes the ownerless card to who became owner, and the guest review card to the review', async () => {
    await team('ask-members', 'Orphan Works', [
      [ADELE, 'member'],
      [SIOBHAN, 'member'],
    ]);
    let mark = bot.connector.sent.length;
    await evaluate(bot.steward);
    const adele = await cardTo(ADELE, 'Orphan Works', mark);
    const siobhan = await cardTo(SIOBHAN, 'Orphan Works', mark);
    expect(refreshOf(cardOf(adele.body))?.action.data).toMatchObject({ card: 'ownerless', audience: 'ask' });
    const stepUp = actionData(bot.connector.currentCard(siobhan.activityId), 'becomeOwner')!;
    await bot.send(SIOBHAN, {
      type: 'invoke',
      name: 'adaptiveCard/action',
      replyToId: siobhan.activityId,
      value: { action: { type: 'Action.Execute', verb: 'becomeOwner', data: stepUp } },
      ...FRENCH,
    });
    let before = bot.connector.sent.length;
    const owner = refreshed(ADELE, await opened(ADELE, cardOf(adele.body), adele.activityId), before);
    expect(cardText(owner)).toContain("Siobhán O'Connor stepped up as owner of **Orphan Works**.");
    expect(verbsOf(owner)).toEqual([]);

    const teamId = await team('ask-members', 'Guest House', [[ADELE, 'owner']]);
    await inviteGuests(bot.steward, teamId, [GUESTS.zoe.id]);
    bot.moveBy(91 * DAY);
    mark = bot.connector.sent.length;
    await evaluate(bot.steward);
    const review = await cardTo(ADELE, 'Guest House', mark);
    const alexReview = await cardTo(ALEX, 'Guest House', mark);
    expect(refreshOf(cardOf(review.body))?.action.data).toMatchObject({ card: 'guestReview', teamId });
    const submit = actionData(bot.connector.currentCard(alexReview.activityId), 'submitGuestReview')!;
    bot.cardOfAnswer(
      await bot.execute(ALEX, 'submitGuestReview', { ...submit, guest0: 'keep' }, alexReview.activityId),
    );
    before = bot.connector.sent.length;
    const reviewed = refreshed(ADELE, await opened(ADELE, cardOf(review.body), review.activityId), before);
    expect(cardText(reviewed)).toMatch(/Alex Wilber reviewed the guests of \*\*Guest House\*\* on /);
    expect(verbsOf(reviewed)).toEqual([]);
  }, 90_000);
});
