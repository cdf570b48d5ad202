import { cardTurnsOf, greet } from '../support/cardTurns';
import type { JoinRequest, TeamMember } from '../../../src/contract';
import { databaseKinds } from '../../support/databases';
import { teamWith } from '../../support/lifecycle';
import { PEOPLE } from '../../support/steward';
import { englishOn } from '../support/englishLeaks';
import { cardOf, cardText } from '../support/fakeConnector';
import { ADELE, ALEX, MEGAN, SIOBHAN, startBotHarness, type TeamsPerson } from '../support/botHarness';
import { suiteBot } from '../support/suiteBot';

/**
 * Requests to join a team in chat (docs/guides/joining-teams.md), through the bot's webhook and `/api/messages`: each
 * owner gets the asker's words with Approve and Decline in their own language (Alex English,
 * Siobhán French), only an owner's press decides, every owner's card then says who decided, and
 * the asker is told of the decision and, once the job added them, that they are in.
 */
describe.each(databaseKinds)('join request cards, on %s', (kind) => {
  const bot = suiteBot(() =>
    startBotHarness(kind, { STEWARD_JOB_POLL_MS: '25', STEWARD_LIFECYCLE_EVALUATION_AT: 'off' }),
  );
  let teamId: string;

  beforeAll(async () => {
    await greet(bot, { english: [ADELE, ALEX, MEGAN], french: [SIOBHAN] });
    teamId = await teamWith(bot.steward, 'project', 'Contoso deal', [[SIOBHAN.aadObjectId, 'owner']]);
  }, 60_000);

  const turns = cardTurnsOf(bot);
  const { cardTo, cardSaying } = turns;
  const press = (who: TeamsPerson, data: Record<string, unknown>, replyToId: string, locale?: object) =>
    turns.press(who, 'decideJoin', data, replyToId, locale);
  const ask = async (who: TeamsPerson, name: string, message?: string) => {
    const token = await bot.steward.userToken(who.aadObjectId, [], { name });
    const res = await bot.steward.call<JoinRequest>('POST', `/api/v1.0/teams/${teamId}/joinRequests`, {
      token,
      body: message ? { message } : {},
    });
    expect(res.status).toBe(201);
    return res.body;
  };
  const status = async (id: string) => {
    const token = await bot.steward.userToken(PEOPLE.megan, ['GLOBAL_ADMIN']);
    return (await bot.steward.call<JoinRequest>('GET', `/api/v1.0/joinRequests/${id}`, { token })).body
      .status;
  };

  it('owners get the asker’s words in their language; approving adds the member and tells the asker twice', async () => {
    const marks = [ALEX, SIOBHAN, ADELE].map((p) => bot.connector.messages(p.conversationId).length);
    const request = await ask(
      ADELE,
      'Adele Vance',
      'I run the *legal* side of [this deal](https://evil.example).',
    );
    const toAlex = await cardTo(ALEX, marks[0]!, /Adele Vance asks to join PRJ-Contoso deal/);
    const alexCard = cardOf(toAlex.body)!;
    // Her words as she typed them: no link or emphasis of hers is drawn on the owners' card.
    expect(cardText(alexCard)).toContain(
      'I run the \\*legal\\* side of \\[this deal\\](https://evil.example).',
    );
    const toSiobhan = await cardTo(SIOBHAN, marks[1]!, /Adele Vance demande à rejoindre PRJ-Contoso deal/);
    expect(englishOn(cardOf(toSiobhan.body)!)).toEqual([]);

    // The asker is no owner: her press decides nothing.
    await press(ADELE, { joinRequestId: request.id, decision: 'approve' }, toAlex.activityId);
    expect(await status(request.id)).toBe('pending');

    const answer = await press(
      ALEX,
      { joinRequestId: request.id, decision: 'approve', joinComment: 'Welcome aboard.' },
      toAlex.activityId,
    );
    expect(cardText(bot.cardOfAnswer(answer))).toContain('Approved by Alex Wilber: "Welcome aboard."');
    await cardSaying(toSiobhan.activityId, /Approuvée par Alex Wilber/);
    await cardTo(ADELE, marks[2]!, /Alex Wilber accepted your request to join PRJ-Contoso deal/);
    await cardTo(ADELE, marks[2]!, /You are now a member of PRJ-Contoso deal/);
    const megan = await bot.steward.userToken(PEOPLE.megan, ['GLOBAL_ADMIN']);
    const members = await bot.steward.call<TeamMember[]>('GET', `/api/v1.0/teams/${teamId}/members`, {
      token: megan,
    });
    expect(members.body.map((m) => m.userId)).toContain(PEOPLE.adele);
    // A second press on the decided card changes nothing.
    const again = await press(ALEX, { joinRequestId: request.id, decision: 'decline' }, toAlex.activityId);
    expect(cardText(bot.cardOfAnswer(again))).toContain('Approved by Alex Wilber');
    expect(await status(request.id)).toBe('joined');
  });

  it('declined: the asker is told with the comment, in their language', async () => {
    const marks = [ALEX, MEGAN].map((p) => bot.connector.messages(p.conversationId).length);
    const request = await ask(MEGAN, 'Megan Bowen');
    const toAlex = await cardTo(ALEX, marks[0]!, /Megan Bowen asks to join/);
    expect(cardText(cardOf(toAlex.body)!)).not.toContain('In their words');
    await press(
      ALEX,
      { joinRequestId: request.id, decision: 'decline', joinComment: 'Confidential.' },
      toAlex.activityId,
    );
    const told = await cardTo(MEGAN, marks[1]!, /Alex Wilber declined your request to join PRJ-Contoso deal/);
    expect(cardText(cardOf(told.body)!)).toContain('Their comment: "Confidential."');
    expect(await status(request.id)).toBe('declined');
  });
});
