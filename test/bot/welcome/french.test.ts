import { frenchText } from '../support/cardTurns';
import { databaseKinds } from '../../support/databases';
import { ADELE, ALEX, MEGAN, startWithApprovers } from '../support/botHarness';
import { actionData, cardOf, cardText, verbsOf } from '../support/fakeConnector';
import { suiteBot } from '../support/suiteBot';

const FRENCH = { locale: 'fr-FR', localTimezone: 'Europe/Paris' };

/** The request's cards and messages in French, from the activity's locale. */
describe.each(databaseKinds)('Steward in French, on %s', (kind) => {
  const bot = suiteBot(() => startWithApprovers(kind));
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
    // Either one is enough: the sentence does not read as if both had to decide.
    expect(confirmed).toContain(
      "la décision d’une seule personne parmi Adele Vance et Siobhán O'Connor suffit",
    );
    // The request's time, in Paris: the same instant as the job's, formatted for a French reader.
    const jobId = String(actionData(bot.progressCard(ALEX, mark).card, 'showStatus')!.jobId);
    const job = await bot.steward.call<{ createdDateTime: string }>('GET', `/api/v1.0/jobs/${jobId}`, {
      token: await bot.steward.userToken(ALEX.aadObjectId),
    });
    const paris = new Intl.DateTimeFormat('fr-FR', {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: 'Europe/Paris',
    }).format(new Date(job.body.createdDateTime));
    expect(confirmed).toContain(`Demandée le ${paris}`);

    const progress = bot.progressCard(ALEX, mark);
    expect(cardText(progress.card)).toContain(
      "En attente de l’approbation d’une personne parmi Adele Vance et Siobhán O'Connor",
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
    // Each state agrees with its step ("Approbation" is feminine, "Ajout" masculine); the steps that
    // did not apply (no welcome message here) are not listed.
    expect(cardText(ready)).toContain('Approbation\nTerminée');
    expect(cardText(ready)).toContain('Ajout des propriétaires et des membres\nTerminé\n');
    expect(cardText(ready)).not.toMatch(/Ignoré|Publication du message de bienvenue/);
    expect(JSON.stringify(ready)).toContain('"title":"Ouvrir l’équipe"');
    const notice = await bot.connector.waitFor(() =>
      bot.connector
        .messages(ALEX.conversationId, decidedAt)
        .find((m) => /est prête\./.test(cardText(m.body))),
    );
    expect(cardText(notice.body)).toContain('Adele Vance l’a approuvée : « Parfait »');
  }, 60_000);

  it('lists requests and helps in French', async () => {
    const list = cardText(await bot.reply(ALEX, { type: 'message', text: 'my requests', ...FRENCH }));
    expect(list).toContain('Mes demandes');
    expect(list).toContain('CLI-US-Fourmi');
    expect(list).toContain('Prête');
    const sandwich = await bot.reply(ALEX, { type: 'message', text: 'fais-moi un sandwich', ...FRENCH });
    // Nothing of Steward's in it: said honestly, with what Steward can do.
    expect(cardText(sandwich)).toContain('il ne peut pas vous aider pour « fais-moi un sandwich »');
  });

  /** A card in French: what it says, and no sentence of the English catalog anywhere on it. */
  const french = frenchText;

  it('shows the gallery, the form and its problems, and an error card in French', async () => {
    const gallery = french(await bot.reply(ALEX, { type: 'message', text: 'new team', ...FRENCH }));
    expect(gallery).toContain('Choisissez un modèle');
    expect(gallery).toContain('Approbation requise');
    expect(gallery).toContain('Choisir');
    // The templates' own names and descriptions, in French where the template has them.
    expect(gallery).toContain('Mission client');
    expect(gallery).toContain('Une équipe privée partagée avec un compte client.');
    expect(gallery).not.toContain('Client engagement');

    const form = bot.cardOfAnswer(await execute('pickTemplate', { templateId: 'client-engagement' }));
    const formText = french(form);
    expect(formText).toContain('Nouvelle équipe : Mission client');
    expect(formText).toContain('Nom de l’équipe');
    expect(formText).toContain('Demander l’équipe');
    expect(formText).toContain('Vérifier le nom');
    expect(formText).toContain('Confidentialité');
    expect(formText).toContain("Requise : Adele Vance ou Siobhán O'Connor");
    expect(JSON.stringify(form)).toContain('sans \\" * : < > ? / ni');

    // "Check name" with a forbidden character: the form again, the problem said in French.
    const checked = bot.cardOfAnswer(
      await execute('checkName', { ...actionData(form, 'checkName'), name: 'Ventes/Marketing' }),
    );
    expect(french(checked)).toContain('Un nom d’équipe ne peut pas contenir');

    // A template that is not there: the error card, in French, with its buttons.
    const errorAt = bot.connector.sent.length;
    await execute('pickTemplate', { templateId: 'no-such-template' });
    const errorText = french(bot.lastCard(ALEX, errorAt).card);
    expect(errorText).toContain('Introuvable');
    expect(errorText).toContain('Désolé, ce modèle n’existe plus.');
    expect(errorText).toContain('Mes demandes');
  });

  it('gives each approver the approval cards in their own language', async () => {
    // Adele writes in French; Siobhán, in English, keeps her English card.
    await bot.send(ADELE, { type: 'message', text: 'bonjour', ...FRENCH });
    const mark = bot.connector.sent.length;
    const form = bot.cardOfAnswer(await execute('pickTemplate', { templateId: 'client-engagement' }));
    await execute('submitRequest', { ...actionData(form, 'submitRequest'), name: 'Cigale' });
    const posted = await bot.connector.waitFor(() =>
      bot.connector
        .messages(ADELE.conversationId, mark)
        .find((m) => verbsOf(m.body).includes('approve') && /Cigale/.test(cardText(m.body))),
    );
    const approval = cardOf(posted.body)!;
    const approvalText = french(approval);
    expect(approvalText).toContain('Approbation requise');
    expect(approvalText).toContain('Alex Wilber demande une nouvelle équipe **CLI-US-Cigale**.');
    expect(approvalText).toContain('Propriétaires');
    expect(approvalText).toContain('Approuver');
    expect(approvalText).toContain('Refuser');
    expect(approvalText).toMatch(/Demandée le \{\{DATE\([^)]+, SHORT\)\}\} à \{\{TIME\(/);
    const approvalId = String(actionData(approval, 'approve')!.approvalId);

    // Someone outside the approval team refreshes the card: the read-only card, in their French.
    const readOnly = bot.cardOfAnswer(
      await bot.send(MEGAN, {
        type: 'invoke',
        name: 'adaptiveCard/action',
        value: { action: { type: 'Action.Execute', verb: 'refreshApproval', data: { approvalId } } },
        ...FRENCH,
      }),
    );
    expect(french(readOnly)).toContain('Seule l’équipe d’approbation de ce modèle');

    const decided = bot.cardOfAnswer(
      await bot.send(ADELE, {
        type: 'invoke',
        name: 'adaptiveCard/action',
        value: { action: { type: 'Action.Execute', verb: 'approve', data: { approvalId, comment: 'Oui' } } },
        ...FRENCH,
      }),
    );
    const decidedText = french(decided);
    expect(decidedText).toContain('Approuvée');
    expect(decidedText).toMatch(/Adele Vance a approuvé \*\*CLI-US-Cigale\*\* le /);
    // The team is then made, and Alex told so in French: waited for here, so that the message
    // cannot arrive in the middle of the next test's exchange.
    const ready = await bot.connector.waitFor(() =>
      bot.connector
        .messages(ALEX.conversationId, mark)
        .map((m) => cardText(m.body))
        .find((text) => text.includes('Votre équipe CLI-US-Cigale est prête.')),
    );
    expect(ready).toContain('Adele Vance l’a approuvée : « Oui »');
  }, 60_000);

  it('speaks the language a person chooses, whatever their client says', async () => {
    const english = { locale: 'en-US', localTimezone: 'Europe/Paris' };
    let mark = bot.connector.sent.length;
    await bot.send(ALEX, { type: 'message', text: 'language fr', ...english });
    const chosen = bot.connector.messages(ALEX.conversationId, mark).map((m) => String(m.body.text ?? ''));
    expect(chosen.join('\n')).toContain('Désormais, je vous parle en français.');
    const help = french(await bot.reply(ALEX, { type: 'message', text: 'help', ...english }));
    expect(help).toContain('Ce que je comprends');
    expect(help).toContain('Choisir ma langue');

    await bot.send(ALEX, { type: 'message', text: 'language klingon', ...english });
    mark = bot.connector.sent.length;
    await bot.send(ALEX, { type: 'message', text: 'language auto', ...english });
    expect(bot.connector.messages(ALEX.conversationId, mark).map((m) => m.body.text)).toContain(
      'From now on I speak the language of your Teams client.',
    );
    expect(cardText(await bot.reply(ALEX, { type: 'message', text: 'help', ...english }))).toContain(
      'What I understand',
    );
  });

  it('falls back to English for a language it does not speak', async () => {
    const mark = bot.connector.sent.length;
    await bot.send(ALEX, { type: 'message', text: 'hello', locale: 'de-DE', localTimezone: 'Europe/Berlin' });
    expect(cardText(bot.lastCard(ALEX, mark).card)).toContain('Hi Alex, I am Steward');
  });
});
