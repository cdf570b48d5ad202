import { renderInactivityCard } from '../../../src/bot/lifecycle/inactivityCard';
import { renderRenewalCard } from '../../../src/bot/lifecycle/renewalCard';
import type { LifecycleAnswer } from '../../../src/bot/lifecycle/lifecycleOutcome';
import { readerOf } from '../../../src/bot/i18n/catalog';
import { expectValidCard, findAll } from '../cards/cardAssertions';

const french = readerOf('fr-FR', 'Europe/Paris');
const ANSWERS: Array<LifecycleAnswer | null> = [
  null,
  { kind: 'renewed', by: 'Alex Wilber', expiresOn: '2028-03-03' },
  { kind: 'kept', by: '', lastActivityDate: '2027-03-03' },
  { kind: 'archiving', by: 'Adele Vance' },
  { kind: 'archived' },
];
const actions = (card: ReturnType<typeof renderRenewalCard>) =>
  findAll(card.content, 'Action.Execute').map((action) => action.verb);

describe('lifecycle cards', () => {
  it('are valid Adaptive Cards in every state, with buttons only while nobody has answered', () => {
    for (const answer of ANSWERS) {
      for (const reader of [undefined, french]) {
        const renewal = renderRenewalCard(
          {
            teamId: 'team-1',
            teamName: 'Harbour',
            expiresOn: '2027-03-03',
            renewDays: 365,
            onExpiry: 'archive',
            answer,
          },
          reader,
        );
        expectValidCard(renewal);
        expect(actions(renewal)).toEqual(answer ? [] : ['renewTeam', 'archiveTeamNow', 'notRightPerson']);
        const inactivity = renderInactivityCard(
          { teamId: 'team-1', teamName: 'Harbour', lastActivityDate: '2027-03-03', answer },
          reader,
        );
        expectValidCard(inactivity);
        expect(actions(inactivity)).toEqual(answer ? [] : ['keepTeam', 'archiveTeamNow']);
      }
    }
  });

  it('write the day as the reader does, name the period, and show team names literally', () => {
    const attack = '${$root.teamId} *bold* [x](y)';
    const card = renderRenewalCard({
      teamId: 'team-1',
      teamName: attack,
      expiresOn: '2027-03-03',
      renewDays: 90,
      onExpiry: null,
      answer: null,
      declined: { otherOwners: 0 },
    });
    expectValidCard(card, { allowExpressionText: true });
    const texts = findAll(card.content, 'TextBlock').map((block) => String(block.text));
    expect(texts[0]).toBe('${$root.teamId} \\*bold\\* \\[x\\](y) expires on March 3, 2027');
    expect(findAll(card.content, 'Action.Execute').map((a) => a.title)).toEqual([
      'Renew for 90 days',
      'Archive now',
    ]);
    expect(texts.join('\n')).toContain('The team has no other owner');
    const renewed = renderRenewalCard({
      teamId: 't',
      teamName: 'Harbour',
      expiresOn: '2027-03-03',
      renewDays: 365,
      onExpiry: 'archive',
      answer: ANSWERS[1]!,
    });
    expect(renewed.content.fallbackText).toBe(
      'Alex Wilber renewed Harbour: it now expires on March 3, 2028.',
    );
    const fr = renderInactivityCard(
      { teamId: 't', teamName: 'Port', lastActivityDate: '2027-03-03', answer: null },
      french,
    );
    expect(findAll(fr.content, 'TextBlock')[0]!.text).toBe(
      'Personne n’a travaillé dans Port depuis le 3 mars 2027',
    );
  });
});
