import { CardVerb } from '../../../src/bot/cards/cardVerbs';
import { renderErrorCard } from '../../../src/bot/cards/errorCard';
import { renderHelpCard } from '../../../src/bot/shared/helpCard';
import { renderWelcomeCard } from '../../../src/bot/welcome/welcomeCard';
import { cardJson, expectValidCard, findAll } from './cardAssertions';
import { readerOf } from '../../../src/bot/i18n/catalog';

const verbs = (card: ReturnType<typeof renderHelpCard>) =>
  findAll(card.content, 'Action.Execute').map((action) => action.verb);

describe('welcome card', () => {
  it('greets by first name and offers to request a team, list requests or get help', () => {
    const card = renderWelcomeCard({ userName: 'Alex Wilber' });
    expectValidCard(card);
    expect(cardJson(card)).toContain('Hi Alex, I am Steward');
    expect(verbs(card)).toEqual([
      CardVerb.requestTeam,
      CardVerb.myRequests,
      CardVerb.myApprovals,
      CardVerb.help,
    ]);
    expect(cardJson(renderWelcomeCard({ userName: null }))).toContain('Hi, I am Steward');
  });

  it('says that plain words are understood and names my approvals, in English and French', () => {
    const english = cardJson(renderWelcomeCard({ userName: 'Alex Wilber' }));
    expect(english).toContain('You can also write in plain words');
    expect(english).toContain('**my approvals**');
    expect(english).toContain('"title":"My approvals"');
    const french = cardJson(
      renderWelcomeCard(
        { userName: 'Alex Wilber' },
        { language: 'fr', locale: 'fr-FR', timeZone: 'Europe/Paris' },
      ),
    );
    expect(french).toContain('Vous pouvez aussi m’écrire simplement');
    expect(french).toContain('**mes approbations**');
    expect(french).toContain('"title":"Mes approbations"');
  });
});

describe('help card', () => {
  /** The commands the help card lists: its facts' titles. */
  const commandsOf = (card: { content: unknown }) =>
    findAll(card.content, 'FactSet').flatMap((set) => (set.facts as { title: string }[]).map((f) => f.title));

  it('lists the commands, with buttons', () => {
    const card = renderHelpCard({ notUnderstood: null });
    expectValidCard(card);
    expect(commandsOf(card)).toEqual([
      'new team',
      'my requests',
      'withdraw',
      'my approvals',
      'status <team name>',
      'language en | fr | auto',
      'help',
    ]);
    expect(verbs(card)).toEqual([CardVerb.requestTeam, CardVerb.myRequests, CardVerb.myApprovals]);
    expect(cardJson(card)).not.toContain('did not understand');
  });

  it('lists the French commands to a French reader', () => {
    const card = renderHelpCard({ notUnderstood: null }, readerOf('fr-FR', 'Europe/Paris'));
    expect(commandsOf(card)).toEqual([
      'nouvelle équipe',
      'mes demandes',
      'retirer',
      'mes approbations',
      'état <nom de l’équipe>',
      'langue fr | en | auto',
      'aide',
    ]);
  });

  it('quotes text it did not understand, on one line', () => {
    const card = renderHelpCard({ notUnderstood: 'make me\n a sandwich' });
    expectValidCard(card);
    expect(cardJson(card)).toContain('I did not understand \\"make me a sandwich\\".');
  });
});

describe('error card', () => {
  it('shows a plain sentence and the request id', () => {
    const card = renderErrorCard({ message: 'That template no longer exists.', requestId: 'req-5d2a' });
    expectValidCard(card);
    const texts = findAll(card.content, 'TextBlock').map((block) => block.text);
    expect(texts).toContain('That template no longer exists.');
    expect(texts).toContain('If you contact support, give them this request id: req-5d2a');
  });

  it('never shows a stack trace, even when handed an error with one', () => {
    const error = new TypeError("Cannot read properties of undefined (reading 'id')");
    const card = renderErrorCard({ message: error.stack ?? String(error), requestId: null });
    expectValidCard(card);
    const json = cardJson(card);
    expect(json).toContain("Cannot read properties of undefined (reading 'id')");
    expect(json).not.toMatch(/\bat .*\(.*:\d+:\d+\)/);
    expect(json).not.toContain('.ts:');
    expect(json).not.toContain('request id');
  });

  it('falls back to a sentence when the message is empty', () => {
    const card = renderErrorCard({ message: '  \n  at x (y.js:1:1)', requestId: 'r' });
    expect(findAll(card.content, 'TextBlock').map((b) => b.text)).toContain('Something went wrong.');
  });
});
