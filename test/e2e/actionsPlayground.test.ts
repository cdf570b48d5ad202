import path from 'node:path';
import { Artifacts, type Card, cardOf, cardShows, findAction, inputsOf } from './support/cards';
import type { Playground } from './support/playground';
import { describeWithPlayground, type E2eStack, startE2eStack } from './support/stack';
import { cardInPlace, cardWith, STEP_MS, submitForm, view } from './support/steps';

/**
 * Withdrawing and deciding, end to end in the Microsoft 365 Agents Playground: an approver whose card is
 * gone gets it back with "my approvals" and decides on it; a requester withdraws a waiting request
 * after confirming, and the approver's card says so. Every step's card goes to test/e2e/artifacts/.
 */
describeWithPlayground()('my approvals and Withdraw, through the Agents Playground', () => {
  let stack: E2eStack;
  let alex: Playground;
  let adele: Playground;
  const artifacts = new Artifacts(path.join(__dirname, 'artifacts'));

  beforeAll(async () => {
    stack = await startE2eStack();
    ({ alex, adele } = stack);
    for (const playground of [adele, alex]) {
      await playground.install();
      await cardWith(playground, 'requestTeam');
    }
  }, 90_000);

  afterAll(() => stack?.close(artifacts.dir), 30_000);

  /** Alex requests a Client engagement team called `name`: where its progress card is. */
  const request = async (name: string) => {
    await alex.say('request a team');
    const gallery = await cardWith(alex, 'pickTemplate', { templateId: 'client-engagement' });
    const pick = findAction(gallery.card, 'pickTemplate', { templateId: 'client-engagement' })!;
    const form = cardInPlace(
      await alex.execute(gallery.message.messageId, 'pickTemplate', pick.data!, pick.title),
    );
    return submitForm(
      alex,
      gallery.message.messageId,
      form,
      { ...inputsOf(form), name },
      `actions-${name}`,
      artifacts,
    );
  };
  /** The newest card on `playground`'s page with `verb` that shows `pattern`, posted after `since`. */
  const newCard = (playground: Playground, verb: string, pattern: RegExp, since: number) =>
    playground.stream.waitFor(
      `a card with ${verb} showing ${pattern}`,
      (message) => {
        const card = cardOf(message);
        return card && message.timestamp >= since && findAction(card, verb) && cardShows(card, pattern)
          ? { message, card }
          : undefined;
      },
      STEP_MS,
    );

  it('gives an approver her waiting cards again, and she decides on one', async () => {
    const { waiting } = await request('Woodgrove');
    await newCard(adele, 'approve', /CLI-US-Woodgrove/, 0);
    // Her page was reloaded and the card is gone from it: she asks for her approvals.
    const asked = Date.now() - 1_000;
    await adele.say('my approvals');
    const again = await newCard(adele, 'approve', /CLI-US-Woodgrove/, asked);
    const list = await adele.stream.waitFor(
      'the list of her approvals',
      (message) => {
        const card = cardOf(message);
        // The list's own sentence: a reposted approval card may say "waiting for your decision" too.
        const listed = /waiting for your decision: (its|their) cards? (is|are) above|No request is waiting/;
        return card && message.timestamp >= asked && cardShows(card, listed) ? card : undefined;
      },
      STEP_MS,
    );
    expect(cardShows(list, /1 request is waiting for your decision/)).toBe(true);
    artifacts.save('adele-my-approvals', { card: list });
    const approve = findAction(again.card, 'approve')!;
    const decided = cardInPlace(
      await adele.execute(
        again.message.messageId,
        'approve',
        { ...approve.data, ...inputsOf(again.card) },
        approve.title,
      ),
    );
    expect(findAction(decided, 'approve')).toBeUndefined();
    artifacts.save('adele-approved-from-my-approvals', view(decided, again.message));
    await alex.stream.waitFor(
      'his request ready',
      (message) => {
        const card = message.messageId === waiting.message.messageId ? cardOf(message) : undefined;
        return card && cardShows(card, /Your team is ready/) ? card : undefined;
      },
      60_000,
    );
  }, 180_000);

  it('withdraws a waiting request after a confirmation, and the approver’s card says so', async () => {
    const { waiting, jobId } = await request('Trey');
    const approval = await newCard(adele, 'approve', /CLI-US-Trey/, 0);
    const withdraw = findAction(waiting.card, 'withdrawRequest', { jobId })!;
    const asking = cardInPlace(
      await alex.execute(waiting.message.messageId, 'withdrawRequest', withdraw.data!, withdraw.title),
    );
    expect(cardShows(asking, /Withdraw your request for \*\*CLI-US-Trey\*\*\?/)).toBe(true);
    artifacts.save('alex-withdraw-confirm', view(asking, waiting.message));
    const yes = findAction(asking, 'withdrawRequest', { confirmed: true })!;
    const done = cardInPlace(
      await alex.execute(waiting.message.messageId, 'withdrawRequest', yes.data!, yes.title),
    );
    expect(cardShows(done, /You withdrew the request/)).toBe(true);
    artifacts.save('alex-withdrawn', view(done, waiting.message));
    const withdrawn = await adele.stream.waitFor(
      'her card showing the withdrawal',
      (message) => {
        const card: Card | undefined =
          message.messageId === approval.message.messageId ? cardOf(message) : undefined;
        return card && cardShows(card, /Alex Wilber withdrew the request/) ? card : undefined;
      },
      STEP_MS,
    );
    expect(findAction(withdrawn, 'approve')).toBeUndefined();
    artifacts.save('adele-withdrawn', { card: withdrawn });
  }, 120_000);
});
