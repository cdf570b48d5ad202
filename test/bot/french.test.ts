import { databaseKinds } from '../support/databases';
import { ADELE, ALEX, type BotHarness, startWithApprovers } from './support/botHarness';
import { actionData, cardOf, cardText, verbsOf } from './support/fakeConnector';

const FRENCH = { locale: 'fr-FR', localTimezone: 'Europe/Paris' };

/** Issue 12, item 9: the request's cards and messages in French, from the activity's locale. */
describe.each(databaseKinds)('Steward in French, on %s', (kind) => {
  let bot: BotHarness;
  beforeAll(async () => {
    bot = await startWithApprovers(kind);
  });
  afterAll(() => bot?.close());

  const execute = (verb: string, data: Record<string, unknown>, extra: Record<string, unknown> = FRENCH) =>
    bot.send(ALEX, {
      type: 'invoke',
      name: 'adaptiveCard/action',
      value: { action: { type: 'Action.Execute', verb, data } },
      ...extra,
    });

  it('greets, confirms, follows and ends a request in French, with times in Paris', async () => {
    let mark = bot.connector.sent.length;
    await bot.send(ALEX, { type: 'message', text: 'bonjour', ...FRENCH });
    expect(cardText(bot.lastCard(ALEX, mark).card)).toContain('Bonjour Alex, je suis Steward');

    mark = bot.connector.sent.length;
    const form = bot.cardOfAnswer(await execute('pickTemplate', { templateId: 'client-engagement' }));
    const confirmation = bot.cardOfAnswer(
      await execute('submitRequest', { ...actionData(form, 'submitRequest'), name: 'Fourmi' }),
    );
    const confirmed = cardText(confirmation);
    expect(confirmed).toContain('Demande reçue');
    expect(confirmed).toContain('Votre équipe s’appellera **CLI-US-Fourmi**.');
    expect(confirmed).toContain("Adele Vance et Siobhán O'Connor décideront");
    // The request's time, in Paris: the same instant as the job's, formatted for a French reader.
    const jobId = String(actionData(confirmation, 'showStatus')!.jobId);
    const job = await bot.steward.call<{ createdDateTime: string }>('GET', `/api/v1.0/jobs/${jobId}`, {
      token: await bot.steward.userToken(ALEX.aadObjectId),
    });
    const paris = new Intl.DateTimeFormat('fr-FR', {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: 'Europe/Paris',
    }).format(new Date(job.body.createdDateTime));
    expect(confirmed).toContain(`Demandée le ${paris}`);

    const progress = bot.lastCard(ALEX, mark);
    expect(cardText(progress.card)).toContain(
      "En attente de l’approbation de Adele Vance et Siobhán O'Connor",
    );
    expect(cardText(progress.card)).toContain('Approbation');

    const approval = await bot.connector.waitFor(() =>
      bot.connector.messages(ADELE.conversationId, mark).find((m) => verbsOf(m.body).includes('approve')),
    );
    const approvalId = String(actionData(cardOf(approval.body), 'approve')!.approvalId);
    const decidedAt = bot.connector.sent.length;
    await bot.execute(ADELE, 'approve', { approvalId, comment: 'Parfait' });

    // The card keeps the requester's language on every update, and the new message is French too.
    const ready = await bot.connector.waitFor(() => {
      const card = bot.connector.currentCard(progress.activityId);
      return card && /Votre équipe est prête/.test(cardText(card)) ? card : undefined;
    }, 20_000);
    expect(cardText(ready)).toContain('Approuvée par Adele Vance');
    expect(cardText(ready)).toContain('Publier le message de bienvenue');
    expect(JSON.stringify(ready)).toContain('"title":"Ouvrir l’équipe"');
    const notice = await bot.connector.waitFor(() =>
      bot.connector
        .messages(ALEX.conversationId, decidedAt)
        .find((m) => /est prête\./.test(cardText(m.body))),
    );
    expect(cardText(notice.body)).toContain('Adele Vance l’a approuvée : “Parfait”');
  }, 60_000);

  it('lists requests and helps in French', async () => {
    let mark = bot.connector.sent.length;
    await bot.send(ALEX, { type: 'message', text: 'my requests', ...FRENCH });
    const list = cardText(bot.lastCard(ALEX, mark).card);
    expect(list).toContain('Mes demandes');
    expect(list).toContain('CLI-US-Fourmi');
    expect(list).toContain('Prête');
    mark = bot.connector.sent.length;
    await bot.send(ALEX, { type: 'message', text: 'fais-moi un sandwich', ...FRENCH });
    expect(cardText(bot.lastCard(ALEX, mark).card)).toContain(
      'Je n’ai pas compris « fais-moi un sandwich ».',
    );
  });

  it('falls back to English for a language it does not speak', async () => {
    const mark = bot.connector.sent.length;
    await bot.send(ALEX, { type: 'message', text: 'hello', locale: 'de-DE', localTimezone: 'Europe/Berlin' });
    expect(cardText(bot.lastCard(ALEX, mark).card)).toContain('Hi Alex, I am Steward');
  });
});
