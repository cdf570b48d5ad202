import type { TeamLifecycle } from '../../../src/contract';
import { databaseKinds } from '../../support/databases';
import { waitForJob } from '../../support/jobs';
import { DAY, evaluate, lifecycleRecords, provisionTeam, teamEvents } from '../../support/lifecycle';
import { PEOPLE } from '../../support/steward';
import { readTexts } from '../support/englishLeaks';
import {
  cardSaying as saying,
  ENGLISH,
  FRENCH,
  frenchText as french,
  pressOnCard,
  startLifecycleBot,
} from '../support/cardTurns';
import { redeliver } from '../support/redeliver';
import { actionData, cardText, verbsOf } from '../support/fakeConnector';
import { ADELE, ALEX, type BotHarness, SIOBHAN, type TeamsPerson } from '../support/botHarness';

/** The day `days` after today (UTC), as the API writes days. */
const dayAfter = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);
/** That day as an English and a French reader write it. */
const longDay = (locale: string, days: number) =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(`${dayAfter(days)}T00:00:00Z`),
  );

/**
 * The lifecycle cards in chat, with Steward's clock moved and evaluations run on request: the
 * renewal card (Renew · Archive now · I'm not the right person) and the inactivity card (Keep it ·
 * Archive) to every owner, each answer taken as the person through the API, and every owner's card
 * updated in place, through `/api/messages` and the bot's webhook with a real adapter. Alex reads
 * English and Siobhán French; both own the teams, Adele does not.
 */
describe.each(databaseKinds)('lifecycle cards in chat, on %s', (kind) => {
  let bot: BotHarness;
  let offset = 0;

  beforeAll(async () => {
    bot = await startLifecycleBot(kind, () => offset, { english: [ALEX, ADELE], french: [SIOBHAN] }, [
      'renewable',
      'dormant',
      'dormant-archived',
    ]);
  }, 60_000);
  afterEach(() => {
    offset = 0;
  });
  afterAll(() => bot?.close());

  /** A team of `template` that Alex and Siobhán own. */
  const ownedTeam = async (template: string, name: string) => {
    const teamId = await provisionTeam(bot.steward, template, name);
    const alex = await bot.steward.userToken(PEOPLE.alex, [], { name: 'Alex Wilber' });
    const added = await bot.steward.call('POST', `/api/v1.0/teams/${teamId}/members`, {
      token: alex,
      body: { user: { id: SIOBHAN.aadObjectId }, role: 'owner' },
    });
    expect(added.status).toBe(201);
    return teamId;
  };
  /** Moves Steward's clock to `days` from now and evaluates the lifecycle: where its cards start. */
  const evaluateAt = async (days: number) => {
    offset = days * DAY;
    const mark = bot.connector.sent.length;
    await evaluate(bot.steward);
    return mark;
  };
  /** The card with `verb` about `team` posted to `who` since `mark`. */
  const cardOfTeam = (who: TeamsPerson, verb: string, team: string, mark = 0) =>
    bot.connector.waitFor(
      () =>
        bot.connector
          .messages(who.conversationId, mark)
          .find((m) => verbsOf(m.body).includes(verb) && cardText(m.body).includes(team)),
      20_000,
    );
  /** A posted card as it reads now, once `pattern` is on it. */
  const cardSaying = (activityId: string, pattern: RegExp) => saying(bot.connector, activityId, pattern);
  /** A renewable team `name` of Alex's and Siobhán's, evaluated `days` on: their cards with `verb`. */
  const ownersCards = async (name: string, days: number, verb: string) => {
    const teamId = await ownedTeam('renewable', name);
    const mark = await evaluateAt(days);
    const alex = await cardOfTeam(ALEX, verb, name, mark);
    return { teamId, alex, siobhan: await cardOfTeam(SIOBHAN, verb, name, mark) };
  };
  /** Presses `verb` on the card `activityId` as `who`, in their language. */
  const press = (who: TeamsPerson, activityId: string, verb: string, locale = ENGLISH) =>
    pressOnCard(bot, who, activityId, verb, locale);
  /** Presses `verb` of `card`, an answer in place that the connector never saw, on the message `activityId`. */
  const answerWith = (who: TeamsPerson, activityId: string, card: unknown, verb: string) =>
    bot.send(who, {
      type: 'invoke',
      name: 'adaptiveCard/action',
      replyToId: activityId,
      value: { action: { type: 'Action.Execute', verb, data: actionData(card, verb) } },
      ...FRENCH,
    });
  /** The archive jobs of a team. */
  const archiveJobs = (teamId: string) =>
    bot.steward.steward.store.db
      .selectFrom('jobs')
      .select('id')
      .where('team_id', '=', teamId)
      .where('type', '=', 'TeamArchiveRequest')
      .execute();
  const lifecycleOf = async (teamId: string) =>
    (
      await bot.steward.call<TeamLifecycle>('GET', `/api/v1.0/teams/${teamId}/lifecycle`, {
        token: await bot.steward.userToken(PEOPLE.alex),
      })
    ).body;

  it('asks every owner to renew before expiry; a renewal from one card shows on every card, a non-owner is told no', async () => {
    const teamId = await ownedTeam('renewable', 'Harbour');
    const mark = await evaluateAt(336);

    const alex = await cardOfTeam(ALEX, 'renewTeam', 'Harbour', mark);
    const alexCard = bot.connector.currentCard(alex.activityId)!;
    expect(cardText(alexCard)).toContain(`Harbour expires on ${longDay('en-US', 365)}`);
    expect(cardText(alexCard)).toContain('If nobody renews it by then, Steward archives it');
    expect(readTexts(alexCard)).toEqual(
      expect.arrayContaining(['Renew for a year', 'Archive now', 'I’m not the right person']),
    );
    const siobhan = await cardOfTeam(SIOBHAN, 'renewTeam', 'Harbour', mark);
    const siobhanText = french(bot.connector.currentCard(siobhan.activityId)!);
    expect(siobhanText).toContain(`Harbour expire le ${longDay('fr-FR', 365)}`);
    expect(siobhanText).toContain('Renouveler pour un an');
    // Adele owns nothing here and got no card.
    expect(bot.connector.messages(ADELE.conversationId, mark)).toEqual([]);

    // Adele presses Renew on a card forwarded to her: a clear no that says nothing of the team
    // (any team id could be sent), and nothing renewed.
    const refused = await bot.execute(ADELE, 'renewTeam', { teamId }, 'some-forwarded-card');
    expect(refused.body?.value).toBe(
      'Only the owners of this team can see this card, and you are not one of them.',
    );
    expect(JSON.stringify(refused.body)).not.toContain('Harbour');
    expect((await lifecycleOf(teamId)).expiresOn).toBe(dayAfter(365));

    // Siobhán is not the right person: recorded, and her card says what happens next.
    const declined = bot.cardOfAnswer(await press(SIOBHAN, siobhan.activityId, 'notRightPerson', FRENCH));
    expect(french(declined)).toContain(
      'Vous m’avez indiqué ne pas être la bonne personne pour répondre au sujet de **Harbour**',
    );
    expect(verbsOf(declined)).toEqual(['renewTeam', 'archiveTeamNow']);
    const trail = await lifecycleRecords(bot.steward, teamId);
    expect(trail.filter((r) => r.action === 'owner_not_right_person')).toEqual([
      expect.objectContaining({ details: { notice: 'renewal', otherOwnerCount: 1 } }),
    ]);

    // Alex renews from his card: his card in place, Siobhán's updated, the API moved the expiry.
    const renewed = bot.cardOfAnswer(await press(ALEX, alex.activityId, 'renewTeam'));
    expect(cardText(renewed)).toContain(
      `Alex Wilber renewed **Harbour**: it now expires on ${longDay('en-US', 336 + 365)}.`,
    );
    expect(verbsOf(renewed)).toEqual([]);
    const siobhanNow = await cardSaying(siobhan.activityId, /Alex Wilber a renouvelé/);
    expect(french(siobhanNow)).toContain(
      `Alex Wilber a renouvelé **Harbour** : elle expire désormais le ${longDay('fr-FR', 336 + 365)}.`,
    );
    expect(verbsOf(siobhanNow)).toEqual([]);
    expect((await lifecycleOf(teamId)).expiresOn).toBe(dayAfter(336 + 365));
  }, 90_000);

  it('answers a card that names no team, or a malformed one, plainly and changes nothing', async () => {
    for (const verb of ['renewTeam', 'archiveTeamNow', 'keepTeam', 'notRightPerson']) {
      const none = await bot.execute(ALEX, verb, {});
      expect(none.status).toBe(200);
      expect(none.body?.value).toBe('Sorry, that team no longer exists.');
      // A team id the API cannot take: its validation message on an error card, never a crash.
      const mark = bot.connector.sent.length;
      // (Archive asks first; confirmed, it calls the API.)
      const confirmed = verb === 'archiveTeamNow' ? { confirmed: true } : {};
      const odd = await bot.execute(ALEX, verb, {
        teamId: '../has space',
        notice: { not: 'text' },
        ...confirmed,
      });
      expect(odd.status).toBe(200);
      const error = cardText(bot.lastCard(ALEX, mark).card);
      expect(error).toContain('That did not work');
      expect(error).toContain('Not a team id.');
    }
  }, 60_000);

  it('posts each notice once however often it is delivered; the 7-day notice brings the 30-day card up to date', async () => {
    const teamId = await ownedTeam('renewable', 'Pier');
    const mark = await evaluateAt(336);
    const first = await cardOfTeam(ALEX, 'renewTeam', 'Pier', mark);
    const cardsAboutPier = () =>
      bot.connector
        .messages(ALEX.conversationId, mark)
        .filter((m) => verbsOf(m.body).includes('renewTeam') && cardText(m.body).includes('Pier'));

    const deliver = (payload: unknown) => redeliver(bot.steward, 'team_expiring', payload);

    // Steward delivers the same event again (as after a lost answer): no second card.
    const [payload] = await teamEvents(bot.steward, 'team_expiring', teamId);
    await deliver(payload);
    expect(cardsAboutPier()).toHaveLength(1);

    // The 7-day notice is the same notice: the card Alex has is drawn again, not doubled.
    const drawn = bot.connector.updates(first.activityId);
    offset = 359 * DAY;
    await evaluate(bot.steward);
    await bot.connector.waitFor(() => bot.connector.updates(first.activityId) > drawn, 20_000);
    expect(cardsAboutPier()).toHaveLength(1);

    // A notice that arrives twice at once (a retry handled beside the first try) is no card either.
    const sevenDays = (await teamEvents(bot.steward, 'team_expiring', teamId)).find(
      (event) => event.lifecycle?.noticeDays === 7,
    );
    const threeDays = { ...sevenDays, lifecycle: { ...sevenDays?.lifecycle, noticeDays: 3 } };
    await Promise.all([deliver(threeDays), deliver(threeDays)]);
    expect(cardsAboutPier()).toHaveLength(1);
    // Renewed on that one card: it says so in place, and Siobhán's one card says so too.
    const siobhan = await cardOfTeam(SIOBHAN, 'renewTeam', 'Pier', mark);
    const renewed = bot.cardOfAnswer(await press(ALEX, first.activityId, 'renewTeam'));
    expect(cardText(renewed)).toMatch(/Alex Wilber renewed \*\*Pier\*\*/);
    expect(verbsOf(renewed)).toEqual([]);
    await cardSaying(siobhan.activityId, /Alex Wilber a renouvelé \*\*Pier\*\*/);
  }, 90_000);

  it('shows a renewal made elsewhere (the API) on every owner’s card', async () => {
    const { teamId, alex, siobhan } = await ownersCards('Breakwater', 360, 'renewTeam');

    const megan = await bot.steward.userToken(PEOPLE.megan, ['GLOBAL_ADMIN'], { name: 'Megan Bowen' });
    const res = await bot.steward.call('POST', `/api/v1.0/teams/${teamId}/lifecycle/renew`, { token: megan });
    expect(res.status).toBe(200);
    expect(cardText(await cardSaying(alex.activityId, /Megan Bowen renewed/))).toContain(
      `Megan Bowen renewed **Breakwater**: it now expires on ${longDay('en-US', 360 + 365)}.`,
    );
    expect(verbsOf(bot.connector.currentCard(alex.activityId))).toEqual([]);
    french(await cardSaying(siobhan.activityId, /Megan Bowen a renouvelé \*\*Breakwater\*\*/));
  }, 90_000);

  it('archives the team from "Archive now" as the owner, and every card ends at "archived"', async () => {
    const { teamId, alex, siobhan } = await ownersCards('Lighthouse', 340, 'archiveTeamNow');

    // The first press only asks: nothing is archived until she confirms, and Cancel brings the card back.
    const asking = bot.cardOfAnswer(await press(SIOBHAN, siobhan.activityId, 'archiveTeamNow', FRENCH));
    expect(french(asking)).toContain('Archiver **Lighthouse** ?');
    expect(verbsOf(asking)).toEqual(['archiveTeamNow', 'refreshLifecycleCard']);
    expect(actionData(asking, 'archiveTeamNow')).toMatchObject({ teamId, confirmed: true });
    expect(await archiveJobs(teamId)).toHaveLength(0);
    const cancelled = bot.cardOfAnswer(
      await answerWith(SIOBHAN, siobhan.activityId, asking, 'refreshLifecycleCard'),
    );
    expect(verbsOf(cancelled)).toEqual(['renewTeam', 'archiveTeamNow', 'notRightPerson']);
    expect(await archiveJobs(teamId)).toHaveLength(0);
    const archiving = bot.cardOfAnswer(
      await answerWith(SIOBHAN, siobhan.activityId, asking, 'archiveTeamNow'),
    );
    expect(french(archiving)).toMatch(
      /Siobhán O'Connor a demandé à Steward d’archiver \*\*Lighthouse\*\*|est archivée/,
    );
    // Once the archive job is done, Steward's team_archived reaches every card.
    const alexArchived = cardText(await cardSaying(alex.activityId, /Archived by Siobhán O'Connor on /));
    // Said once, with who and when.
    expect(alexArchived.match(/is archived/g)).toHaveLength(1);
    // Its title says what happened, not the expiry that no longer applies.
    expect(alexArchived).toContain('Lighthouse is archived');
    expect(alexArchived).not.toMatch(/expires on/);
    const archivee = french(await cardSaying(siobhan.activityId, /Archivée par Siobhán O'Connor le /));
    expect(archivee.match(/est archivée/g)).toHaveLength(1);
    const megan = await bot.steward.userToken(PEOPLE.megan, ['GLOBAL_ADMIN']);
    const team = await bot.steward.call<{ isArchived: boolean }>('GET', `/api/v1.0/teams/${teamId}`, {
      token: megan,
    });
    expect(team.body.isArchived).toBe(true);
    const requested = await bot.steward.steward.store.db
      .selectFrom('audit_records')
      .select(['actor'])
      .where('action', '=', 'team_archive_requested')
      .execute();
    expect(requested.map((r) => (JSON.parse(r.actor) as { id: string }).id)).toContain(SIOBHAN.aadObjectId);
  }, 90_000);

  it('asks the owners of an inactive team to keep or archive it; "Keep it" makes it active and shows on every card', async () => {
    const kept = await ownedTeam('dormant', 'Quiet room');
    const archived = await ownedTeam('dormant', 'Empty room');
    const mark = await evaluateAt(31);
    const alex = await cardOfTeam(ALEX, 'keepTeam', 'Quiet room', mark);
    const alexText = cardText(bot.connector.currentCard(alex.activityId));
    expect(alexText).toContain(`Nobody has worked in Quiet room since ${longDay('en-US', 0)}`);
    expect(readTexts(bot.connector.currentCard(alex.activityId))).toEqual(
      expect.arrayContaining(['Keep it', 'Archive']),
    );
    const siobhan = await cardOfTeam(SIOBHAN, 'keepTeam', 'Quiet room', mark);
    expect(french(bot.connector.currentCard(siobhan.activityId)!)).toContain(
      `Personne n’a travaillé dans Quiet room depuis le ${longDay('fr-FR', 0)}`,
    );
    expect((await lifecycleOf(kept)).state).toBe('inactive');

    const keep = bot.cardOfAnswer(await press(ALEX, alex.activityId, 'keepTeam'));
    expect(cardText(keep)).toContain(
      `Alex Wilber kept **Quiet room**: it counts as active since ${longDay('en-US', 31)}.`,
    );
    french(await cardSaying(siobhan.activityId, /Alex Wilber a gardé \*\*Quiet room\*\*/));
    expect(await lifecycleOf(kept)).toMatchObject({ state: 'active', lastActivityDateTime: dayAfter(31) });

    // The other team: Siobhán archives it from her inactivity card.
    const empty = await cardOfTeam(SIOBHAN, 'archiveTeamNow', 'Empty room', mark);
    const confirm = bot.cardOfAnswer(await press(SIOBHAN, empty.activityId, 'archiveTeamNow', FRENCH));
    expect(french(confirm)).toContain('Archiver **Empty room** ?');
    const answer = bot.cardOfAnswer(await answerWith(SIOBHAN, empty.activityId, confirm, 'archiveTeamNow'));
    expect(verbsOf(answer)).toEqual([]);
    expect(french(answer)).toContain('Empty room est en cours d’archivage');
    const alexEmpty = await cardOfTeam(ALEX, 'keepTeam', 'Empty room', mark);
    await cardSaying(alexEmpty.activityId, /Empty room is archived[^]*Archived by Siobhán O'Connor on /);
    const megan = await bot.steward.userToken(PEOPLE.megan, ['GLOBAL_ADMIN']);
    const jobs = await bot.steward.steward.store.db
      .selectFrom('jobs')
      .select('id')
      .where('team_id', '=', archived)
      .where('type', '=', 'TeamArchiveRequest')
      .execute();
    expect((await waitForJob(bot.steward, megan, jobs[0]!.id)).status).toBe('completed');
  }, 90_000);

  it('tells the owners, in a plain message, when the policy archived their inactive team', async () => {
    await ownedTeam('dormant-archived', 'Attic');
    const mark = await evaluateAt(31);
    const said = (who: TeamsPerson, pattern: RegExp) =>
      bot.connector.waitFor(
        () =>
          bot.connector
            .messages(who.conversationId, mark)
            .map((m) => String(m.body.text ?? ''))
            .find((text) => pattern.test(text)),
        20_000,
      );
    expect(await said(ALEX, /Attic/)).toBe(
      `Steward is archiving Attic: nobody has worked in it since ${longDay('en-US', 0)}, and your organisation’s lifecycle policy archives inactive teams. An owner can unarchive it if it is still needed.`,
    );
    expect(await said(SIOBHAN, /Attic/)).toMatch(
      /^Steward archive Attic : personne n’y a travaillé depuis le /,
    );
  }, 90_000);
});
