import {
  cardSaying as sayingCard,
  cardWithVerb,
  ENGLISH,
  FRENCH,
  frenchText,
  greet,
  requestInChat,
  textPostedTo,
} from '../support/cardTurns';
import { PERSON_READS } from '../../../src/bot';
import { databaseKinds } from '../../support/databases';
import { PEOPLE } from '../../support/steward';
import { actionData, cardOf, cardText, verbsOf } from '../support/fakeConnector';
import { ADELE, ALEX, LYNNE, MEGAN, SIOBHAN, startBotHarness, type TeamsPerson } from '../support/botHarness';
import { suiteBot } from '../support/suiteBot';

const HOUR = 3_600_000;

/**
 * The cards of an approval stage's timers, with Steward's clock moved instead of waiting: the
 * reminder's nudge, the escalation team's card (decided from it), and the cards of an expired
 * request, through `/api/messages` and the bot's webhook with a real adapter. Adele and Megan read
 * English, Siobhán and Lynne French, so every card is checked in both languages.
 */
describe.each(databaseKinds)('approval timers in chat, on %s', (kind) => {
  const bot = suiteBot((offset) =>
    startBotHarness(kind, { STEWARD_JOB_POLL_MS: '25' }, { clock: () => Date.now() + offset() }),
  );

  beforeAll(async () => {
    await greet(bot, { english: [ADELE, MEGAN], french: [SIOBHAN, LYNNE] });
    const patti = await bot.steward.userToken(PEOPLE.patti, ['CATALOG_MANAGER']);
    const stage = (name: string, people: string[]) => ({
      name,
      approvers: { kind: 'people', people: people.map((id) => ({ id })) },
    });
    const put = await bot.steward.call('PUT', '/api/v1.0/catalog/templates/timed-cards', {
      token: patti,
      body: {
        templateConfiguration: {
          name: 'Timed cards',
          approval: {
            requireApproval: true,
            stages: [stage('Legal', [PEOPLE.adele, SIOBHAN.aadObjectId]), stage('Finance', [PEOPLE.isaiah])],
            reminderAfterHours: 24,
            escalateAfterHours: 72,
            escalationTeam: [{ id: PEOPLE.megan }, { id: PEOPLE.lynne }],
            expireAfterDays: 5,
          },
        },
      },
    });
    expect(put.status).toBe(200);
  }, 60_000);

  /** Alex asks for a team in chat, in `locale`; resolves to the job and the progress card's activity. */
  const request = async (name: string, locale: Record<string, string>) => {
    const { jobId, progress } = await requestInChat(bot, ALEX, 'timed-cards', { name }, undefined, locale);
    return { jobId, progress: progress.activityId };
  };
  /**
   * How long a card may take to change. The expiries reach the cards in well under a second; they
   * once took 17.5 s, when each delivery waited for a read paced among the requester's (3 s apart)
   * and so held one of Steward's workers.
   */
  const WINDOW_MS = 20_000;
  /** The approval card of the request `team` posted to `who` since `mark`. */
  const approvalCardOf = (who: TeamsPerson, team: string, mark = 0) =>
    cardWithVerb(bot.connector, who, 'approve', team, mark, WINDOW_MS);
  /** A posted card as it reads now, once `pattern` is on it. */
  const cardSaying = (activityId: string, pattern: RegExp) =>
    sayingCard(bot.connector, activityId, pattern, WINDOW_MS);
  /** A plain message posted to `who` since `mark` that matches `pattern`. */
  const messageSaying = (who: TeamsPerson, mark: number, pattern: RegExp) =>
    textPostedTo(bot.connector, who, mark, pattern, WINDOW_MS);
  /** What a French reader reads on a card, with no sentence of the English catalog on it. */
  const french = frenchText;
  const job = async (jobId: string) =>
    (
      await bot.steward.call<{ status: string; data: { approval: { stages: Array<{ id: string }> } } }>(
        'GET',
        `/api/v1.0/jobs/${jobId}`,
        { token: await bot.steward.userToken(PEOPLE.alex) },
      )
    ).body;

  it('reminds the undecided approvers, then brings in the escalation team, who decide from their card', async () => {
    const { jobId, progress } = await request('Relance', ENGLISH);
    const adele = await approvalCardOf(ADELE, 'Relance');
    const siobhan = await approvalCardOf(SIOBHAN, 'Relance');
    expect(cardText(bot.connector.currentCard(adele.activityId))).not.toMatch(/Reminder/);

    // 25 hours later: each approver's card says it waits for them, and a nudge follows in their chat.
    let mark = bot.connector.sent.length;
    bot.moveBy(25 * HOUR);
    const reminded = await cardSaying(
      adele.activityId,
      /Reminder: this request has been waiting for your decision since/,
    );
    expect(cardText(reminded)).toContain('Stage 1 of 2: Legal');
    expect(verbsOf(reminded)).toEqual(expect.arrayContaining(['approve', 'reject']));
    expect(await messageSaying(ADELE, mark, /^Reminder/)).toBe(
      'Reminder: Alex Wilber’s request for “Relance” is waiting for your decision.',
    );
    const rappel = french(await cardSaying(siobhan.activityId, /Rappel/));
    expect(rappel).toContain('Rappel : cette demande attend votre décision depuis le');
    expect(rappel).toContain('Étape 1 sur 2 : Legal');
    expect(rappel).toContain('Approuver');
    expect(await messageSaying(SIOBHAN, mark, /^Rappel/)).toMatch(
      /^Rappel : la demande d’Alex Wilber pour « Relance » attend votre décision\.$/,
    );
    // The escalation team has nothing yet.
    expect(bot.connector.messages(MEGAN.conversationId, mark).filter((m) => cardOf(m.body))).toEqual([]);

    // 73 hours: the escalation team gets the card, saying why it came to them.
    mark = bot.connector.sent.length;
    bot.moveBy(73 * HOUR);
    const megan = await approvalCardOf(MEGAN, 'Relance', mark);
    const meganText = cardText(bot.connector.currentCard(megan.activityId));
    expect(meganText).toContain(
      'This request came to you because nobody decided on stage “Legal” within 72 hours.',
    );
    expect(meganText).toContain('Alex Wilber asks for a new team **Relance**.');
    expect(meganText).not.toMatch(/Reminder/);
    const lynne = await approvalCardOf(LYNNE, 'Relance', mark);
    const lynneText = french(bot.connector.currentCard(lynne.activityId)!);
    expect(lynneText).toContain(
      'Cette demande vous parvient car personne n’a décidé de l’étape « Legal » en 72 heures.',
    );
    expect(lynneText).toContain('Étape 1 sur 2 : Legal');

    // Lynne approves from her card: stage 2 opens, and every stage 1 card shows her decision.
    const legalId = String(actionData(bot.connector.currentCard(lynne.activityId), 'approve')!.approvalId);
    const decided = bot.cardOfAnswer(
      await bot.send(LYNNE, {
        type: 'invoke',
        name: 'adaptiveCard/action',
        replyToId: lynne.activityId,
        value: { action: { type: 'Action.Execute', verb: 'approve', data: { approvalId: legalId } } },
        ...FRENCH,
      }),
    );
    expect(french(decided)).toMatch(/Lynne Robbins a approuvé \*\*Relance\*\* le /);
    expect(cardText(await cardSaying(adele.activityId, /Lynne Robbins approved \*\*Relance\*\*/))).toContain(
      'Approved',
    );
    expect(french(await cardSaying(siobhan.activityId, /Lynne Robbins a approuvé/))).toContain('Approuvée');
    await cardSaying(progress, /Stage 2 of 2: Finance, waiting for Isaiah Langer/);
    expect((await job(jobId)).status).toBe('waiting');
  }, 90_000);

  it('shows an expired request on every approver’s card and tells the requester, in their language', async () => {
    // Timers count from when a stage opens, at the clock as it is now.
    const english = await request('Lapse', ENGLISH);
    const frenchRequest = await request('Caduque', FRENCH);
    const adele = await approvalCardOf(ADELE, 'Lapse');
    const siobhan = await approvalCardOf(SIOBHAN, 'Caduque');
    const mark = bot.connector.sent.length;
    bot.moveBy(121 * HOUR);

    // The approvers' cards, updated in place: nobody decided in time, and no buttons are left.
    const lapsed = await cardSaying(adele.activityId, /Expired/);
    expect(cardText(lapsed)).toMatch(/Nobody decided on \*\*Lapse\*\* in time: the request expired on /);
    expect(verbsOf(lapsed)).not.toContain('approve');
    const caduque = await cardSaying(siobhan.activityId, /Expirée/);
    expect(french(caduque)).toMatch(
      /Personne n’a décidé de \*\*Caduque\*\* à temps : la demande a expiré le /,
    );
    expect(verbsOf(caduque)).not.toContain('approve');

    // The requester: the progress card says so, and a new message tells them.
    const progressEn = cardText(await cardSaying(english.progress, /The request expired/));
    expect(progressEn).toContain('Nobody decided on stage “Legal” within 5 days.');
    const progressFr = french(await cardSaying(frenchRequest.progress, /La demande a expiré/));
    expect(progressFr).toContain('Personne n’a décidé de l’étape « Legal » en 5 jours.');
    // The API's English reason is not what a French reader gets.
    expect(progressFr).not.toMatch(/Expired: nobody decided/);
    const ended = (pattern: RegExp) =>
      bot.connector.waitFor(
        () =>
          bot.connector
            .messages(ALEX.conversationId, mark)
            .map((m) => cardOf(m.body))
            .find((card) => card && pattern.test(cardText(card))),
        WINDOW_MS,
      );
    expect(cardText(await ended(/Your request for Lapse expired\./))).toContain(
      'Nobody decided on stage “Legal” within 5 days.',
    );
    expect(french((await ended(/Votre demande pour Caduque a expiré\./))!)).toContain(
      'Personne n’a décidé de l’étape « Legal » en 5 jours.',
    );
    expect((await job(english.jobId)).status).toBe('failed');

    // The bot answered every delivery of the timers' events without waiting its turn among the
    // reads it makes for Alex (one every few seconds): a delivery it held would hold one of
    // Steward's workers, and the cards of every event behind it.
    const deliveries = await bot.steward.steward.store.db
      .selectFrom('hook_deliveries')
      .select(['event_type', 'response_ms'])
      .where('event_type', 'in', [
        'team_creation_approval_reminder',
        'team_creation_approval_escalated',
        'team_provisioning_failed',
      ])
      .execute();
    expect(deliveries.length).toBeGreaterThanOrEqual(6);
    expect(deliveries.filter((d) => (d.response_ms ?? 0) >= PERSON_READS.spacingMs)).toEqual([]);
  }, 90_000);
});
