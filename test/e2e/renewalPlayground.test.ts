import path from 'node:path';
import type { TeamLifecycle } from '../../src/contract';
import { DAY, dayAfter, evaluate, lifecycleTemplate, provisionTeam } from '../support/lifecycle';
import { PEOPLE } from '../support/steward';
import { Artifacts, cardOf, cardShows, findAction } from './support/cards';
import type { Playground } from './support/playground';
import { describeWithPlayground, type E2eStack, startE2eStack } from './support/stack';
import { cardInPlace, cardWith, STEP_MS, view } from './support/steps';

/**
 * A renewal end to end: Steward all-in-one with its clock moved 336 days past a team's creation,
 * the lifecycle evaluation run on request, and two Microsoft 365 Agents Playgrounds on loopback
 * (Alex Wilber and Adele Vance, both owners of the team). Both get the renewal card; Alex renews
 * from his, and Adele's card says so by itself.
 */
describeWithPlayground()('a team renewal, through the Agents Playground', () => {
  let stack: E2eStack;
  let alex: Playground;
  let adele: Playground;
  let offset = 0;
  const artifacts = new Artifacts(path.join(__dirname, 'artifacts'));

  beforeAll(async () => {
    stack = await startE2eStack(undefined, {
      env: { STEWARD_LIFECYCLE_EVALUATION_AT: 'off' },
      overrides: { clock: () => Date.now() + offset },
    });
    ({ alex, adele } = stack);
  }, 90_000);

  afterAll(() => stack?.close(artifacts.dir), 30_000);

  it('sends the renewal card to every owner; renewing from one card updates the other', async () => {
    for (const playground of [adele, alex]) {
      await playground.install();
      await cardWith(playground, 'requestTeam');
    }
    const app = stack.steward;
    await lifecycleTemplate(app, 'yearly', {
      expiration: { enabled: true, days: 365, renewalNoticeDays: [30, 7], onExpiry: 'archive' },
    });
    const teamId = await provisionTeam(app, 'yearly', 'Harbour');
    const alexToken = await app.userToken(PEOPLE.alex, [], { name: 'Alex Wilber' });
    const added = await app.call('POST', `/api/v1.0/teams/${teamId}/members`, {
      token: alexToken,
      body: { user: { id: PEOPLE.adele }, role: 'owner' },
    });
    expect(added.status).toBe(201);

    // 336 days later, the evaluation sends the 30-day notice.
    offset = 336 * DAY;
    await evaluate(app);
    const alexCard = await cardWith(alex, 'renewTeam', { teamId });
    expect(cardShows(alexCard.card, /Harbour expires on/)).toBe(true);
    artifacts.save('alex-renewal-card', view(alexCard.card, alexCard.message));
    const adeleCard = await cardWith(adele, 'renewTeam', { teamId });
    artifacts.save('adele-renewal-card', view(adeleCard.card, adeleCard.message));

    // Alex renews: his card answers in place, with the new expiry.
    const renew = findAction(alexCard.card, 'renewTeam')!;
    expect(renew.title).toBe('Renew for a year');
    const answer = await alex.execute(alexCard.message.messageId, 'renewTeam', renew.data!, renew.title);
    const renewed = cardInPlace(answer);
    expect(cardShows(renewed, /Alex Wilber renewed \*\*Harbour\*\*: it now expires on/)).toBe(true);
    expect(findAction(renewed, 'renewTeam')).toBeUndefined();
    artifacts.save('alex-renewed', view(renewed, alexCard.message, answer));

    // Adele's card changes by itself on her page: who renewed, and no buttons left.
    const updated = await adele.stream.waitFor(
      'Adele’s renewal card, renewed by Alex',
      (message) => {
        if (message.messageId !== adeleCard.message.messageId) return undefined;
        const card = cardOf(message);
        return card && cardShows(card, /Alex Wilber renewed \*\*Harbour\*\*/) ? { message, card } : undefined;
      },
      STEP_MS,
    );
    expect(findAction(updated.card, 'renewTeam')).toBeUndefined();
    artifacts.save('adele-renewal-updated', view(updated.card, updated.message));

    const lifecycle = await app.call<TeamLifecycle>('GET', `/api/v1.0/teams/${teamId}/lifecycle`, {
      token: alexToken,
    });
    expect(lifecycle.body).toMatchObject({ expiresOn: dayAfter(336 + 365), renewals: 1, state: 'active' });
  }, 180_000);
});
