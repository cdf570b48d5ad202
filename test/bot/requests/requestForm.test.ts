import { databaseKinds } from '../../support/databases';
import { ALEX, type BotHarness, startBotHarness } from '../support/botHarness';
import {
  actionData,
  cardText,
  inputsById,
  type SentCard,
  textBlocksOf,
  verbsOf,
} from '../support/fakeConnector';

const inputs = inputsById;

/** The form agrees with the server and with itself. */
describe.each(databaseKinds)('the request form, on %s', (kind) => {
  let bot: BotHarness;
  let form: SentCard;
  beforeAll(async () => {
    bot = await startBotHarness(kind);
    form = bot.cardOfAnswer(await bot.execute(ALEX, 'pickTemplate', { templateId: 'client-engagement' }));
  });
  afterAll(() => bot?.close());

  const submit = (answers: Record<string, unknown>, formId: string) =>
    bot.execute(ALEX, 'submitRequest', { ...actionData(form, 'submitRequest'), formId, ...answers });

  it('asks for the owners the server still needs: Alex and the permanent owner already make two', async () => {
    // Client engagement needs two owners: Alex (the requester) and Oliver Bennett (permanent) are two.
    expect(inputs(form).get('owners')).toMatchObject({ isRequired: false });
    const accepted = bot.cardOfAnswer(
      await submit({ name: 'Adatum', owners: '', members: '' }, 'owners-none'),
    );
    expect(cardText(accepted)).toContain('Request received');
  });

  it('shows the final name before submitting, with "Check name"', async () => {
    expect(verbsOf(form)).toContain('checkName');
    const checked = bot.cardOfAnswer(
      await bot.execute(ALEX, 'checkName', { ...actionData(form, 'checkName'), name: 'Acme' }),
    );
    expect(cardText(checked)).toContain('Your team will be called "CLI-US-Acme".');
    expect(inputs(checked).get('name')).toMatchObject({ value: 'Acme' });
    const bad = bot.cardOfAnswer(
      await bot.execute(ALEX, 'checkName', { ...actionData(form, 'checkName'), name: 'x'.repeat(260) }),
    );
    expect(cardText(bad)).toContain('The team name has 260 characters: keep it to at most 256.');
  });

  it('cuts nothing pasted into the name, and says the room the prefix leaves when the server refuses', async () => {
    // No maxLength: Teams cut pasted text at it without a word.
    expect(inputs(form).get('name')).not.toHaveProperty('maxLength');
    // "CLI-US-" takes 7 of the 256 characters Microsoft Graph allows.
    const refused = bot.cardOfAnswer(await submit({ name: 'y'.repeat(250) }, 'too-long'));
    const problem = textBlocksOf(refused).find((text) => /characters/.test(text));
    expect(problem).toBe('The team name has 250 characters: keep it to at most 249.');
    expect(inputs(refused).get('name')).toMatchObject({ value: 'y'.repeat(250) });
  });

  it('keeps the backslash in the forbidden-characters hints, as Markdown shows it', async () => {
    expect(String(inputs(form).get('name')!.errorMessage)).toContain('/ or \\ (backslash)');
    const refused = bot.cardOfAnswer(await submit({ name: 'a:b' }, 'forbidden'));
    // In Markdown, "\\" shows one backslash; a lone "\." would show a full stop.
    expect(textBlocksOf(refused).join('\n')).toContain('/ or \\\\ (backslash)');
  });

  it('says that the template writes the description instead of offering an input it ignores', () => {
    expect(inputs(form).has('description')).toBe(false);
    expect(cardText(form)).toContain(
      'Description: set by the template (“Engagement with {Team name}, requested by {Requester email}”).',
    );
  });
});
