import path from 'node:path';
import { englishOn } from '../bot/support/englishLeaks';
import { Artifacts, type Card, cardOf, cardShows, findAction, inputsOf } from './support/cards';
import type { Playground } from './support/playground';
import { describeWithPlayground, type E2eStack, startE2eStack } from './support/stack';
import { cardInPlace, cardWith, findOpenTeam, STEP_MS, submitForm, view } from './support/steps';

/**
 * The whole flow in French through the Microsoft 365 Agents Playground. This playground version
 * sends `locale: "en-US"` in every activity (and in its `clientInfo` entity) whatever the page or
 * its config says, so Alex and Adele choose French as a Teams user can: by typing `language fr`.
 * Their playgrounds run in Paris time, sent as each activity's `localTimezone`.
 */

const PARIS = 'Europe/Paris';

/** A card read in French: no sentence of the English catalog on it. */
function expectFrench(card: Card): void {
  expect(englishOn(card)).toEqual([]);
}

/** Types `language fr` and waits for the answer, in French. */
async function chooseFrench(playground: Playground): Promise<void> {
  const sentAt = Date.now();
  await playground.say('language fr');
  await playground.stream.waitFor(
    `${playground.user.name}'s language answer`,
    (message) =>
      message.timestamp >= sentAt - 5_000 && /Désormais, je vous parle en français/.test(message.text ?? '')
        ? message
        : undefined,
    STEP_MS,
  );
}

describeWithPlayground()('a team request in French, through the Agents Playground', () => {
  let stack: E2eStack;
  const artifacts = new Artifacts(path.join(__dirname, 'artifacts', 'fr'));

  beforeAll(async () => {
    stack = await startE2eStack(PARIS);
  }, 90_000);

  afterAll(() => stack?.close(artifacts.dir), 30_000);

  it('requests, approves and opens a team with every card in French', async () => {
    const { alex, adele } = stack;
    for (const playground of [adele, alex]) {
      await playground.install();
      await cardWith(playground, 'requestTeam');
      await chooseFrench(playground);
    }

    await alex.say('new team');
    const gallery = await alex.stream.waitFor(
      'the gallery, in French',
      (message) => {
        const card = cardOf(message);
        return card && cardShows(card, /Choisissez un modèle/) ? { message, card } : undefined;
      },
      STEP_MS,
    );
    expectFrench(gallery.card);
    // The templates too, in French where they have it.
    expect(cardShows(gallery.card, /Mission client/)).toBe(true);
    artifacts.save('alex-gallery', view(gallery.card, gallery.message));

    const pick = findAction(gallery.card, 'pickTemplate', { templateId: 'client-engagement' })!;
    expect(pick.title).toBe('Choisir');
    const picked = await alex.execute(gallery.message.messageId, 'pickTemplate', pick.data!, pick.title);
    const form = cardInPlace(picked);
    expectFrench(form);
    expect(cardShows(form, /Nouvelle équipe : Mission client/)).toBe(true);
    expect(findAction(form, 'submitRequest')?.title).toBe('Demander l’équipe');
    artifacts.save('alex-request-form', view(form, gallery.message, picked));

    const { waiting, confirmation } = await submitForm(
      alex,
      gallery.message.messageId,
      form,
      { ...inputsOf(form), name: 'Fourmi', description: 'Notre travail avec Fabrikam.' },
      'alex',
      artifacts,
      /approbation/i,
    );
    expectFrench(confirmation);
    expect(cardShows(confirmation, /Votre équipe s’appellera \*\*CLI-US-Fourmi\*\*/)).toBe(true);
    expectFrench(waiting.card);
    expect(cardShows(waiting.card, /En attente de l’approbation d’une personne parmi Adele Vance/)).toBe(
      true,
    );

    const approval = await cardWith(adele, 'approve');
    expectFrench(approval.card);
    expect(cardShows(approval.card, /Alex Wilber demande une nouvelle équipe \*\*CLI-US-Fourmi\*\*/)).toBe(
      true,
    );
    artifacts.save('adele-approval', view(approval.card, approval.message));
    const approve = findAction(approval.card, 'approve')!;
    expect(approve.title).toBe('Approuver');
    const approvedAt = Date.now();
    const approved = await adele.execute(
      approval.message.messageId,
      'approve',
      { ...approve.data, ...inputsOf(approval.card), comment: 'Très bien, allez-y' },
      approve.title,
    );
    const decided = cardInPlace(approved);
    expectFrench(decided);
    expect(cardShows(decided, /Adele Vance a approuvé \*\*CLI-US-Fourmi\*\*/)).toBe(true);
    artifacts.save('adele-approval-decided', view(decided, approval.message, approved));

    const done = await alex.stream.waitFor(
      'the progress card, ready, in French',
      (message) => {
        const card = message.messageId === waiting.message.messageId ? cardOf(message) : undefined;
        const open = card && findOpenTeam(card, 'Ouvrir l’équipe');
        return open ? { message, card: card!, url: open } : undefined;
      },
      60_000,
    );
    expectFrench(done.card);
    expect(cardShows(done.card, /Votre équipe est prête/)).toBe(true);
    expect(cardShows(done.card, /Approuvée par Adele Vance/)).toBe(true);
    expect(cardShows(done.card, /Très bien, allez-y/)).toBe(true);
    // Dates in Paris time, as the playground's activities said: "mis à jour le 23 nov. 2026, 23:05".
    // French typography: a narrow no-break space before the percent sign.
    expect(cardShows(done.card, /100\u202f% · mis à jour le \d{1,2} \S+ \d{4}/)).toBe(true);
    artifacts.save('alex-progress-completed', view(done.card, done.message));

    const notice = await alex.stream.waitFor('a new "prête" message', (message) => {
      const card = cardOf(message);
      return card && message.timestamp >= approvedAt - 5_000 && cardShows(card, /est prête\./)
        ? { message, card }
        : undefined;
    });
    expectFrench(notice.card);
    expect(findOpenTeam(notice.card, 'Ouvrir l’équipe')).toBe(done.url);
    artifacts.save('alex-ready-message', view(notice.card, notice.message));
  }, 180_000);
});
