import { PEOPLE } from '../../support/steward';
import { databaseKinds } from '../../support/databases';
import { DAY, dayAfter, evaluate, longDay, teamEvents, teamWith } from '../../support/lifecycle';
import {
  cardSaying as saying,
  ENGLISH,
  FRENCH,
  frenchText as french,
  pressOnCard,
} from '../support/cardTurns';
import { cardOf, cardText, verbsOf } from '../support/fakeConnector';
import { ALEX, ISAIAH, MEGAN, SIOBHAN, type TeamsPerson } from '../support/botHarness';
import { suiteLifecycleBot } from '../support/suiteBot';

/**
 * Renewal and inactivity cards held for owners the bot cannot reach yet (delivered, as the notice
 * then stands, when they first talk to the bot), and "Keep it" told by a `team_kept_active` event
 * (from the API as from a card), which every owner's inactivity card shows. A real adapter, the
 * bot's webhook and Steward's moved clock; Alex reads English, Siobhán and Isaiah French.
 */
describe.each(databaseKinds)('held and kept lifecycle cards, on %s', (kind) => {
  const bot = suiteLifecycleBot(kind, { english: [ALEX], french: [SIOBHAN] }, ['renewable', 'dormant']);

  /** A team of `template` that Alex owns with `owners`. */
  const ownedTeam = (template: string, name: string, owners: TeamsPerson[]) =>
    teamWith(
      bot.steward,
      template,
      name,
      owners.map((owner) => [owner.aadObjectId, 'owner']),
    );
  /** The card with `verb` (or none when `verb` is '') about `team` posted to `who` since `mark`. */
  const cardOfTeam = (who: TeamsPerson, team: string, mark: number, verb = '') =>
    bot.connector.waitFor(
      () =>
        bot.connector
          .messages(who.conversationId, mark)
          .find(
            (m) =>
              cardOf(m.body) && cardText(m.body).includes(team) && (!verb || verbsOf(m.body).includes(verb)),
          ),
      20_000,
    );
  const cardSaying = (activityId: string, pattern: RegExp) => saying(bot.connector, activityId, pattern);
  const press = (who: TeamsPerson, activityId: string, verb: string, locale = ENGLISH) =>
    pressOnCard(bot, who, activityId, verb, locale);

  it('holds the renewal and inactivity cards of owners it cannot reach, and posts them as they stand when they first talk to it', async () => {
    for (const person of [MEGAN, ISAIAH]) bot.connector.unreachable.add(person.aadObjectId);
    const quiet = 'Boathouse';
    const renewable = 'Slipway';
    await ownedTeam('dormant', quiet, [MEGAN]);
    const renewableId = await ownedTeam('renewable', renewable, [MEGAN, ISAIAH]);
    const mark = bot.connector.sent.length;
    bot.moveBy(31 * DAY);
    await evaluate(bot.steward);
    await cardOfTeam(ALEX, quiet, mark, 'keepTeam');
    bot.moveBy(336 * DAY);
    await evaluate(bot.steward);
    const alexRenewal = await cardOfTeam(ALEX, renewable, mark, 'renewTeam');
    // Nothing reached them: Teams refused the chats (Megan's at least twice, for each team's card).
    const refusals = (person: TeamsPerson) =>
      bot.connector.sent
        .slice(mark)
        .filter((s) => s.kind === 'refused' && JSON.stringify(s.body).includes(person.aadObjectId)).length;
    await bot.connector.waitFor(() => refusals(MEGAN) >= 2 && refusals(ISAIAH) >= 1, 20_000);

    // Meanwhile Alex renews.
    bot.cardOfAnswer(await press(ALEX, alexRenewal.activityId, 'renewTeam'));

    // Megan first talks to the bot: her renewal card arrives renewed, her inactivity card still open.
    for (const person of [MEGAN, ISAIAH]) bot.connector.unreachable.delete(person.aadObjectId);
    await bot.send(MEGAN, { type: 'message', text: 'help', ...ENGLISH });
    const renewal = cardOf((await cardOfTeam(MEGAN, renewable, mark)).body)!;
    expect(cardText(renewal)).toContain(
      `Alex Wilber renewed **${renewable}**: it now expires on ${longDay('en-US', 336 + 365)}.`,
    );
    expect(verbsOf(renewal)).toEqual([]);
    const inactivity = await cardOfTeam(MEGAN, quiet, mark, 'keepTeam');
    expect(cardText(inactivity.body)).toContain(`Nobody has worked in ${quiet} since ${longDay('en-US', 0)}`);
    expect(verbsOf(inactivity.body)).toEqual(['keepTeam', 'archiveTeamNow']);

    // Isaiah, in French, gets his card of the renewed team in French.
    await bot.send(ISAIAH, { type: 'message', text: 'bonjour', ...FRENCH });
    const isaiah = cardOf((await cardOfTeam(ISAIAH, renewable, mark)).body)!;
    expect(french(isaiah)).toContain(
      `Alex Wilber a renouvelé **${renewable}** : elle expire désormais le ${longDay('fr-FR', 336 + 365)}.`,
    );
    // Each held card once: talking again posts nothing more.
    await bot.send(ISAIAH, { type: 'message', text: 'bonjour', ...FRENCH, localTimezone: 'Europe/London' });
    expect(
      bot.connector.messages(ISAIAH.conversationId, mark).filter((m) => cardText(m.body).includes(renewable)),
    ).toHaveLength(1);

    // Megan's held inactivity card works: she keeps the team, and Alex's card says so.
    const kept = bot.cardOfAnswer(await press(MEGAN, inactivity.activityId, 'keepTeam'));
    expect(cardText(kept)).toContain(`Megan Bowen kept **${quiet}**`);
    const alexQuiet = await cardOfTeam(ALEX, quiet, mark, 'keepTeam');
    await cardSaying(alexQuiet.activityId, /Megan Bowen kept \*\*Boathouse\*\*/);
    expect((await teamEvents(bot.steward, 'team_renewed', renewableId)).length).toBe(1);
  }, 120_000);

  it('tells every owner’s inactivity card who kept the team, when it was kept through the API', async () => {
    const teamId = await ownedTeam('dormant', 'Reading room', [SIOBHAN]);
    bot.moveBy(31 * DAY);
    const mark = bot.connector.sent.length;
    await evaluate(bot.steward);
    const alex = await cardOfTeam(ALEX, 'Reading room', mark, 'keepTeam');
    const siobhan = await cardOfTeam(SIOBHAN, 'Reading room', mark, 'keepTeam');

    const megan = await bot.steward.userToken(PEOPLE.megan, ['GLOBAL_ADMIN'], { name: 'Megan Bowen' });
    const res = await bot.steward.call('POST', `/api/v1.0/teams/${teamId}/lifecycle/activity`, {
      token: megan,
    });
    expect(res.status).toBe(200);
    const [event] = await teamEvents(bot.steward, 'team_kept_active', teamId);
    expect(event).toMatchObject({
      team: { id: teamId, displayName: 'Reading room' },
      requester: { id: PEOPLE.megan, displayName: 'Megan Bowen' },
      lifecycle: { lastActivityDate: dayAfter(31) },
    });

    const alexNow = await cardSaying(alex.activityId, /Megan Bowen kept/);
    expect(cardText(alexNow)).toContain(
      `Megan Bowen kept **Reading room**: it counts as active since ${longDay('en-US', 31)}.`,
    );
    expect(verbsOf(alexNow)).toEqual([]);
    const siobhanNow = await cardSaying(siobhan.activityId, /Megan Bowen a gardé/);
    expect(french(siobhanNow)).toContain('Megan Bowen a gardé **Reading room**');
    expect(verbsOf(siobhanNow)).toEqual([]);
  }, 90_000);
});
