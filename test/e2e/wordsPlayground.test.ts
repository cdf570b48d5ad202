import { chatSuite } from './support/chatSuite';
import { describeWithPlayground } from './support/stack';
import { cardWith, STEP_MS } from './support/steps';

/** Symbols a screen reader spells out one by one ("black square", "check mark button"). */
const SPELLED = /[■□✅⏳⚪❌➖⛔]/u;

/**
 * The request form's words, as the Agents Playground's page draws the cards in headless Chromium
 * and a person clicks them: the request form's name starts empty with the template's default name
 * as its placeholder, and the progress card's bar and step states are pictures whose text
 * equivalent a screen reader reads (the accessibility tree), with no symbol spelled out.
 */
describeWithPlayground({ chromium: true })('what a screen reader reads, in the Agents Playground', () => {
  const suite = chatSuite('words');

  it(
    'draws the form with a placeholder, and the progress card with text equivalents',
    async () => {
      await suite.stack().alex.say('new team');
      const gallery = await cardWith(suite.stack().alex, 'pickTemplate', { templateId: 'project' });
      // The gallery's "Choose" buttons, in the card's order: press the project template's.
      const picks: string[] = JSON.stringify(gallery.card).match(/"templateId":"[^"]+"/g) ?? [];
      const project = picks.indexOf('"templateId":"project"');
      expect(project).toBeGreaterThanOrEqual(0);
      const drawnGallery = await suite.page().card(/Choose a template/);
      await drawnGallery.locator.getByRole('button', { name: 'Choose', exact: true }).nth(project).click();

      // The form as drawn: an empty name whose placeholder is the template's default name.
      const form = await suite.page().card(/New team: Project team/);
      const name = form.locator.getByRole('textbox', { name: /Team name/ });
      expect(await name.inputValue()).toBe('');
      expect(await name.getAttribute('placeholder')).toBe('New project');
      await suite.page().screenshotOf(form, 'form');

      await name.fill('Kestrel');
      await form.press('Request the team');
      const progress = await suite.page().card(/PRJ-Kestrel[\s\S]*Create the team/, 60_000);
      await progress.showing(/Your team is ready/, 60_000);
      await suite.page().screenshotOf(progress, 'progress-ready');

      // What assistive technology gets: the bar and each state as words, no symbol spelled out.
      const tree = await progress.locator.ariaSnapshot();
      expect(tree).toMatch(/img "Progress: 100%"/);
      expect(tree).toMatch(/img "Done"/);
      expect(tree).not.toMatch(SPELLED);
      expect(await progress.text()).not.toMatch(SPELLED);
      // Steps that did not apply (no welcome message, no metadata) are not listed.
      expect(await progress.text()).not.toMatch(/Skipped/);
    },
    8 * STEP_MS,
  );
});
