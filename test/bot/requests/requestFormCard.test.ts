import { renderRequestFormCard, type RequestFormCardData } from '../../../src/bot/requests/requestFormCard';
import { cardJson, executeActions, expectValidCard, findAll } from '../cards/cardAssertions';
import { clientTemplate, REQUESTER, template } from '../cards/sampleData';

const people = [
  { title: REQUESTER.displayName, value: REQUESTER.id },
  { title: 'Megan Bowen', value: 'megan-bowen-id' },
];

function form(overrides: Partial<RequestFormCardData> = {}): RequestFormCardData {
  return {
    template: clientTemplate,
    finalNamePreview: 'Your team will be called "CLI-BE-Fabrikam".',
    nameMaxLength: 257,
    ownersNeeded: 1,
    membersNeeded: 0,
    sensitivityLabel: 'Confidential \\ All employees',
    people,
    problems: [],
    ...overrides,
  };
}

const input = (card: ReturnType<typeof renderRequestFormCard>, id: string) =>
  [...findAll(card.content, 'Input.Text'), ...findAll(card.content, 'Input.ChoiceSet')].find(
    (i) => i.id === id,
  );

describe('request form card', () => {
  it('is prefilled from the template defaults and shows the final-name preview, picture and approvers', () => {
    const project = template('project');
    const card = renderRequestFormCard(form({ template: project, sensitivityLabel: null }));
    expectValidCard(card);
    // The template's default name is a placeholder, not a value one careless press would submit.
    expect(input(card, 'name')).toMatchObject({ value: '', placeholder: 'New project', isRequired: true });
    // The project template's description convention builds on what is typed: the form says how.
    // The template's defaults are placeholders, not text to delete: left empty, the server applies them.
    expect(input(card, 'description')).toMatchObject({ value: '', placeholder: 'Project workspace' });
    expect(cardJson(card)).toContain('Description: the template turns what you type into');
    expect(input(card, 'welcomeMessage')).toMatchObject({
      value: '',
      placeholder: project.newTeam.defaultWelcomeMessage,
    });
    expect(findAll(card.content, 'Image')[0]?.url).toBe(project.templateConfiguration.pictureUrl);

    const client = renderRequestFormCard(form());
    const json = cardJson(client);
    expect(json).toContain('CLI-BE-Fabrikam');
    expect(json).toContain("Adele Vance and Siobhán O'Connor");
    expect(json).toContain('https://contoso.example/pictures/client-engagement.png');
  });

  it('validates inputs on the card: required name with a regex and length, longer texts capped', () => {
    const card = renderRequestFormCard(form());
    const name = input(card, 'name')!;
    expect(name).toMatchObject({ isRequired: true });
    // No maxLength: Teams cut pasted text at it without a word; the bot says what is too long instead.
    expect(name).not.toHaveProperty('maxLength');
    expect(name.errorMessage).toEqual(expect.any(String));
    const rule = new RegExp(name.regex as string);
    expect(rule.test('Project Falcon')).toBe(true);
    for (const bad of ['', '   ', 'What? no', 'a/b', 'say "hi"', 'back\\slash'])
      expect(rule.test(bad)).toBe(false);
    // The client template's description convention ignores what is typed: no input, the rule instead.
    expect(input(card, 'description')).toBeUndefined();
    expect(cardJson(card)).toContain('Description: set by the template');
    expect(input(card, 'welcomeMessage')).toMatchObject({ isMultiline: true });
    expect(input(card, 'welcomeMessage')).not.toHaveProperty('maxLength');
  });

  it('asks for owners and members with Data.Query people pickers and static fallback choices', () => {
    const card = renderRequestFormCard(form());
    for (const id of ['owners', 'members']) {
      const picker = input(card, id)!;
      expect(picker).toMatchObject({
        isMultiSelect: true,
        style: 'filtered',
        'choices.data': { type: 'Data.Query', dataset: 'users' },
        choices: people,
        value: '',
      });
    }
    expect(input(card, 'owners')).toMatchObject({ label: 'Owners', isRequired: true });
    expect(input(card, 'members')).toMatchObject({ label: 'Members', isRequired: false });
  });

  it('shows the people already chosen as ticked boxes with their names, above a search for others', () => {
    const card = renderRequestFormCard(
      form({ values: { owners: [REQUESTER.id, 'megan-bowen-id', 'unknown-id'] } }),
    );
    expectValidCard(card);
    // A searching picker draws its preset values as they are in some hosts: the chosen are boxes.
    expect(input(card, 'owners')).toEqual(
      expect.objectContaining({
        label: 'Owners',
        isMultiSelect: true,
        style: 'expanded',
        value: `${REQUESTER.id},megan-bowen-id,unknown-id`,
        choices: [...people, { title: 'unknown-id', value: 'unknown-id' }],
      }),
    );
    expect(input(card, 'owners')).not.toHaveProperty('choices.data');
    expect(input(card, 'moreOwners')).toMatchObject({
      label: 'Other owners',
      value: '',
      isRequired: false,
      'choices.data': { type: 'Data.Query', dataset: 'users' },
    });
    // Nobody chosen as a member: one searching picker, as on a fresh form.
    expect(input(card, 'moreMembers')).toBeUndefined();
    expect(input(card, 'members')).toMatchObject({
      label: 'Members',
      'choices.data': { type: 'Data.Query' },
    });
    // Their names go back with the answers, so the form shown again names them.
    expect(
      JSON.parse(String((executeActions(card, 'checkName')[0]!.data as { named: string }).named)),
    ).toEqual([...people, { title: 'unknown-id', value: 'unknown-id' }]);
  });

  it('shows privacy and label read-only, and submits with the template id', () => {
    const card = renderRequestFormCard(form());
    const facts = findAll(card.content, 'FactSet').flatMap(
      (set) => set.facts as { title: string; value: string }[],
    );
    expect(facts).toEqual(
      expect.arrayContaining([
        { title: 'Privacy', value: 'Private' },
        { title: 'Sensitivity label', value: 'Confidential \\ All employees' },
      ]),
    );
    expect(executeActions(card, 'submitRequest')).toEqual([
      expect.objectContaining({
        associatedInputs: 'auto',
        data: { templateId: 'client-engagement', formId: '', named: '[]' },
      }),
    ]);
    expect(executeActions(card, 'showTemplates')).toEqual([
      expect.objectContaining({ associatedInputs: 'none', data: { page: 0 } }),
    ]);
  });

  it('shows the answers again with the reasons a submission was refused', () => {
    const card = renderRequestFormCard(
      form({
        values: {
          name: 'Fabrikam',
          description: 'Our work with Fabrikam',
          owners: [REQUESTER.id, 'megan-bowen-id'],
        },
        problems: ['This template needs at least 2 owners; the request has 1.'],
      }),
    );
    expectValidCard(card);
    expect(input(card, 'name')?.value).toBe('Fabrikam');
    expect(input(card, 'owners')?.value).toBe(`${REQUESTER.id},megan-bowen-id`);
    expect(cardJson(card)).toContain('needs at least 2 owners');
  });

  it('stays under 28 KB with every text at its maximum and many people', () => {
    const long = {
      ...clientTemplate,
      templateConfiguration: { ...clientTemplate.templateConfiguration, description: 'd'.repeat(1024) },
      newTeam: {
        ...clientTemplate.newTeam,
        defaultName: 'N'.repeat(256),
        defaultDescription: 'é'.repeat(1024),
        defaultWelcomeMessage: 'Welcome 🚀 '.repeat(400).slice(0, 4000),
      },
    };
    const many = Array.from({ length: 200 }, (_, i) => ({
      title: `Person ${i} `.padEnd(80, 'x'),
      value: `user-${i}`,
    }));
    const card = renderRequestFormCard(
      form({ template: long, people: many, problems: Array(30).fill('p'.repeat(400)) }),
    );
    expectValidCard(card);
  });
  it('says what was understood of a typed request above the inputs, and nothing on a plain form', () => {
    const plain = renderRequestFormCard(form());
    expect(findAll(plain.content, 'Container').filter((c) => c.style === 'emphasis')).toEqual([]);
    const understood = renderRequestFormCard(
      form({
        values: { name: 'Fabrikam', owners: ['megan-bowen-id'] },
        understood: {
          because: 'Client engagement, because you said *client*.',
          notes: [
            '“Luc” may be Lucas Peeters or Lucía Fernández Ruiz: choose the right person under Members.',
          ],
        },
      }),
    );
    expectValidCard(understood);
    const box = findAll(understood.content, 'Container').find((c) => c.style === 'emphasis');
    expect(findAll(box, 'TextBlock').map((block) => block.text)).toEqual([
      'Client engagement, because you said *client*.',
      '“Luc” may be Lucas Peeters or Lucía Fernández Ruiz: choose the right person under Members.',
    ]);
    expect(input(understood, 'name')).toMatchObject({ value: 'Fabrikam' });
    expect(input(understood, 'owners')).toMatchObject({ value: 'megan-bowen-id' });
    expect(executeActions(understood, 'submitRequest')).toHaveLength(1);
  });
});
