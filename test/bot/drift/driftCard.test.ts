import { renderDriftCard } from '../../../src/bot/drift/driftCard';
import type { Reader } from '../../../src/bot/i18n/catalog';
import { englishOn, readTexts } from '../support/englishLeaks';
import { cardOf, verbsOf } from '../support/fakeConnector';

const EN: Reader = { language: 'en', locale: 'en-US', timeZone: 'UTC' };
const FR: Reader = { language: 'fr', locale: 'fr-FR', timeZone: 'Europe/Paris' };

const base = {
  teamId: 'team-1',
  teamName: 'Apollo',
  templateName: 'Project team',
  version: 3,
  parts: [
    { kind: 'channel', name: 'Deliverables' },
    { kind: 'tab', name: 'Risks (Planning)' },
  ],
};

/** The owners' drift card as people read it, with its real plurals, in English and French. */
describe("the owners' drift card", () => {
  const texts = (card: ReturnType<typeof renderDriftCard>) => readTexts(cardOf({ attachments: [card] })!);

  test('names what the template now has, and asks with "Add them" and "Not now"', () => {
    const card = renderDriftCard(base, EN);
    expect(texts(card)).toEqual(
      expect.arrayContaining([
        'The Project team template has changed',
        'The **Project team** template now has a channel named **Deliverables** and a tab named **Risks (Planning)**. Add them to **Apollo**?',
        'Add them',
        'Not now',
      ]),
    );
    expect(verbsOf(cardOf({ attachments: [card] })!)).toEqual([
      'addTemplateChanges',
      'declineTemplateChanges',
    ]);
  });

  test('in French, with nothing of the English catalog', () => {
    const card = cardOf({ attachments: [renderDriftCard(base, FR)] })!;
    expect(englishOn(card)).toEqual([]);
    expect(readTexts(card)).toEqual(
      expect.arrayContaining([
        'Le modèle **Project team** comporte désormais un canal **Deliverables** et un onglet **Risks (Planning)**. Les ajouter à **Apollo** ?',
        'Les ajouter',
        'Pas maintenant',
      ]),
    );
  });

  test('many parts: the first five named, the others counted', () => {
    const parts = Array.from({ length: 7 }, (_, i) => ({ kind: 'channel', name: `Channel ${i + 1}` }));
    expect(texts(renderDriftCard({ ...base, parts }, EN)).join('\n')).toContain(
      'a channel named **Channel 5**, and 2 more changes. Add them',
    );
    expect(texts(renderDriftCard({ ...base, parts: parts.slice(0, 6) }, FR)).join('\n')).toContain(
      'un canal **Channel 5** et 1 autre changement. Les ajouter',
    );
  });

  test('once answered, no button: who answered and what', () => {
    const added = renderDriftCard(
      { ...base, answer: { name: 'Adele Vance', self: false, answer: 'add' } },
      EN,
    );
    expect(texts(added)).toContain(
      'Adele Vance chose to add them: Steward is adding a channel named **Deliverables** and a tab named **Risks (Planning)** to **Apollo**.',
    );
    expect(verbsOf(cardOf({ attachments: [added] })!)).toEqual([]);
    const declined = renderDriftCard(
      { ...base, parts: base.parts.slice(0, 1), answer: { name: '', self: false, answer: 'notNow' } },
      FR,
    );
    expect(texts(declined)).toContain(
      'Un autre propriétaire a choisi de ne pas l’ajouter pour l’instant. La question sera reposée aux propriétaires au prochain changement du modèle **Project team**.',
    );
  });
});
