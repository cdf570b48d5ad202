import { databaseKinds } from '../../support/databases';
import { ALEX, type BotAnswer, type BotHarness, startBotHarness } from '../support/botHarness';
import { ENGLISH, FRENCH } from '../support/cardTurns';
import { actionData, cardText, fact, inputsById, type SentCard } from '../support/fakeConnector';

type Node = Record<string, unknown>;

const inputs = inputsById;

/**
 * What a host draws for the people a picker holds when the card arrives. A picker with `choices.data`
 * (dynamic search) is drawn by the Agents Playground's renderer as its `value`, as it is; other
 * pickers draw each value by the title of its static choice (the value itself when none has it).
 */
function drawnPeople(picker: Node | undefined): string[] {
  const values = String(picker?.value ?? '')
    .split(',')
    .filter((value) => value !== '');
  if (picker?.['choices.data']) return values;
  const choices = (picker?.choices ?? []) as Array<{ title: string; value: string }>;
  return values.map((value) => choices.find((choice) => choice.value === value)?.title ?? value);
}

/** The people a form shows under a role, across its pickers of that role. */
function shownUnder(card: SentCard, role: 'owners' | 'members'): string[] {
  const more = role === 'owners' ? 'moreOwners' : 'moreMembers';
  return [...drawnPeople(inputs(card).get(role)), ...drawnPeople(inputs(card).get(more))];
}

/** What the host sends for a button of the card: the action's data and every input's value, unchanged. */
function pressed(card: SentCard, verb: string): Node {
  const answers = Object.fromEntries([...inputs(card)].map(([id, input]) => [id, input.value ?? '']));
  return { ...actionData(card, verb), ...answers };
}

const GUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

describe.each(databaseKinds)('the request form as hosts draw it, on %s', (kind) => {
  let bot: BotHarness;
  beforeAll(async () => {
    bot = await startBotHarness(kind);
  });
  afterAll(() => bot?.close());

  const press = (verb: string, data: Node, locale: object): Promise<BotAnswer> =>
    bot.send(ALEX, {
      type: 'invoke',
      name: 'adaptiveCard/action',
      replyToId: 'form-message',
      value: { action: { type: 'Action.Execute', verb, data } },
      ...locale,
    });

  /** The form Steward answers a typed request with. */
  const typed = async (text: string, locale: object): Promise<SentCard> => {
    const mark = bot.connector.sent.length;
    await bot.send(ALEX, { type: 'message', text, ...locale });
    return bot.connector.waitFor(() => {
      try {
        return bot.lastCard(ALEX, mark).card;
      } catch {
        return undefined;
      }
    });
  };

  it.each([
    [
      'English',
      ENGLISH,
      'please create a project space called Mercury, Megan will co-own it',
      'owners' as const,
      'Megan Bowen',
      'Check name',
    ],
    [
      'French',
      FRENCH,
      'il me faut une équipe pour le projet Atlas avec Lynne Robbins',
      'members' as const,
      'Lynne Robbins',
      'Vérifier le nom',
    ],
  ])(
    'names the people typed in a %s request, on the form and again after Check name',
    async (_language, locale, text, role, name, checkTitle) => {
      const form = await typed(text, locale);
      expect(shownUnder(form, role)).toEqual([name]);
      expect(cardText(form)).toContain(checkTitle);
      const checked = bot.cardOfAnswer(await press('checkName', pressed(form, 'checkName'), locale));
      expect(shownUnder(checked, role)).toEqual([name]);
      // Nothing drawn in a picker is a directory id.
      for (const id of ['owners', 'moreOwners', 'members', 'moreMembers'])
        for (const shown of drawnPeople(inputs(checked).get(id))) expect(shown).not.toMatch(GUID);
    },
  );

  it.each([
    ['English', ENGLISH, 'Description'],
    ['French', FRENCH, 'Description'],
  ])(
    'offers the template’s description and welcome message as placeholders (%s), and the request gets them',
    async (_language, locale, label) => {
      const form = bot.cardOfAnswer(await press('pickTemplate', { templateId: 'project' }, locale));
      expect(inputs(form).get('description')).toMatchObject({
        label,
        value: '',
        placeholder: 'Project workspace',
      });
      expect(inputs(form).get('welcomeMessage')).toMatchObject({
        value: '',
        placeholder: 'Welcome to the project! Start with the charter tab in Planning.',
      });
      const mark = bot.connector.sent.length;
      const name = `Orion ${String(locale === FRENCH)}`;
      const accepted = bot.cardOfAnswer(
        await press('submitRequest', { ...pressed(form, 'submitRequest'), name }, locale),
      );
      expect(cardText(accepted)).toContain(`PRJ-${name}`);
      const jobId = String(actionData(bot.progressCard(ALEX, mark).card, 'showStatus')!.jobId);
      const token = await bot.steward.userToken(ALEX.aadObjectId);
      const job = await bot.steward.call<{
        data: { plan: { description: string; welcomeMessage: string } };
      }>('GET', `/api/v1.0/jobs/${jobId}`, { token });
      expect(job.body.data.plan).toMatchObject({
        description: 'Project workspace (project led by Alex Wilber)',
        welcomeMessage: 'Welcome to the project! Start with the charter tab in Planning.',
      });
    },
  );

  it.each([
    ['English', ENGLISH, 'Approval', /Adele Vance, then Lynne Robbins/],
    ['French', FRENCH, 'Approbation', /Adele Vance, puis Lynne Robbins/],
  ])(
    'names who a staged policy’s rule picks to approve, before anything is sent (%s)',
    async (_language, locale, title, names) => {
      const form = bot.cardOfAnswer(await press('pickTemplate', { templateId: 'partner-workspace' }, locale));
      // Legal names Adele Vance; Compliance's rule picks Lynne Robbins for Alex (Marketing).
      expect(fact(form, title)).toMatch(names);
    },
  );
});
