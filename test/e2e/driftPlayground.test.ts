import path from 'node:path';
import type { Browser } from 'playwright-core';
import type { TeamChannel, TeamDrift, TemplateDriftApplyResult } from '../../src/contract';
import { waitForJob } from '../support/jobs';
import { provisionTeam } from '../support/lifecycle';
import { PEOPLE } from '../support/steward';
import { Artifacts } from './support/cards';
import { ChatPage } from './support/chatPage';
import { launchChromium } from './support/chromium';
import { describeWithPlayground, type E2eStack, startE2eStack } from './support/stack';
import { STEP_MS } from './support/steps';

const TEMPLATE = 'drift-playground';

/**
 * The owners' card about a template's new version (docs/guides/drift.md), walked as people would: Steward
 * all-in-one with its bot, and the Microsoft 365 Agents Playgrounds of Alex Wilber (English) and
 * Adele Vance (who chose French), each page open in headless Chromium. A catalog manager saves a
 * template that asks its owners first and gives it new channels; a governance manager brings the
 * teams made from it in line; each owner reads the card as the page draws it and clicks its
 * buttons; what changed is then read back through the API. Screenshots of each card are left in
 * `artifacts/drift`.
 */
describeWithPlayground({ chromium: true })("the owners' drift card, clicked in the Agents Playground", () => {
  let stack: E2eStack;
  let browser: Browser;
  const pages: Partial<Record<'alex' | 'adele', ChatPage>> = {};
  const artifacts = new Artifacts(path.join(__dirname, 'artifacts', 'drift'));
  let teamId: string;

  beforeAll(async () => {
    stack = await startE2eStack(undefined, { env: { STEWARD_LIFECYCLE_EVALUATION_AT: 'off' } });
    browser = await launchChromium();
    [pages.alex, pages.adele] = await Promise.all([
      ChatPage.open(browser, stack.alex, artifacts),
      ChatPage.open(browser, stack.adele, artifacts),
    ]);
    // Adele chooses French as a Teams user can: by typing it in her chat.
    const sentAt = Date.now();
    await page('adele').type('language fr');
    await stack.adele.stream.waitFor(
      "Adele's language answer",
      (message) =>
        message.timestamp >= sentAt - 5_000 && /Désormais, je vous parle en français/.test(message.text ?? '')
          ? message
          : undefined,
      STEP_MS,
    );

    // Alex's team is made from the template as it first is, and Adele co-owns it.
    await saveTemplate(['Planning']);
    teamId = await provisionTeam(stack.steward, TEMPLATE, 'Riverside');
    const added = await stack.steward.call('POST', `/api/v1.0/teams/${teamId}/members`, {
      token: await alexToken(),
      body: { user: { id: PEOPLE.adele }, role: 'owner' },
    });
    expect(added.status).toBe(201);
    expect((await drift()).differences).toEqual([]);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close(artifacts.dir);
  }, 30_000);

  const page = (person: 'alex' | 'adele') => pages[person]!;
  const alexToken = () => stack.steward.userToken(PEOPLE.alex, [], { name: 'Alex Wilber' });
  /** Patti, a catalog manager, saves the template (asking its owners first) with `channels`. */
  async function saveTemplate(channels: string[]): Promise<void> {
    const patti = await stack.steward.userToken(PEOPLE.patti, ['CATALOG_MANAGER'], {
      name: 'Patti Fernandez',
    });
    const res = await stack.steward.call('PUT', `/api/v1.0/catalog/templates/${TEMPLATE}`, {
      token: patti,
      body: {
        templateConfiguration: { name: 'Project team', askOwnersBeforeApplying: true },
        newTeam: { channels: channels.map((displayName) => ({ displayName })) },
      },
    });
    expect(res.status).toBe(200);
  }
  /** Lynne, a governance manager, brings every team made from the template in line. */
  async function applyTemplate(): Promise<void> {
    const lynne = await stack.steward.userToken(PEOPLE.lynne, ['GOVERNANCE_MANAGER'], {
      name: 'Lynne Robbins',
    });
    const res = await stack.steward.call<TemplateDriftApplyResult>(
      'POST',
      `/api/v1.0/catalog/templates/${TEMPLATE}/drift/apply`,
      { token: lynne, body: {} },
    );
    expect(res.status).toBe(202);
    // The template asks its owners first: no job until one of them answers.
    expect(res.body.teams).toEqual([expect.objectContaining({ teamId, outcome: 'askOwners' })]);
    expect(res.body.teams[0]!.jobId).toBeUndefined();
  }
  async function drift(): Promise<TeamDrift> {
    const res = await stack.steward.call<TeamDrift>('GET', `/api/v1.0/teams/${teamId}/drift`, {
      token: await alexToken(),
    });
    expect(res.status).toBe(200);
    return res.body;
  }
  async function channelNames(): Promise<string[]> {
    const res = await stack.steward.call<TeamChannel[]>('GET', `/api/v1.0/teams/${teamId}/channels`, {
      token: await alexToken(),
    });
    expect(res.status).toBe(200);
    return res.body.map((c) => c.displayName);
  }
  /** The team's drift jobs as Steward stored them: who asked. */
  const driftJobs = () =>
    stack.steward.steward.store.db
      .selectFrom('jobs')
      .select(['id', 'requester_id'])
      .where('type', '=', 'TeamDriftApply')
      .where('team_id', '=', teamId)
      .execute();

  it('Alex clicks "Add them": the job adds both channels once, and Adele’s card says who chose', async () => {
    await saveTemplate(['Planning', 'Deliverables', 'Budget']);
    await applyTemplate();

    const alex = await page('alex').card(/The Project team template has changed/);
    const adele = await page('adele').card(/Le modèle Project team a changé/);
    expect(await alex.text()).toContain(
      'The Project team template now has a channel named Deliverables and a channel named Budget. Add them to Riverside?',
    );
    expect(await alex.buttons()).toEqual(['Add them', 'Not now']);
    // Names only: no id of the team or the template shows on either card.
    for (const card of [alex, adele]) {
      expect(await card.text()).not.toContain(teamId);
      expect(await card.text()).not.toContain(TEMPLATE);
    }
    await page('alex').screenshotOf(alex, 'asked');
    expect(await adele.text()).toContain(
      'Le modèle Project team comporte désormais un canal Deliverables et un canal Budget. Les ajouter à Riverside ?',
    );
    expect(await adele.buttons()).toEqual(['Les ajouter', 'Pas maintenant']);
    await page('adele').screenshotOf(adele, 'asked-fr');

    await alex.press('Add them');
    const added = await alex.showing(/Steward is adding/);
    expect(added).toContain('Riverside is being brought in line');
    expect(added).toContain(
      'Steward is adding a channel named Deliverables and a channel named Budget to Riverside.',
    );
    expect(await alex.buttons()).toEqual([]);
    await page('alex').screenshotOf(alex, 'added');
    // Adele's card follows the job to its end (it does not stay at "Steward ajoute…").
    const told = await adele.showing(/Steward a ajouté/);
    expect(told).toContain('L’équipe Riverside est conforme à son modèle');
    expect(told).toContain(
      'Alex Wilber a choisi de les ajouter : Steward a ajouté un canal Deliverables et un canal Budget à Riverside.',
    );
    expect(await adele.buttons()).toEqual([]);
    await page('adele').screenshotOf(adele, 'added-fr');

    // The job is Alex's; once done, the team is in line and has each channel once.
    const jobs = await driftJobs();
    expect(jobs).toEqual([expect.objectContaining({ requester_id: PEOPLE.alex })]);
    const job = await waitForJob(stack.steward, await alexToken(), jobs[0]!.id);
    expect(job.status).toBe('completed');
    expect((await drift()).differences).toEqual([]);
    const names = await channelNames();
    expect(names.filter((n) => n === 'Deliverables')).toHaveLength(1);
    expect(names.filter((n) => n === 'Budget')).toHaveLength(1);
  }, 180_000);

  it('Adele clicks "Pas maintenant": nothing is added, and Alex’s card says who declined', async () => {
    const before = await channelNames();
    await saveTemplate(['Planning', 'Deliverables', 'Budget', 'Archive']);
    await applyTemplate();

    const alex = await page('alex').card(/now has a channel named Archive/);
    const adele = await page('adele').card(/comporte désormais un canal Archive/);
    expect(await alex.text()).toContain(
      'The Project team template now has a channel named Archive. Add it to Riverside?',
    );
    expect(await alex.buttons()).toEqual(['Add it', 'Not now']);
    await page('alex').screenshotOf(alex, 'asked-one');
    expect(await adele.text()).toContain(
      'Le modèle Project team comporte désormais un canal Archive. L’ajouter à Riverside ?',
    );
    expect(await adele.buttons()).toEqual(['L’ajouter', 'Pas maintenant']);
    await page('adele').screenshotOf(adele, 'asked-one-fr');

    await adele.press('Pas maintenant');
    const declined = await adele.showing(/Rien n’a été ajouté à Riverside/);
    expect(declined).toContain(
      'Rien n’a été ajouté à Riverside. La question vous sera reposée au prochain changement du modèle Project team.',
    );
    expect(await adele.buttons()).toEqual([]);
    await page('adele').screenshotOf(adele, 'declined-fr');
    const told = await alex.showing(/Adele Vance chose not to add it for now/);
    expect(told).toContain(
      'Adele Vance chose not to add it for now. The owners will be asked again when the Project team template changes.',
    );
    expect(await alex.buttons()).toEqual([]);
    await page('alex').screenshotOf(alex, 'declined');

    // Nothing was queued or added: the team still lacks the channel.
    expect(await driftJobs()).toHaveLength(1);
    expect(await channelNames()).toEqual(before);
    expect((await drift()).differences).toEqual([
      expect.objectContaining({ kind: 'channel', name: 'Archive', applicable: true }),
    ]);
  }, 180_000);
});
