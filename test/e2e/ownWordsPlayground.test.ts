import { chatSuite } from './support/chatSuite';
import { describeWithPlayground } from './support/stack';
import { STEP_MS } from './support/steps';

/**
 * Understanding people's own words as a person meets it (docs/guides/bot.md): messages typed in the Agents Playground's chat box in
 * headless Chromium, exactly as written, and the answers read as the page draws them. A request
 * comes back as the request form, prefilled and editable; pressing Request the team makes it.
 */
describeWithPlayground({ chromium: true })('people’s own words, in the Agents Playground', () => {
  const suite = chatSuite('own-words');

  it(
    'a request in plain words comes back as the form, prefilled; pressing Request the team makes it',
    async () => {
      await suite.page().type('please create a project space called Mercury, Megan will co-own it');
      const form = await suite.page().card(/New team: Project team[\s\S]*because you said/);
      expect(await form.text()).toContain('Project team, because you said project space.');
      const name = form.locator.getByRole('textbox', { name: /Team name/ });
      expect(await name.inputValue()).toBe('Mercury');
      await suite.page().screenshotOf(form, 'prefilled-form');
      expect(await form.text()).toContain('Under Owners: Megan Bowen.');

      await form.press('Request the team');
      const progress = await suite.page().card(/PRJ-Mercury[\s\S]*Create the team/, 60_000);
      await progress.showing(/Your team is ready/, 60_000);
    },
    6 * STEP_MS,
  );

  it(
    'the issue’s other messages: people in a request, who approves, a request nobody made',
    async () => {
      await suite.page().type("I'd like a new team for the Contoso deal, with Adele and Isaiah in it");
      const form = await suite.page().card(/New team: Client engagement/);
      expect(await form.text()).toContain('Client engagement, because you said deal.');
      expect(await form.text()).toContain('Under Members: Adele Vance and Isaiah Langer.');
      expect(await form.locator.getByRole('textbox', { name: /Team name/ }).inputValue()).toBe('Contoso');
      await suite.page().screenshotOf(form, 'people-form');

      // Legal matter is not among Alex's templates: he is told so and why, and no other template is
      // answered for it.
      await suite.page().type('who has to approve a legal matter team?');
      expect(await suite.page().says(/“Legal matter” is not offered to you/)).not.toMatch(/is approved by/);

      await suite.page().type("what's the status of my Northwind request?");
      await suite.page().says(/no request of yours for a team called "Northwind"/);
    },
    6 * STEP_MS,
  );

  it(
    'a French request and two questions, as typed',
    async () => {
      await suite.page().type('il me faut une équipe pour le projet Atlas avec Lynne Robbins');
      const form = await suite.page().card(/Nouvelle équipe : Équipe projet/);
      expect(
        await form.locator
          .getByRole('textbox', { name: /Nom de l’équipe|Nom/ })
          .first()
          .inputValue(),
      ).toBe('Atlas');
      expect(await form.text()).toContain('Dans Membres : Lynne Robbins.');
      await suite.page().screenshotOf(form, 'french-form');

      await suite.page().type("what's the status of my Mercury request?");
      await suite.page().card(/PRJ-Mercury[\s\S]*(ready|Ready)/);

      await suite.page().type('what can you do?');
      const capabilities = await suite.page().card(/What I can do[\s\S]*who approves/);
      await suite.page().screenshotOf(capabilities, 'capabilities');
    },
    6 * STEP_MS,
  );
});
