import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '../support/databases';
import { startTestSteward, type TestSteward } from '../support/steward';
import { Artifacts, cardOf, cardShows, findAction, inputsOf } from './support/cards';
import { cardInPlace, cardWith, STEP_MS, submitForm, view } from './support/steps';
import { type Playground, startPlayground } from './support/playground';
import { describeWithPlayground, E2E_STEWARD_ENV } from './support/stack';

/**
 * A two-stage approval end to end (the demo's `partner-workspace`: Legal, then Compliance): three
 * Microsoft 365 Agents Playgrounds on loopback, with Alex Wilber (the requester), Adele Vance
 * (Legal) and Lynne Robbins (Compliance) as their users.
 */
describeWithPlayground()('a two-stage approval, through the Agents Playground', () => {
  let dir: string;
  let database: TestDatabase;
  let steward: TestSteward;
  const playgrounds: Playground[] = [];
  const artifacts = new Artifacts(path.join(__dirname, 'artifacts'));

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'steward-e2e-staged-'));
    database = await createTestDatabase('sqlite');
    steward = await startTestSteward(database, E2E_STEWARD_ENV);
    const botEndpoint = `${steward.url}/api/messages`;
    for (const person of ['alex', 'adele', 'lynne'] as const) {
      playgrounds.push(await startPlayground({ person, botEndpoint, dir }));
    }
  }, 120_000);

  afterAll(async () => {
    for (const playground of playgrounds) {
      writeFileSync(path.join(artifacts.dir, `staged-playground-${playground.person}.log`), playground.log());
      await playground.close();
    }
    await steward?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  it('goes through Legal and Compliance, each approver seeing the stage, to the completed team', async () => {
    const [alex, adele, lynne] = playgrounds as [Playground, Playground, Playground];
    // Each opens their chat with Steward (the page sends the install), so cards can reach them.
    for (const playground of [adele, lynne, alex]) {
      await playground.install();
      await cardWith(playground, 'requestTeam');
    }
    await alex.say('request a team');
    const gallery = await alex.stream.waitFor(
      'the gallery',
      (message) => {
        const card = cardOf(message);
        return card && findAction(card, 'showTemplates') ? { message, card } : undefined;
      },
      STEP_MS,
    );
    // The staged template is on the gallery's second page.
    const more = findAction(gallery.card, 'showTemplates')!;
    const page = cardInPlace(
      await alex.execute(gallery.message.messageId, 'showTemplates', more.data!, more.title),
    );
    const pick = findAction(page, 'pickTemplate', { templateId: 'partner-workspace' })!;
    const form = cardInPlace(
      await alex.execute(gallery.message.messageId, 'pickTemplate', pick.data!, pick.title),
    );
    const { waiting } = await submitForm(
      alex,
      gallery.message.messageId,
      form,
      { ...inputsOf(form), name: 'Fabrikam' },
      'staged',
      artifacts,
    );
    const onAlexCard = (label: string, pattern: RegExp) =>
      alex.stream.waitFor(
        label,
        (message) => {
          const card = message.messageId === waiting.message.messageId ? cardOf(message) : undefined;
          return card && cardShows(card, pattern) ? { message, card } : undefined;
        },
        STEP_MS,
      );
    const stage1 = await onAlexCard(
      'stage 1 on the progress card',
      /Stage 1 of 2: Legal, waiting for Adele Vance/,
    );
    artifacts.save('staged-alex-stage-1', view(stage1.card, stage1.message));

    const legal = await cardWith(adele, 'approve');
    expect(cardShows(legal.card, /Stage 1 of 2: Legal/)).toBe(true);
    artifacts.save('staged-adele-card', view(legal.card, legal.message));
    const approve = findAction(legal.card, 'approve')!;
    const answer = await adele.execute(
      legal.message.messageId,
      'approve',
      { ...approve.data, ...inputsOf(legal.card), comment: 'Contract reviewed' },
      approve.title,
    );
    expect(cardShows(cardInPlace(answer), /Approved/)).toBe(true);

    const compliance = await cardWith(lynne, 'approve');
    expect(cardShows(compliance.card, /Stage 2 of 2: Compliance/)).toBe(true);
    expect(cardShows(compliance.card, /Legal: approved by Adele Vance: “Contract reviewed”/)).toBe(true);
    artifacts.save('staged-lynne-card', view(compliance.card, compliance.message));
    const stage2 = await onAlexCard(
      'stage 2 on the progress card',
      /Stage 2 of 2: Compliance, waiting for Lynne Robbins/,
    );
    artifacts.save('staged-alex-stage-2', view(stage2.card, stage2.message));

    const second = findAction(compliance.card, 'approve')!;
    await lynne.execute(
      compliance.message.messageId,
      'approve',
      { ...second.data, ...inputsOf(compliance.card) },
      second.title,
    );
    const ready = await onAlexCard('the completed progress card', /Your team is ready/);
    artifacts.save('staged-alex-ready', view(ready.card, ready.message));
  }, 150_000);
});
