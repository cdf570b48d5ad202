import { databaseKinds } from '../../support/databases';
import { provisionTeam } from '../../support/lifecycle';
import { PEOPLE } from '../../support/steward';
import { ENGLISH, frenchText } from '../support/cardTurns';
import { cardText, inputsById, type SentCard } from '../support/fakeConnector';
import { ADELE, ALEX, type BotHarness, startBotHarness } from '../support/botHarness';

/** The inputs of a card, by id, with the value the form was prefilled with. */
const valuesOf = (card: SentCard): Map<string, unknown> =>
  new Map([...inputsById(card)].map(([id, input]) => [id, input.value]));

/**
 * Five messages from people (docs/guides/bot.md), typed to the real bot over `/api/messages`
 * exactly as people wrote them, understood by the local engine and answered against a real Steward: a
 * request comes back as the prefilled form (nothing is created), a question as its answer.
 */
describe.each(databaseKinds)('messages in people’s own words, typed to the bot, on %s', (kind) => {
  let bot: BotHarness;
  beforeAll(async () => {
    bot = await startBotHarness(kind);
  }, 60_000);
  afterAll(() => bot?.close());

  /** The one card the bot answered `text` with. */
  async function cardFor(who: typeof ALEX, text: string): Promise<SentCard> {
    const before = bot.connector.sent.length;
    const answer = await bot.send(who, { type: 'message', text, ...ENGLISH });
    expect(answer.status).toBe(200);
    return bot.lastCard(who, before).card;
  }

  /** The one text the bot answered `text` with. */
  async function textFor(who: typeof ALEX, text: string): Promise<string> {
    const before = bot.connector.sent.length;
    await bot.send(who, { type: 'message', text, ...ENGLISH });
    const sent = bot.connector.sent.slice(before).map((s) => s.body as { text?: string });
    expect(sent).toHaveLength(1);
    return sent[0]!.text ?? '';
  }

  it('a request with people in it: the client template, the name, Adele and Isaiah as members', async () => {
    const alex = await bot.steward.userToken(PEOPLE.alex, [], { name: 'Alex Wilber' });
    const myJobs = async () =>
      (await bot.steward.call<{ value: unknown[] }>('GET', '/api/v1.0/me/jobs', { token: alex })).body.value;
    const jobsBefore = await myJobs();
    const card = await cardFor(ALEX, "I'd like a new team for the Contoso deal, with Adele and Isaiah in it");
    const text = cardText(card);
    expect(text).toContain('New team: Client engagement');
    expect(text).toContain('Client engagement, because you said *deal*.');
    expect(text).toContain('Under Members: Adele Vance and Isaiah Langer.');
    const values = valuesOf(card);
    expect(values.get('name')).toBe('Contoso');
    expect(String(values.get('members')).split(',').sort()).toEqual([PEOPLE.adele, PEOPLE.isaiah].sort());
    // Nothing is made until the person presses Request the team.
    expect(await myJobs()).toHaveLength(jobsBefore.length);
  });

  it('a named project with a co-owner: the project template, Mercury, Megan as owner', async () => {
    const card = await cardFor(ALEX, 'please create a project space called Mercury, Megan will co-own it');
    const text = cardText(card);
    expect(text).toContain('New team: Project team');
    expect(text).toContain('Project team, because you said *project space*.');
    const values = valuesOf(card);
    expect(values.get('name')).toBe('Mercury');
    expect(values.get('owners')).toBe(PEOPLE.megan);
  });

  it('in French, from a client set to English: Atlas, Lynne Robbins as member, the card in French', async () => {
    const card = await cardFor(ALEX, 'il me faut une équipe pour le projet Atlas avec Lynne Robbins');
    const text = frenchText(card);
    expect(text).toContain('Nouvelle équipe : Équipe projet');
    expect(text).toContain('parce que vous avez écrit *projet*');
    const values = valuesOf(card);
    expect(values.get('name')).toBe('Atlas');
    expect(values.get('members')).toBe(PEOPLE.lynne);
  });

  it('a template not offered to the person: said so, who it is for, and their own templates instead', async () => {
    // Alex is not in the Legal department: the legal matter template is not his to use.
    const card = await cardFor(ALEX, 'can we open a legal matter for the Kessler patent dispute?');
    const text = cardText(card);
    expect(text).toContain(
      '“Legal matter” is not offered to you. The catalog offers it to: “Department is Legal”.',
    );
    expect(text).toContain('ask your catalog manager if you need');
    expect(text).toContain('Project team');
    expect(text).not.toContain('New team: Legal matter');
    const french = frenchText(await cardFor(ALEX, 'ouvre-moi un dossier juridique pour le litige Ferrand'));
    expect(french).toContain('« Legal matter » n’est pas disponible pour vous.');
    expect(french).toContain('« Department is Legal »');
    // Who approves it: the same reason, as a sentence.
    expect(await textFor(ALEX, 'who approves a legal matter?')).toContain(
      '“Legal matter” is not offered to you.',
    );
  });

  it('who approves a template, asked by someone it is offered to: its approvers by name', async () => {
    const answer = await textFor(ADELE, 'who has to approve a legal matter team?');
    expect(answer).toMatch(/Legal matter/);
    expect(answer).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
  });

  it('the status of a request by its name: its card, and a plain answer for an unknown name', async () => {
    await provisionTeam(bot.steward, 'project', 'Northwind');
    const card = await cardFor(ALEX, "what's the status of my Northwind request?");
    expect(cardText(card)).toMatch(/PRJ-Northwind/);
    // By its name alone, in a question of the person's own words, in English or French.
    expect(cardText(await cardFor(ALEX, 'any news about northwind?'))).toMatch(/PRJ-Northwind/);
    expect(frenchText(await cardFor(ALEX, 'Northwind, c’est prêt ?'))).toMatch(/PRJ-Northwind/);
    expect(await textFor(ALEX, "what's the status of my Southwind request?")).toMatch(
      /no request of yours for a team called "Southwind"/,
    );
    // "status" opening a sentence is no `status <team name>` command: the name is read in it.
    expect(cardText(await cardFor(ALEX, 'status of the Northwind team?'))).toMatch(/PRJ-Northwind/);
    expect(await textFor(ALEX, 'status for the Southwind team please')).toMatch(
      /no request of yours for a team called "Southwind"/,
    );
  }, 60_000);
});
