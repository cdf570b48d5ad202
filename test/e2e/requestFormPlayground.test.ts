import type { DrawnCard } from './support/chatPage';
import { chatSuite } from './support/chatSuite';
import { describeWithPlayground } from './support/stack';
import { STEP_MS } from './support/steps';

/** A directory object id, as a picker would draw a person it holds by id only. */
const OBJECT_ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

/**
 * Whether the card shows `names`, and only them, as ticked boxes (the people already chosen for a
 * role), drawn by name between the role's `label` and the search for others (`next`). The
 * playground ties no accessible name to its boxes: they are counted, and their names read as drawn.
 */
async function showsTicked(card: DrawnCard, label: string, next: string, names: string[]): Promise<void> {
  const boxes = card.locator.getByRole('checkbox');
  let count = 0;
  for (const box of await boxes.all()) if (await box.isChecked()) count += 1;
  expect(count).toBe(names.length);
  const drawn = await card.text();
  for (const name of names) {
    expect(drawn).toMatch(new RegExp(`${label}\\s+[\\s\\S]*?${name}[\\s\\S]*?${next}`));
  }
}

/** The value and the placeholder of the card's text box labelled `label`. */
async function textBox(card: DrawnCard, label: RegExp): Promise<{ value: string; placeholder: string }> {
  const box = card.locator.getByRole('textbox', { name: label }).first();
  return { value: await box.inputValue(), placeholder: (await box.getAttribute('placeholder')) ?? '' };
}

/**
 * The request form as the Agents Playground draws it, in headless Chromium: the people typed in a
 * request are drawn by name (the playground draws a searching picker's preset values as they are,
 * ids included), the template's texts are placeholders, and the approval names who decides.
 */
describeWithPlayground({ chromium: true })('the request form, drawn by the Agents Playground', () => {
  const suite = chatSuite('request-form');

  it(
    'draws the people typed by name, before and after Check name, with the template’s texts as placeholders',
    async () => {
      await suite.page().type('please create a project space called Mercury, Megan will co-own it');
      const form = await suite.page().card(/New team: Project team[\s\S]*because you said/);
      await suite.page().screenshotOf(form, 'people-by-name');
      await showsTicked(form, 'Owners', 'Other owners', ['Megan Bowen']);
      expect(await form.text()).not.toMatch(OBJECT_ID);
      expect(await textBox(form, /^Description/)).toEqual({ value: '', placeholder: 'Project workspace' });
      expect(await textBox(form, /^Welcome message/)).toEqual({
        value: '',
        placeholder: 'Welcome to the project! Start with the charter tab in Planning.',
      });

      await form.press('Check name');
      await form.showing(/Your team will be called "PRJ-Mercury"/);
      await suite.page().screenshotOf(form, 'checked-name');
      await showsTicked(form, 'Owners', 'Other owners', ['Megan Bowen']);
      expect(await form.text()).not.toMatch(OBJECT_ID);
    },
    6 * STEP_MS,
  );

  it(
    'names who a rule picks to approve, and a French reader’s people by name',
    async () => {
      await suite.page().type('who approves a shared partner workspace?');
      await suite.page().says(/Shared partner workspace/);
      await suite.page().type('I need a shared partner workspace called Tailspin');
      const partner = await suite.page().card(/New team: Shared partner workspace/);
      expect(await partner.text()).toMatch(/Approval\s+Needed: Adele Vance, then Lynne Robbins/);
      await suite.page().screenshotOf(partner, 'approvers-by-name');

      await suite.page().type('language fr');
      await suite.page().says(/Désormais, je vous parle en français/);
      await suite.page().type('il me faut une équipe pour le projet Atlas avec Lynne Robbins');
      const form = await suite.page().card(/Nouvelle équipe : Équipe projet/);
      await suite.page().screenshotOf(form, 'french-people-by-name');
      await showsTicked(form, 'Membres', 'Autres membres', ['Lynne Robbins']);
      expect(await form.text()).not.toMatch(OBJECT_ID);
    },
    8 * STEP_MS,
  );
});
