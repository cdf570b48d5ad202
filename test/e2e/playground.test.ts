import path from 'node:path';
import { request } from 'undici';
import { Artifacts, type Card, cardOf, cardShows, findAction, inputsOf } from './support/cards';
import type { Playground } from './support/playground';
import { describeWithPlayground, type E2eStack, startE2eStack } from './support/stack';
import { cardInPlace, cardWith, findOpenTeam, STEP_MS, submitForm, view } from './support/steps';

/**
 * End to end (docs/guides/playground.md): Steward all-in-one and two Microsoft 365 Agents Playgrounds on loopback (one
 * with Alex Wilber as its user, one with Adele Vance, the approver), driven over the playground's
 * HTTP endpoints while its websocket shows what the page would. Each step's card JSON and the
 * page's view of it go to test/e2e/artifacts/.
 */

describeWithPlayground()('a team request with approval, through the Agents Playground', () => {
  let stack: E2eStack;
  let alex: Playground;
  let adele: Playground;
  const artifacts = new Artifacts(path.join(__dirname, 'artifacts'));

  beforeAll(async () => {
    stack = await startE2eStack();
    ({ alex, adele } = stack);
  }, 90_000);

  afterAll(() => stack?.close(artifacts.dir), 30_000);

  it('goes from "request a team" to the completed progress card with a link to the team', async () => {
    // Both open their chat with Steward: the page sends the install, and Steward welcomes them.
    for (const playground of [adele, alex]) {
      await playground.install();
      const welcome = await cardWith(playground, 'requestTeam');
      artifacts.save(`${playground.person}-welcome`, view(welcome.card, welcome.message));
    }

    // Alex asks for a team and gets the gallery of his templates.
    await alex.say('request a team');
    const gallery = await cardWith(alex, 'pickTemplate', { templateId: 'client-engagement' });
    artifacts.save('alex-gallery', view(gallery.card, gallery.message));

    // He picks "Client engagement": the form replaces the gallery.
    const pick = findAction(gallery.card, 'pickTemplate', { templateId: 'client-engagement' })!;
    const picked = await alex.execute(gallery.message.messageId, 'pickTemplate', pick.data!, pick.title);
    const form = cardInPlace(picked);
    artifacts.save('alex-request-form', view(form, gallery.message, picked));
    const submit = findAction(form, 'submitRequest');
    expect(submit).toBeDefined();

    // He names the team and sends the form: a confirmation in place, then a progress card.
    const answers = { ...inputsOf(form), name: 'Acme', description: 'Our work with Acme Corp.' };
    const { confirmationId, waiting, jobId } = await submitForm(
      alex,
      gallery.message.messageId,
      form,
      answers,
      'alex',
      artifacts,
    );

    // Before anyone decides, he presses Refresh on the progress card: it answers in place, on the
    // card pressed, and no second card appears. (A confirmation drawn before it lost its Status
    // button stays a confirmation when pressed: one request, one living card.)
    const refresh = findAction(waiting.card, 'showStatus')!;
    const refreshed = await alex.execute(
      waiting.message.messageId,
      'showStatus',
      refresh.data!,
      refresh.title,
    );
    expect(cardShows(cardInPlace(refreshed), /Waiting for approval/)).toBe(true);
    artifacts.save('alex-refresh-before-approval', view(cardInPlace(refreshed), waiting.message, refreshed));
    const status = await alex.execute(confirmationId, 'showStatus', { jobId }, 'Status');
    expect(cardShows(cardInPlace(status), /Request received/)).toBe(true);
    artifacts.save('alex-status-before-approval', view(cardInPlace(status), waiting.message, status));
    const approvedAt = Date.now();

    // Adele, the approver, gets the approval card in her own chat and approves, with a comment.
    const approval = await cardWith(adele, 'approve');
    expect(cardShows(approval.card, /Acme/)).toBe(true);
    expect(cardShows(approval.card, /Alex Wilber/)).toBe(true);
    artifacts.save('adele-approval', view(approval.card, approval.message));
    const approve = findAction(approval.card, 'approve')!;
    const approved = await adele.execute(
      approval.message.messageId,
      'approve',
      { ...approve.data, ...inputsOf(approval.card), comment: 'Looks good, go ahead' },
      approve.title,
    );
    const decided = cardInPlace(approved);
    expect(findAction(decided, 'approve')).toBeUndefined();
    artifacts.save('adele-approval-decided', view(decided, approval.message, approved));

    // Alex's progress card moves on by itself until the team is there, with its link.
    const done = await alex.stream.waitFor(
      'the progress card with "Open team"',
      (message) => {
        if (message.messageId !== waiting.message.messageId) return undefined;
        const card = cardOf(message);
        const open = card && findOpenTeam(card);
        return open ? { message, card: card!, url: open } : undefined;
      },
      60_000,
    );
    artifacts.save('alex-progress-completed', view(done.card, done.message));
    // Adele's name and words are on his card.
    expect(cardShows(done.card, /Approved by Adele Vance/)).toBe(true);
    expect(cardShows(done.card, /Looks good, go ahead/)).toBe(true);

    // Every card in his chat that shows the request's progress ends at "ready": none is left behind.
    // (Its progress cards name its team; the id is only in their buttons, which a ready card has not.)
    await alex.stream.waitFor('every card of the request at "ready"', () => {
      const cards = alex.stream
        .messages()
        .map((message) => cardOf(message))
        .filter(
          (card): card is Card =>
            card !== undefined &&
            (JSON.stringify(card).includes(jobId) ||
              (cardShows(card, /CLI-US-Acme/) && JSON.stringify(card).includes('"altText":"Progress: '))),
        );
      return cards.length >= 1 && cards.every((card) => cardShows(card, /Your team is ready/))
        ? true
        : undefined;
    });
    const confirmationNow = cardOf(alex.stream.message(confirmationId)!)!;
    artifacts.save('alex-status-card-completed', view(confirmationNow, alex.stream.message(confirmationId)!));

    // And he got a new message saying so, with Open team: an update alone makes no notification.
    const notice = await alex.stream.waitFor('a new "ready" message', (message) => {
      const card = cardOf(message);
      return card && message.timestamp >= approvedAt - 5_000 && cardShows(card, /is ready\./)
        ? { message, card }
        : undefined;
    });
    expect(findOpenTeam(notice.card)).toBe(done.url);
    artifacts.save('alex-ready-message', view(notice.card, notice.message));

    // The link serves the new team's page in the simulated tenant.
    expect(done.url).toMatch(/\/platform\/teams\/[^/]+$/);
    const page = await request(done.url, { headersTimeout: 10_000, bodyTimeout: 10_000 });
    const html = await page.body.text();
    expect(page.statusCode).toBe(200);
    expect(html).toContain('Acme');
    artifacts.save('team-page', { url: done.url, status: page.statusCode, html });
  }, 180_000);

  it('tells Alex who rejected his request and why, on his card and in a new message', async () => {
    await alex.say('request a team');
    const gallery = await alex.stream.waitFor(
      'a new gallery',
      (message) => {
        const card = cardOf(message);
        return card && findAction(card, 'pickTemplate', { templateId: 'client-engagement' })
          ? { message, card }
          : undefined;
      },
      STEP_MS,
    );
    const pick = findAction(gallery.card, 'pickTemplate', { templateId: 'client-engagement' })!;
    const form = cardInPlace(
      await alex.execute(gallery.message.messageId, 'pickTemplate', pick.data!, pick.title),
    );
    const { waiting, jobId } = await submitForm(
      alex,
      gallery.message.messageId,
      form,
      { ...inputsOf(form), name: 'Contoso' },
      'alex-rejected',
      artifacts,
    );
    const rejectedAt = Date.now();

    const approval = await cardWith(adele, 'reject');
    expect(cardShows(approval.card, /Contoso/)).toBe(true);
    const reject = findAction(approval.card, 'reject')!;
    const answer = await adele.execute(
      approval.message.messageId,
      'reject',
      { ...reject.data, ...inputsOf(approval.card), comment: 'Use the existing Contoso team' },
      reject.title,
    );
    artifacts.save('adele-rejection-decided', view(cardInPlace(answer), approval.message, answer));

    const rejected = await alex.stream.waitFor('the progress card, rejected', (message) => {
      const card = message.messageId === waiting.message.messageId ? cardOf(message) : undefined;
      return card && cardShows(card, /Rejected by Adele Vance/) ? { message, card } : undefined;
    });
    expect(cardShows(rejected.card, /Use the existing Contoso team/)).toBe(true);
    expect(findAction(rejected.card, 'retryRequest', { jobId })).toBeDefined();
    artifacts.save('alex-progress-rejected', view(rejected.card, rejected.message));
    const notice = await alex.stream.waitFor('a new "rejected" message', (message) => {
      const card = cardOf(message);
      return card && message.timestamp >= rejectedAt - 5_000 && cardShows(card, /was rejected/)
        ? { message, card }
        : undefined;
    });
    expect(cardShows(notice.card, /Use the existing Contoso team/)).toBe(true);
    artifacts.save('alex-rejected-message', view(notice.card, notice.message));
  }, 120_000);
});
