import {
  GUESTS_ON_A_CARD,
  renderGuestReviewCard,
  type GuestReviewCardData,
} from '../../../src/bot/lifecycle/guestReviewCard';
import { renderOwnerlessCard, type OwnerlessCardData } from '../../../src/bot/lifecycle/ownerlessCard';
import { cardJson, expectValidCard, findAll } from '../cards/cardAssertions';

const ownerless: OwnerlessCardData = {
  teamId: 'team-1',
  teamName: 'Fabrikam *launch*',
  since: '2026-05-04',
  kind: 'ask',
  someOwners: false,
  teamUrl: 'https://teams.example/team-1',
};

const review: GuestReviewCardData = {
  teamId: 'team-1',
  teamName: 'Fabrikam',
  dueOn: '2026-05-04',
  guests: ['Zoé Lefèvre', 'Jürgen Groß'],
  teamUrl: null,
};

describe('ownerless card', () => {
  it('asks a member to step up, with the team name shown as text, not Markdown', () => {
    const card = renderOwnerlessCard(ownerless);
    expectValidCard(card);
    expect(cardJson(card)).toContain(
      'As a member of **Fabrikam \\\\*launch\\\\***, you can step up: the first member to accept becomes an owner.',
    );
    expect(findAll(card.content, 'Action.Execute').map((a) => a.data)).toEqual([
      { teamId: 'team-1', since: '2026-05-04' },
    ]);
    expect(findAll(card.content, 'Action.OpenUrl')[0]?.url).toBe('https://teams.example/team-1');
  });

  it('says who stepped up, with no button left; a governance card has only the link', () => {
    const done = renderOwnerlessCard({ ...ownerless, steppedUp: { name: 'Adele Vance', self: false } });
    expectValidCard(done);
    expect(cardJson(done)).toContain('Adele Vance stepped up as owner of');
    expect(findAll(done.content, 'Action.Execute')).toEqual([]);
    const governance = renderOwnerlessCard({
      ...ownerless,
      kind: 'governance',
      teamUrl: 'javascript:alert(1)',
    });
    expectValidCard(governance);
    expect(findAll(governance.content, 'Action.Execute')).toEqual([]);
    // Only a web address becomes a link.
    expect(findAll(governance.content, 'Action.OpenUrl')).toEqual([]);
  });
});

describe('guest review card', () => {
  it('gives each guest Keep / Remove (keep by default) under an input id, never their name', () => {
    const card = renderGuestReviewCard(review);
    expectValidCard(card);
    const inputs = findAll(card.content, 'Input.ChoiceSet');
    expect(inputs.map((i) => [i.id, i.label, i.value])).toEqual([
      ['guest0', 'Zoé Lefèvre', 'keep'],
      ['guest1', 'Jürgen Groß', 'keep'],
    ]);
    expect(findAll(card.content, 'Action.Execute').map((a) => a.verb)).toEqual(['submitGuestReview']);
  });

  it('stays within Teams’ size with many guests of long names, listing the first ones and saying so', () => {
    const guests = Array.from(
      { length: 300 },
      (_, i) => `${'Guest with a very long display name '.repeat(4)}${i}`,
    );
    const card = renderGuestReviewCard({ ...review, guests });
    expectValidCard(card);
    expect(findAll(card.content, 'Input.ChoiceSet')).toHaveLength(GUESTS_ON_A_CARD);
    expect(cardJson(card)).toContain(
      `Only the first ${GUESTS_ON_A_CARD} guests are listed; the others are kept.`,
    );
  });

  it('once reviewed: who, what was removed and kept, the next review, and no inputs left', () => {
    const card = renderGuestReviewCard({
      ...review,
      review: {
        by: 'Adele Vance',
        self: false,
        on: '2026-05-04',
        removed: ['Zoé Lefèvre'],
        kept: [],
        nextOn: '2026-08-02',
      },
    });
    expectValidCard(card);
    const json = cardJson(card);
    expect(json).toContain(
      'Adele Vance reviewed the guests of **Fabrikam** on {{DATE(2026-05-04T12:00:00Z, SHORT)}}.',
    );
    expect(json).toContain('The next review is due on {{DATE(2026-08-02T12:00:00Z, SHORT)}}.');
    const facts = findAll(card.content, 'FactSet').flatMap(
      (set) => set.facts as Array<{ title: string; value: string }>,
    );
    expect(facts).toEqual([
      { title: 'Removed', value: 'Zoé Lefèvre' },
      { title: 'Kept', value: 'Nobody' },
    ]);
    expect(findAll(card.content, 'Input.ChoiceSet')).toEqual([]);
    expect(findAll(card.content, 'Action.Execute')).toEqual([]);
  });
});
