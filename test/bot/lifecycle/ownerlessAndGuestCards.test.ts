import { cardTurnsOf, ENGLISH, FRENCH } from '../support/cardTurns';
import { databaseKinds } from '../../support/databases';
import { GUESTS, inviteGuests } from '../../support/guests';
import { DAY, evaluate, lifecycleRecords, teamEvents, teamWith } from '../../support/lifecycle';
import { PEOPLE } from '../../support/steward';
import { redeliver } from '../support/redeliver';
import { actionData, cardOf, cardText, eachNode, type SentCard, verbsOf } from '../support/fakeConnector';
import { ADELE, ALEX, LYNNE, MEGAN, SIOBHAN, type TeamsPerson } from '../support/botHarness';
import { suiteLifecycleBot } from '../support/suiteBot';

/**
 * The ownerless and guest review cards in chat, through the bot's webhook and `/api/messages` with
 * a real adapter and Steward's clock moved: members asked to step up (the first becomes owner,
 * the others' cards say who), governance managers told when the policy says so, and owners
 * reviewing guests (the removal reaches the platform, every owner's card says who reviewed).
 * Adele, Alex and Lynne read English, Siobhán French.
 */
describe.each(databaseKinds)('ownerless and guest review cards, on %s', (kind) => {
  const bot = suiteLifecycleBot(kind, { english: [ADELE, ALEX, LYNNE], french: [SIOBHAN] }, [
    'ask-members',
    'tell-governance',
  ]);

  /** A team of `templateId` owned by Alex, with `people` added in their roles. */
  const team = (templateId: string, name: string, people: Array<{ id: string; role: 'owner' | 'member' }>) =>
    teamWith(
      bot.steward,
      templateId,
      name,
      people.map(({ id, role }) => [id, role]),
    );
  const { cardTo, cardSaying, press, french } = cardTurnsOf(bot);
  const members = async (teamId: string) =>
    (
      await bot.steward.call<Array<{ userId: string; roles: string[] }>>(
        'GET',
        `/api/v1.0/teams/${teamId}/members`,
        {
          token: await bot.steward.userToken(PEOPLE.alex),
        },
      )
    ).body;

  it('asks the members to step up; the first becomes owner and every other card says who', async () => {
    const teamId = await team('ask-members', 'Orphan Works', [
      { id: PEOPLE.adele, role: 'member' },
      { id: SIOBHAN.aadObjectId, role: 'member' },
      { id: MEGAN.aadObjectId, role: 'member' },
    ]);
    // Megan has never talked to the bot, and Teams will not let it start a chat with her yet.
    bot.connector.unreachable.add(MEGAN.aadObjectId);
    const mark = bot.connector.sent.length;
    await evaluate(bot.steward);
    const adele = await cardTo(ADELE, mark, /Orphan Works/);
    const siobhan = await cardTo(SIOBHAN, mark, /Orphan Works/);
    const asked = bot.connector.currentCard(adele.activityId)!;
    expect(cardText(asked)).toContain('Orphan Works needs another owner');
    expect(cardText(asked)).toContain(
      '**Orphan Works** has fewer owners than its policy asks for. As a member, you can step up: the first member to accept becomes an owner.',
    );
    expect(verbsOf(asked)).toEqual(['becomeOwner']);
    const demande = french(bot.connector.currentCard(siobhan.activityId)!);
    expect(demande).toContain('Orphan Works a besoin d’un autre propriétaire');
    expect(demande).toContain('Devenir propriétaire');
    // Alex owns the team already: nothing asks him.
    expect(
      bot.connector.messages(ALEX.conversationId, mark).filter((m) => /Orphan Works/.test(cardText(m.body))),
    ).toEqual([]);

    // Siobhán steps up: her card says so in place, Adele's is updated to say who.
    const data = actionData(bot.connector.currentCard(siobhan.activityId), 'becomeOwner')!;
    const answer = bot.cardOfAnswer(await press(SIOBHAN, 'becomeOwner', data, siobhan.activityId, FRENCH));
    expect(french(answer)).toContain(
      'Vous vous êtes proposé comme propriétaire de **Orphan Works** : Steward vous en rend propriétaire.',
    );
    expect(verbsOf(answer)).toEqual([]);
    const told = await cardSaying(adele.activityId, /stepped up/);
    expect(cardText(told)).toContain("Siobhán O'Connor stepped up as owner of **Orphan Works**.");
    expect(verbsOf(told)).toEqual([]);

    // Adele presses the button she saw before the update: she is told, and does not become owner.
    const late = bot.cardOfAnswer(await press(ADELE, 'becomeOwner', data, adele.activityId));
    expect(cardText(late)).toContain("Siobhán O'Connor stepped up as owner of **Orphan Works**.");
    const owners = await until(async () => {
      const list = await members(teamId);
      return list.find((m) => m.userId === SIOBHAN.aadObjectId)?.roles.includes('owner') ? list : undefined;
    });
    expect(owners.find((m) => m.userId === PEOPLE.adele)?.roles).toEqual([]);
    expect(
      (await lifecycleRecords(bot.steward, teamId)).filter((r) => r.action === 'owner_step_up'),
    ).toHaveLength(1);

    // Megan's card could not reach her; when she first talks to the bot it arrives, as it stands now.
    expect(bot.connector.messages(MEGAN.conversationId, mark)).toEqual([]);
    bot.connector.unreachable.delete(MEGAN.aadObjectId);
    await bot.send(MEGAN, { type: 'message', text: 'help', ...ENGLISH });
    const megan = cardOf((await cardTo(MEGAN, mark, /Orphan Works/)).body);
    expect(cardText(megan)).toContain("Siobhán O'Connor stepped up as owner of **Orphan Works**.");
    expect(verbsOf(megan)).toEqual([]);
  }, 90_000);

  it('tells the governance managers when the policy says so, with the team’s link', async () => {
    const teamId = await team('tell-governance', 'Nobody Home', [{ id: PEOPLE.adele, role: 'member' }]);
    const mark = bot.connector.sent.length;
    await evaluate(bot.steward);
    const lynne = await cardTo(LYNNE, mark, /Nobody Home/);
    const card = bot.connector.currentCard(lynne.activityId)!;
    expect(cardText(card)).toContain(
      '**Nobody Home** has fewer owners than its policy asks for and no member has stepped up. As a governance manager, please find it an owner.',
    );
    expect(verbsOf(card)).toEqual([]);
    const open = (card.actions as Array<{ type: string; url?: string }>).find(
      (a) => a.type === 'Action.OpenUrl',
    );
    expect(open?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.+/);
    // The members are not asked: governance handles it.
    expect(
      bot.connector.messages(ADELE.conversationId, mark).filter((m) => /Nobody Home/.test(cardText(m.body))),
    ).toEqual([]);

    // A later spell's notice that arrives twice at once (a retry handled beside the first try):
    // one card.
    const [event] = await teamEvents(bot.steward, 'team_ownerless', teamId);
    const later = { ...event, lifecycle: { ...event?.lifecycle, dueOn: '2099-01-01' } };
    const before = bot.connector.messages(LYNNE.conversationId, mark).length;
    await Promise.all([
      redeliver(bot.steward, 'team_ownerless', later),
      redeliver(bot.steward, 'team_ownerless', later),
    ]);
    expect(bot.connector.messages(LYNNE.conversationId, mark).length).toBe(before + 1);
  }, 90_000);

  it('lists the guests by name to every owner; the first review removes who it says and every card shows it', async () => {
    const teamId = await team('ask-members', 'Guest House', [
      { id: PEOPLE.adele, role: 'owner' },
      { id: SIOBHAN.aadObjectId, role: 'owner' },
    ]);
    await inviteGuests(bot.steward, teamId, [GUESTS.zoe.id, GUESTS.jurgen.id]);
    const mark = bot.connector.sent.length;
    bot.moveBy(91 * DAY);
    await evaluate(bot.steward);
    const adele = await cardTo(ADELE, mark, /Guest House/);
    const alex = await cardTo(ALEX, mark, /Guest House/);
    const siobhan = await cardTo(SIOBHAN, mark, /Guest House/);
    const review = bot.connector.currentCard(adele.activityId)!;
    expect(cardText(review)).toContain('Review the guests of Guest House');
    expect(cardText(review)).toContain(
      '**Guest House** has 2 guests. Keep those who still need access and remove the others, then submit.',
    );
    // Names, not ids.
    expect(choices(review).map((c) => c.label)).toEqual([GUESTS.zoe.displayName, GUESTS.jurgen.displayName]);
    expect(cardText(review)).not.toContain(GUESTS.zoe.id);
    const revue = french(bot.connector.currentCard(siobhan.activityId)!);
    expect(revue).toContain('Revoyez les invités de Guest House');
    expect(revue).toContain('Retirer');

    // Siobhán removes Zoé and keeps Jürgen.
    const inputs = Object.fromEntries(
      choices(bot.connector.currentCard(siobhan.activityId)).map((c) => [
        c.id,
        c.label === GUESTS.zoe.displayName ? 'remove' : 'keep',
      ]),
    );
    const data = {
      ...actionData(bot.connector.currentCard(siobhan.activityId), 'submitGuestReview'),
      ...inputs,
    };
    const answer = bot.cardOfAnswer(
      await press(SIOBHAN, 'submitGuestReview', data, siobhan.activityId, FRENCH),
    );
    const reviewed = french(answer);
    expect(reviewed).toMatch(/Vous avez revu les invités de \*\*Guest House\*\* le /);
    expect(reviewed).toContain('Retirés');
    expect(verbsOf(answer)).toEqual([]);
    for (const activityId of [adele.activityId, alex.activityId]) {
      const card = await cardSaying(activityId, /reviewed the guests/);
      expect(cardText(card)).toMatch(/Siobhán O'Connor reviewed the guests of \*\*Guest House\*\* on /);
      expect(facts(card)).toEqual({ Removed: GUESTS.zoe.displayName, Kept: GUESTS.jurgen.displayName });
      expect(verbsOf(card)).toEqual([]);
    }
    // Zoé leaves the team on the platform (a job); Jürgen stays.
    await until(async () =>
      (await members(teamId)).some((m) => m.userId === GUESTS.zoe.id) ? undefined : true,
    );
    expect((await members(teamId)).map((m) => m.userId)).toContain(GUESTS.jurgen.id);

    // Adele submits the card she had: the review stands, no second one is made.
    const second = bot.cardOfAnswer(await press(ADELE, 'submitGuestReview', data, adele.activityId));
    expect(cardText(second)).toMatch(/Siobhán O'Connor reviewed the guests/);
    // Someone outside the team who sends the same action learns nothing of the review.
    const isaiah: TeamsPerson = {
      aadObjectId: PEOPLE.isaiah,
      name: 'Isaiah Langer',
      teamsId: '29:isaiah-teams-id',
      conversationId: 'a:personal-isaiah',
    };
    const before = bot.connector.sent.length;
    await press(isaiah, 'submitGuestReview', data, 'outsider-card');
    const refusal = cardText(bot.lastCard(isaiah, before).card);
    expect(refusal).toMatch(/no longer exists/);
    expect(refusal).not.toMatch(/reviewed the guests|Zoé|Jürgen/);
    const reviews = (await lifecycleRecords(bot.steward, teamId)).filter(
      (r) => r.action === 'guest_review_completed',
    );
    expect(reviews).toHaveLength(1);
  }, 90_000);
});

/** The card's inputs of a guest review: their ids and labels. */
function choices(card: unknown): Array<{ id: string; label: string }> {
  const found: Array<{ id: string; label: string }> = [];
  eachNode(card, (node) => {
    if (node.type === 'Input.ChoiceSet') found.push({ id: String(node.id), label: String(node.label) });
  });
  return found;
}

/** The facts of a card, by title. */
function facts(card: SentCard): Record<string, string> {
  const sets = (card.body ?? []).filter((b) => (b as { type?: string }).type === 'FactSet') as Array<{
    facts: Array<{ title: string; value: string }>;
  }>;
  return Object.fromEntries(sets.flatMap((s) => s.facts).map((f) => [f.title, f.value]));
}

/** Polls `probe` (every 25 ms) until it resolves to something, within 20 s. */
async function until<T>(probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
