import { readerOf, say } from '../../../src/bot/i18n/catalog';

const french = readerOf('fr-FR', 'Europe/Paris');
const english = readerOf('en-US', 'UTC');

/** The French sentences read as French, whatever names fill them. */
describe('French sentences around names', () => {
  it('elides "de" before a name that starts with a vowel, and only then', () => {
    expect(say(french, 'progress.waitingForOne', { names: "Adele Vance et Siobhán O'Connor" })).toBe(
      "En attente de l’approbation d’Adele Vance et Siobhán O'Connor",
    );
    expect(say(french, 'progress.waitingForOne', { names: 'Megan Bowen' })).toBe(
      'En attente de l’approbation de Megan Bowen',
    );
    expect(say(french, 'readOnly.waitingForOne', { names: 'Émilie Roux' })).toBe(
      'En attente de la décision d’Émilie Roux.',
    );
    expect(say(french, 'approval.nudge', { requester: 'Alex Wilber', team: 'CLI-US-Acme' })).toBe(
      'Rappel : la demande d’Alex Wilber pour « CLI-US-Acme » attend votre décision.',
    );
  });

  it('leaves English sentences and missing values as they are', () => {
    expect(say(english, 'progress.waitingForOne', { names: 'Adele Vance' })).toBe(
      'Waiting for approval by Adele Vance',
    );
    expect(say(french, 'progress.waitingForOne')).toBe('En attente de l’approbation de {names}');
  });

  it('agrees with one unreachable approver as with several, and with any field the template sets', () => {
    const one = say(french, 'progress.unreachable', { names: "Siobhán O'Connor" });
    expect(one).toBe(
      "Je n’ai pas encore pu joindre Siobhán O'Connor dans Teams ; je continue d’essayer. Vous pouvez aussi prévenir Siobhán O'Connor vous-même.",
    );
    for (const field of ['Description', 'Message de bienvenue']) {
      expect(say(french, 'form.conventionSet', { field, rule: 'Engagement with {Team name}' })).toBe(
        `${field} : le modèle s’en charge (« Engagement with {Team name} »).`,
      );
    }
  });
});
