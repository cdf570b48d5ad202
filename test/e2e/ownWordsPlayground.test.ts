import path from 'node:path';
import type { Browser } from 'playwright-core';
import { Artifacts } from './support/cards';
import { ChatPage } from './support/chatPage';
import { launchChromium } from './support/chromium';
import { describeWithPlayground, type E2eStack, startE2eStack } from './support/stack';
import { STEP_MS } from './support/steps';

/**
 * Understanding people's own words as a person meets it (docs/guides/bot.md): messages typed in the Agents Playground's chat box in
 * headless Chromium, exactly as written, and the answers read as the page draws them. A request
 * comes back as the request form, prefilled and editable; pressing Request the team makes it.
 */
describeWithPlayground({ chromium: true })('people’s own words, in the Agents Playground', () => {
  let stack: E2eStack;
  let browser: Browser;
  let page: ChatPage;
  const artifacts = new Artifacts(path.join(__dirname, 'artifacts', 'own-words'));

  beforeAll(async () => {
    stack = await startE2eStack();
    browser = await launchChromium();
    page = await ChatPage.open(browser, stack.alex, artifacts);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close(artifacts.dir);
  }, 30_000);

  it(
    'a request in plain words comes back as the form, prefilled; pressing Request the team makes it',
    async () => {
      await page.type('please create a project space called Mercury, Megan will co-own it');
      const form = await page.card(/New team: Project team[\s\S]*because you said/);
      expect(await form.text()).toContain('Project team, because you said project space.');
      const name = form.locator.getByRole('textbox', { name: /Team name/ });
      expect(await name.inputValue()).toBe('Mercury');
      await page.screenshotOf(form, 'prefilled-form');
      // The pickers hold ids, which the playground's renderer draws as they are: the names are on the card.
      expect(await form.text()).toContain('Under Owners: Megan Bowen.');

      await form.press('Request the team');
      const progress = await page.card(/PRJ-Mercury[\s\S]*Create the team/, 60_000);
      await progress.showing(/Your team is ready/, 60_000);
    },
    6 * STEP_MS,
  );

  it(
    'the issue’s other messages: people in a request, who approves, a request nobody made',
    async () => {
      await page.type("I'd like a new team for the Contoso deal, with Adele and Isaiah in it");
      const form = await page.card(/New team: Client engagement/);
      expect(await form.text()).toContain('Client engagement, because you said deal.');
      expect(await form.text()).toContain('Under Members: Adele Vance and Isaiah Langer.');
      expect(await form.locator.getByRole('textbox', { name: /Team name/ }).inputValue()).toBe('Contoso');
      await page.screenshotOf(form, 'people-form');

      // Legal matter is not among Alex's templates: no other template is answered for it.
      await page.type('who has to approve a legal matter team?');
      expect(await page.says(/Which template do you mean\?/)).not.toMatch(/is approved by/);

      await page.type("what's the status of my Northwind request?");
      await page.says(/no request of yours for a team called "Northwind"/);
    },
    6 * STEP_MS,
  );

  it(
    'a French request and two questions, as typed',
    async () => {
      await page.type('il me faut une équipe pour le projet Atlas avec Lynne Robbins');
      const form = await page.card(/Nouvelle équipe : Project team/);
      expect(
        await form.locator
          .getByRole('textbox', { name: /Nom de l’équipe|Nom/ })
          .first()
          .inputValue(),
      ).toBe('Atlas');
      expect(await form.text()).toContain('Dans Membres : Lynne Robbins.');
      await page.screenshotOf(form, 'french-form');

      await page.type("what's the status of my Mercury request?");
      await page.card(/PRJ-Mercury[\s\S]*(ready|Ready)/);

      await page.type('what can you do?');
      const capabilities = await page.card(/What I can do[\s\S]*who approves/);
      await page.screenshotOf(capabilities, 'capabilities');
    },
    6 * STEP_MS,
  );
});
