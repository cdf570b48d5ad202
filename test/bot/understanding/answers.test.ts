import type { Reply } from '../../../src/bot/conversations/reply';
import type { PeopleResolver } from '../../../src/bot/understanding/answers';
import { type PeopleMatcher, resolvePeople } from '../../../src/bot/understanding/directoryLookup';
import type { Understanding } from '../../../src/bot/understanding/types';
import type { Job } from '../../../src/contract';
import { databaseKinds } from '../../support/databases';
import { DAY, lifecycleTemplate, provisionTeam } from '../../support/lifecycle';
import { PEOPLE } from '../../support/steward';
import { expectValidCard } from '../cards/cardAssertions';
import { ALEX, type BotHarness, MEGAN, startBotHarness } from '../support/botHarness';
import { ENGLISH, FRENCH, frenchText } from '../support/cardTurns';
import { readTexts } from '../support/englishLeaks';
import { actionData, cardText, inputsById, type SentCard, verbsOf } from '../support/fakeConnector';
import { answerOf, type Locale, understanding, verbDependencies } from '../support/understandingTurns';
import type { VerbDependencies } from '../../../src/bot/verbs';

/** The seeded people these tests name, by object id, as the bot's tokens name them. */
const NAMES: Record<string, string> = {
  [PEOPLE.alex]: 'Alex Wilber',
  [PEOPLE.megan]: 'Megan Bowen',
  [PEOPLE.adele]: 'Adele Vance',
  [PEOPLE.lynne]: 'Lynne Robbins',
};

/** The test's own matcher (the engine's is not on this branch): display names that start with the name. */
const byName: PeopleMatcher = (mention, candidates) => {
  const wanted = mention.text.trim().toLowerCase();
  const matches = candidates.filter((person) => person.displayName.toLowerCase().startsWith(wanted));
  return { mention, matches, ambiguous: matches.length > 1 };
};
const lookUp: PeopleResolver = (api, mentions) => resolvePeople(api, mentions, byName);

const inputs = inputsById;

/** A picker's static choices, as `title=value`. */
const choicesOf = (card: SentCard, id: string): string[] =>
  ((inputs(card).get(id)?.choices ?? []) as Array<{ title: string; value: string }>).map(
    (choice) => `${choice.title}=${choice.value}`,
  );

/** The card of a card reply, checked as every card is (schema, size, nothing left unbound). */
function cardOfReply(reply: Reply): SentCard {
  if (reply.kind !== 'card') throw new Error(`a text, not a card: ${reply.text}`);
  expectValidCard(reply.card);
  return reply.card.content as SentCard;
}

const textOf = (reply: Reply): string => {
  if (reply.kind !== 'text') throw new Error(`a card, not a text: ${cardText(reply.card.content)}`);
  return reply.text;
};

/** No object id on what a person reads (the seeded ids all look like this). */
const ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const expectNoIds = (card: SentCard) => expect(readTexts(card).filter((text) => ID.test(text))).toEqual([]);

/**
 * What the bot answers to what it understood of a typed message, in a real botbuilder
 * turn, calling a real Steward over loopback HTTP as the person; the answers' buttons pressed
 * through the real bot's `/api/messages`.
 */
describe.each(databaseKinds)('the bot’s answers to what it understood, on %s', (kind) => {
  let bot: BotHarness;
  let deps: VerbDependencies;
  let closeDeps: () => Promise<void>;
  let offset = 0;

  beforeAll(async () => {
    bot = await startBotHarness(
      kind,
      { STEWARD_LIFECYCLE_EVALUATION_AT: 'off' },
      { clock: () => Date.now() + offset },
    );
    ({ deps, close: closeDeps } = verbDependencies(bot.steward, NAMES));
  }, 60_000);
  afterAll(async () => {
    await closeDeps?.();
    await bot?.close();
  });

  const ask = (understood: Understanding, locale: Locale = ENGLISH, who = ALEX) =>
    answerOf(deps, who, understood, locale, lookUp);
  const request = (parts: Partial<Understanding>) => understanding('requestTeam', parts);

  describe('a request in free text comes back as the request form, prefilled', () => {
    it.each([
      {
        said: 'I’d like a project team called Mercury with Megan as owner',
        locale: ENGLISH,
        understood: request({
          templates: [{ id: 'project', because: 'project', score: 0.9 }],
          teamName: 'Mercury',
          people: [{ text: 'Megan', role: 'owner' }],
        }),
        title: 'New team: Project team',
        because: 'Project team, because you said *project*.',
        name: 'Mercury',
        description: 'Project workspace',
        owners: [PEOPLE.megan],
        members: [],
        named: ['Megan Bowen'],
      },
      {
        said: 'we need a team for the Contoso deal with Adele and Isaiah',
        locale: ENGLISH,
        understood: request({
          templates: [{ id: 'client-engagement', because: 'deal', score: 0.7 }],
          teamName: 'Contoso',
          description: 'Our work on the Contoso deal',
          people: [
            { text: 'Adele', role: 'member' },
            { text: 'Isaiah', role: 'member' },
          ],
        }),
        title: 'New team: Client engagement',
        because: 'Client engagement, because you said *deal*.',
        name: 'Contoso',
        // The template's convention writes the description: the form offers no input for it.
        description: null,
        owners: [],
        members: [PEOPLE.adele, PEOPLE.isaiah],
        named: ['Adele Vance', 'Isaiah Langer'],
      },
      {
        said: 'il me faut une équipe projet Mercure avec Megan comme propriétaire',
        locale: FRENCH,
        understood: request({
          language: 'fr',
          templates: [{ id: 'project', because: 'équipe projet', score: 0.9 }],
          teamName: 'Mercure',
          people: [{ text: 'Megan', role: 'owner' }],
        }),
        title: 'Nouvelle équipe : Équipe projet',
        because: 'Équipe projet, parce que vous avez écrit *équipe projet*.',
        name: 'Mercure',
        description: 'Project workspace',
        owners: [PEOPLE.megan],
        members: [],
        named: ['Megan Bowen'],
      },
      {
        said: 'une cohorte d’intégration Printemps 2027 avec Lynne et Adele comme membres',
        locale: FRENCH,
        understood: request({
          language: 'fr',
          templates: [{ id: 'onboarding-cohort', because: 'cohorte d’intégration', score: 0.8 }],
          teamName: 'Printemps 2027',
          description: 'Les arrivants du printemps',
          people: [
            { text: 'Lynne', role: 'member' },
            { text: 'Adele', role: 'member' },
          ],
        }),
        title: 'Nouvelle équipe : Promotion d’intégration',
        because: 'Promotion d’intégration, parce que vous avez écrit *cohorte d’intégration*.',
        name: 'Printemps 2027',
        description: 'Les arrivants du printemps',
        owners: [],
        members: [PEOPLE.lynne, PEOPLE.adele],
        named: ['Lynne Robbins', 'Adele Vance'],
      },
      {
        said: 'a partner workspace for Fabrikam, owners Megan and Lynne, Megan as a member too',
        locale: ENGLISH,
        understood: request({
          templates: [
            { id: 'partner-workspace', because: 'partner workspace', score: 0.95 },
            { id: 'project', because: 'workspace', score: 0.3 },
          ],
          teamName: 'Fabrikam',
          people: [
            { text: 'Megan', role: 'owner' },
            { text: 'Lynne', role: 'owner' },
            { text: 'Megan', role: 'member' },
          ],
        }),
        title: 'New team: Shared partner workspace',
        because: 'Shared partner workspace, because you said *partner workspace*.',
        name: 'Fabrikam',
        description: 'Shared workspace with a partner',
        // Megan is named as an owner and as a member: an owner.
        owners: [PEOPLE.megan, PEOPLE.lynne],
        members: [],
        named: ['Megan Bowen', 'Lynne Robbins'],
      },
    ])('“$said”', async (example) => {
      const card = cardOfReply(await ask(example.understood, example.locale));
      const text = example.locale === FRENCH ? frenchText(card) : readTexts(card).join('\n');
      expect(text).toContain(example.title);
      expect(text).toContain(example.because);
      const fields = inputs(card);
      // Every field stays editable, filled with what was understood.
      expect(fields.get('name')).toMatchObject({ type: 'Input.Text', value: example.name });
      // The template's default description is the input's placeholder, not text to delete.
      if (example.description === null) expect(fields.has('description')).toBe(false);
      else
        expect(fields.get('description')).toMatchObject(
          example.understood.description
            ? { type: 'Input.Text', value: example.description }
            : { type: 'Input.Text', value: '', placeholder: example.description },
        );
      expect(fields.get('owners')).toMatchObject({
        type: 'Input.ChoiceSet',
        value: example.owners.join(','),
      });
      expect(fields.get('members')).toMatchObject({
        type: 'Input.ChoiceSet',
        value: example.members.join(','),
      });
      // The people named are listed first in the pickers, by name.
      const named = example.named.map(
        (name, index) => `${name}=${[...example.owners, ...example.members][index]}`,
      );
      expect(choicesOf(card, 'owners').slice(0, named.length)).toEqual(named);
      // Nothing is made before Request the team; Other templates still leads to the gallery.
      expect(verbsOf(card)).toEqual(['submitRequest', 'checkName', 'showTemplates']);
      expect(actionData(card, 'submitRequest')).toMatchObject({
        templateId: example.understood.templates[0]!.id,
      });
      expectNoIds(card);
    });

    it('offers the people a name fits, in its picker, and says so', async () => {
      const card = cardOfReply(
        await ask(
          request({
            templates: [{ id: 'project', because: 'project', score: 1 }],
            people: [{ text: 'Luc', role: 'member' }],
          }),
        ),
      );
      expect(readTexts(card)).toContain(
        '“Luc” may be Lucas Peeters or Lucía Fernández Ruiz: choose the right person under Members.',
      );
      expect(inputs(card).get('members')).toMatchObject({ value: '' });
      expect(
        choicesOf(card, 'members')
          .slice(0, 2)
          .map((choice) => choice.split('=')[0])
          .sort(),
      ).toEqual(['Lucas Peeters', 'Lucía Fernández Ruiz']);
      const french = cardOfReply(
        await ask(
          request({
            templates: [{ id: 'project', because: 'projet', score: 1 }],
            people: [{ text: 'Luc', role: 'owner' }],
          }),
          FRENCH,
        ),
      );
      expect(frenchText(french)).toContain(
        '« Luc » peut être Lucas Peeters ou Lucía Fernández Ruiz : choisissez la bonne personne dans Propriétaires.',
      );
    });

    it('names a person the directory does not know, and leaves them out', async () => {
      const understood = request({
        templates: [{ id: 'project', because: 'project', score: 1 }],
        teamName: 'Orion',
        people: [
          { text: 'Zebulon', role: 'owner' },
          { text: 'Megan', role: 'member' },
        ],
      });
      const card = cardOfReply(await ask(understood));
      expect(readTexts(card)).toContain(
        'I found nobody called “Zebulon” in the directory, so they are not on the form: add them under Owners if you need them.',
      );
      expect(inputs(card).get('owners')).toMatchObject({ value: '' });
      expect(inputs(card).get('members')).toMatchObject({ value: PEOPLE.megan });
      const french = frenchText(cardOfReply(await ask(understood, FRENCH)));
      expect(french).toContain(
        'Je n’ai trouvé personne du nom de « Zebulon » dans l’annuaire ; cette personne n’est donc pas sur le formulaire : ajoutez-la dans Propriétaires si besoin.',
      );
    });

    it('shows the gallery, saying why, for a template not offered to the person, or none understood', async () => {
      const legal = request({
        templates: [{ id: 'legal-matter', because: 'legal matter', score: 0.9 }],
        teamName: 'Case',
      });
      const gallery = cardOfReply(await ask(legal));
      expect(readTexts(gallery)).toContain(
        'The templates that fit *legal matter* are not offered to you. Here are the templates you can use.',
      );
      expect(cardText(gallery)).not.toContain('Legal matter');
      expect(verbsOf(gallery)).toContain('pickTemplate');
      expect(frenchText(cardOfReply(await ask(legal, FRENCH)))).toContain(
        'Les modèles qui correspondent à *legal matter* ne vous sont pas proposés. Voici les modèles que vous pouvez utiliser.',
      );
      const none = cardOfReply(await ask(request({ teamName: 'Mercury' })));
      expect(readTexts(none)).toContain(
        'I could not tell which template fits. Choose one below: the form will keep what you told me (“Mercury”).',
      );
      const nothing = cardOfReply(await ask(request({})));
      expect(readTexts(nothing)).toContain('I could not tell which template fits. Choose one below.');
    });

    it('shows what is wrong with a name understood, on the form', async () => {
      const card = cardOfReply(
        await ask(
          request({ templates: [{ id: 'project', because: 'project', score: 1 }], teamName: 'R&D: *new*?' }),
        ),
      );
      expect(inputs(card).get('name')).toMatchObject({ value: 'R&D: *new*?' });
      expect(cardText(card)).toMatch(/cannot contain/);
    });

    it('answers whatever the engine gives with a form, never a failure: long texts, many people, odd words', async () => {
      const card = cardOfReply(
        await ask(
          request({
            templates: [
              { id: '', because: 'nothing', score: 1 },
              { id: 'constructor', because: 'odd', score: 1 },
              {
                id: 'project',
                because: '*bold* [link](https://example.com) `code`\n\nnew paragraph',
                score: 0.5,
              },
            ],
            teamName: 'N'.repeat(5000),
            description: 'D'.repeat(50_000),
            people: Array.from({ length: 40 }, (_, index) => ({
              text: index % 2 ? `Nobody${index} *x*` : 'Megan',
              role: index % 3 ? 'member' : 'owner',
            })),
          }),
        ),
      );
      const texts = readTexts(card);
      // The person's words are shown as written, on one line, never as Markdown of their own.
      expect(texts).toContain(
        'Project team, because you said *\\*bold\\* \\[link\\](https://example.com) \\`code\\` new paragraph*.',
      );
      expect(String(inputs(card).get('name')?.value)).toHaveLength(512);
      expect(String(inputs(card).get('description')?.value)).toHaveLength(1024);
      expect(texts).toContain('The team name has 512 characters: keep it to at most 256.');
      // Megan, named twenty times, once as an owner: an owner, looked up once.
      expect(inputs(card).get('owners')).toMatchObject({ value: PEOPLE.megan });
      expect(inputs(card).get('members')).toMatchObject({ value: '' });
      // Of the 21 people named, the first ten are looked up; the form says so.
      expect(texts.filter((text) => text.startsWith('I found nobody called')).length).toBe(9);
      expect(texts).toContain(
        'I looked up only the first 10 people you named: add the others under Owners or Members.',
      );
    });

    it('says plain sentences when the engine gives no words for the template it points at', async () => {
      const form = cardOfReply(
        await ask(request({ templates: [{ id: 'project', because: '  ', score: 1 }] })),
      );
      expect(readTexts(form).filter((text) => text.includes('because you said'))).toEqual([]);
      expect(
        readTexts(
          cardOfReply(await ask(request({ templates: [{ id: 'legal-matter', because: '', score: 1 }] }))),
        ),
      ).toContain('The template you asked for is not offered to you. Here are the templates you can use.');
      expect(
        textOf(
          await ask(
            understanding('askApprovers', { templates: [{ id: 'legal-matter', because: '', score: 1 }] }),
            FRENCH,
          ),
        ),
      ).toBe('Le modèle dont vous parlez ne vous est pas proposé : vous ne pouvez pas le demander.');
      expect(
        readTexts(
          cardOfReply(
            await ask(
              understanding('askTemplates', { templates: [{ id: 'project', because: '', score: 1 }] }),
            ),
          ),
        ),
      ).toContain('Templates that fit');
    });

    it('makes, when Request the team is pressed, the very request the plain form makes', async () => {
      const prefilled = cardOfReply(
        await ask(
          request({
            templates: [{ id: 'project', because: 'project', score: 1 }],
            teamName: 'Mercury',
            description: 'Launch of Mercury',
            people: [
              { text: 'Megan', role: 'owner' },
              { text: 'Adele', role: 'member' },
            ],
          }),
        ),
      );
      const typed = (card: SentCard) =>
        Object.fromEntries(
          ['name', 'description', 'welcomeMessage', 'owners', 'members'].map((id) => [
            id,
            inputs(card).get(id)?.value,
          ]),
        );
      const answers = typed(prefilled);
      expect(answers).toMatchObject({ name: 'Mercury', owners: PEOPLE.megan, members: PEOPLE.adele });
      // The same answers typed on the plain form, as "new team" → Project team shows it.
      const plain = bot.cardOfAnswer(await bot.execute(ALEX, 'pickTemplate', { templateId: 'project' }));
      const made: Job[] = [];
      for (const [index, card] of [prefilled, plain].entries()) {
        // The second is like the first: its form is sent as "Create anyway" sends it.
        const anyway = index === 1 ? { skipSimilar: true } : {};
        const confirmation = bot.cardOfAnswer(
          await bot.execute(ALEX, 'submitRequest', {
            ...actionData(card, 'submitRequest'),
            ...answers,
            ...anyway,
          }),
        );
        expect(cardText(confirmation)).toContain('PRJ-Mercury');
        const alex = await bot.steward.userToken(PEOPLE.alex, [], { name: 'Alex Wilber' });
        const mine = await bot.steward.call<{ value: Job[] }>('GET', '/api/v1.0/me/jobs?$top=1', {
          token: alex,
        });
        made.push(mine.body.value[0]!);
      }
      expect(made[0]!.id).not.toBe(made[1]!.id);
      expect(made[0]!.data.request).toEqual(made[1]!.data.request);
      expect(made[0]!.data.request).toMatchObject({
        template: { id: 'project' },
        team: { name: 'Mercury', description: 'Launch of Mercury' },
      });
    });
  });

  describe('questions answered in chat', () => {
    const approvers = (id: string, because: string) =>
      understanding('askApprovers', { templates: [{ id, because, score: 0.9 }] });

    it('who approves a template: its approvers, its stages, or no approval at all', async () => {
      expect(textOf(await ask(approvers('client-engagement', 'client engagement')))).toBe(
        "A request for “Client engagement” is approved by any one of Adele Vance and Siobhán O'Connor.",
      );
      expect(textOf(await ask(approvers('partner-workspace', 'partner')))).toBe(
        [
          'A request for “Shared partner workspace” goes through 2 approval stages, one after the other:',
          'Stage 1, Legal: Adele Vance decides.',
          'Stage 2, Compliance: the people a rule of the template chooses for your request decide.',
        ].join('\n\n'),
      );
      expect(textOf(await ask(approvers('project', 'project')))).toBe(
        '“Project team” needs no approval: the team is created as soon as you request it.',
      );
      expect(textOf(await ask(approvers('client-engagement', 'engagement client'), FRENCH))).toBe(
        "Une demande avec le modèle « Client engagement » est approuvée par l’une des personnes suivantes : Adele Vance et Siobhán O'Connor.",
      );
      expect(textOf(await ask(approvers('partner-workspace', 'partenaire'), FRENCH))).toContain(
        'Étape 1, Legal : Adele Vance décide.',
      );
      expect(textOf(await ask(approvers('project', 'projet'), FRENCH))).toBe(
        '« Project team » ne demande aucune approbation : l’équipe est créée dès que vous la demandez.',
      );
      expect(textOf(await ask(approvers('legal-matter', 'legal')))).toBe(
        'The templates that fit *legal* are not offered to you, so you cannot request them.',
      );
      expect(textOf(await ask(understanding('askApprovers')))).toMatch(
        /^Which template do you mean\? Ask me, for example: who approves “.+”\?$/,
      );
    });

    it('the state of my requests: all of them, those waiting, one by name', async () => {
      const alex = await bot.steward.userToken(PEOPLE.alex, [], { name: 'Alex Wilber' });
      const waiting = await bot.steward.call('POST', '/api/v1.0/teams/provisioning', {
        token: alex,
        body: { template: { id: 'client-engagement' }, team: { name: 'Northwind' } },
      });
      expect(waiting.status).toBe(201);
      const all = cardOfReply(await ask(understanding('askRequestStatus', { requestFilter: 'all' })));
      expect(readTexts(all)).toContain('My requests');
      expect(cardText(all)).toContain('CLI-US-Northwind');
      expect(cardText(all)).toContain('PRJ-Mercury');
      const onlyWaiting = cardOfReply(
        await ask(understanding('askRequestStatus', { requestFilter: 'waiting' })),
      );
      expect(readTexts(onlyWaiting)).toContain('My requests still waiting');
      expect(cardText(onlyWaiting)).toContain('CLI-US-Northwind');
      expect(cardText(onlyWaiting)).not.toContain('PRJ-Mercury');
      const french = frenchText(
        cardOfReply(await ask(understanding('askRequestStatus', { requestFilter: 'waiting' }), FRENCH)),
      );
      expect(french).toContain('Mes demandes en attente');
      const one = await ask(understanding('askRequestStatus', { requestName: 'northwind' }));
      const progress = cardOfReply(one);
      expect(cardText(progress)).toContain('CLI-US-Northwind');
      expect(cardText(progress)).toMatch(/Waiting for approval/);
      // The status card follows the request, as `status <team>` does.
      expect(one).toMatchObject({ kind: 'card', shows: { id: (waiting.body as Job).id } });
      expect(textOf(await ask(understanding('askRequestStatus', { requestName: 'Atlantis' })))).toMatch(
        /Atlantis/,
      );
    });

    it('my teams that expire or are inactive soon, with their actions', async () => {
      expect(textOf(await ask(understanding('askExpiringTeams')))).toBe(
        'None of the teams you requested expires or is inactive soon.',
      );
      await lifecycleTemplate(bot.steward, 'renewable', {
        expiration: { enabled: true, days: 365, renewalNoticeDays: [30, 7], onExpiry: 'archive' },
      });
      await lifecycleTemplate(bot.steward, 'dormant', {
        inactivity: { enabled: true, days: 30, onInactive: 'notify' },
      });
      const atlas = await provisionTeam(bot.steward, 'renewable', 'Atlas');
      await provisionTeam(bot.steward, 'dormant', 'Quiet');
      expect(textOf(await ask(understanding('askExpiringTeams')))).toBe(
        'None of the teams you requested expires or is inactive soon.',
      );
      offset = 340 * DAY;
      try {
        const card = cardOfReply(await ask(understanding('askExpiringTeams')));
        const texts = readTexts(card);
        expect(texts).toContain('Your teams that expire or are inactive soon');
        const expiresOn = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(
          new Date(Date.now() + 365 * DAY),
        );
        expect(texts).toEqual(
          expect.arrayContaining([
            'Atlas',
            `Expires on ${expiresOn}.`,
            'Quiet',
            'Renew for a year',
            'Keep it',
            'Archive',
          ]),
        );
        expect(texts.some((text) => text.startsWith('No activity since '))).toBe(true);
        expect(verbsOf(card).sort()).toEqual(['archiveTeamNow', 'archiveTeamNow', 'keepTeam', 'renewTeam']);
        expectNoIds(card);
        const french = frenchText(cardOfReply(await ask(understanding('askExpiringTeams'), FRENCH)));
        expect(french).toContain('Vos équipes qui expirent ou sont inactives bientôt');
        expect(french).toContain('Renouveler pour un an');
        // Renew, pressed through the bot: the team is renewed, and its card names it.
        const renewed = bot.cardOfAnswer(
          await bot.execute(ALEX, 'renewTeam', actionData(card, 'renewTeam')!),
        );
        expect(actionData(card, 'renewTeam')).toEqual({ teamId: atlas });
        expect(cardText(renewed)).toContain('Atlas');
        expect(cardText(renewed)).not.toContain(atlas);
        expect(cardText(renewed)).toMatch(/renewed/i);
      } finally {
        offset = 0;
      }
    });

    it('which templates suit a purpose: the person’s own, each with Request', async () => {
      const understood = understanding('askTemplates', {
        templates: [
          { id: 'client-engagement', because: 'client project', score: 0.8 },
          { id: 'legal-matter', because: 'client project', score: 0.6 },
          { id: 'project', because: 'project', score: 0.5 },
        ],
      });
      const card = cardOfReply(await ask(understood));
      const texts = readTexts(card);
      expect(texts).toContain('Templates for *client project*');
      expect(texts).toEqual(
        expect.arrayContaining(['Client engagement', 'Project team', 'Request', 'Other templates']),
      );
      expect(cardText(card)).not.toContain('Legal matter');
      expect(
        verbsOf(card).map((verb, index) => (verb === 'pickTemplate' ? actionDataAt(card, index) : verb)),
      ).toEqual(['client-engagement', 'project', 'showTemplates']);
      expect(frenchText(cardOfReply(await ask(understood, FRENCH)))).toContain(
        'Modèles pour *client project*',
      );
      // Request leads to that template's form.
      const form = bot.cardOfAnswer(
        await bot.execute(ALEX, 'pickTemplate', actionData(card, 'pickTemplate')!),
      );
      expect(cardText(form)).toContain('New team: Client engagement');
      const noneFits = cardOfReply(
        await ask(
          understanding('askTemplates', {
            templates: [{ id: 'legal-matter', because: 'lawsuit', score: 1 }],
          }),
        ),
      );
      expect(readTexts(noneFits)).toContain(
        'None of your templates fits *lawsuit*. Here are all the templates you can use.',
      );
      expect(readTexts(cardOfReply(await ask(understanding('askTemplates'))))).toContain(
        'Here are the templates you can use.',
      );
    });

    it('what Steward can do, small talk, and help for what was not understood', async () => {
      const can = cardOfReply(await ask(understanding('askCapabilities')));
      expect(readTexts(can)).toContain('What I can do');
      expect(verbsOf(can)).toEqual(['requestTeam', 'myRequests', 'help']);
      expect(frenchText(cardOfReply(await ask(understanding('askCapabilities'), FRENCH)))).toContain(
        'Ce que je sais faire',
      );
      const hello = cardOfReply(await ask(understanding('greeting'), ENGLISH, MEGAN));
      expect(readTexts(hello)).toContain('Hi Megan, I am Steward');
      expect(frenchText(cardOfReply(await ask(understanding('greeting'), FRENCH, MEGAN)))).toContain(
        'Bonjour Megan, je suis Steward',
      );
      expect(textOf(await ask(understanding('thanks'), FRENCH))).toMatch(/^Avec plaisir/);
      expect(readTexts(cardOfReply(await ask(understanding('none'))))).toContain('What I understand');
    });
  });
});

/** The template id of the `index`-th button of a card, when it is a Request button. */
function actionDataAt(card: SentCard, index: number): string {
  const actions: Array<Record<string, unknown>> = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      if (record.type === 'Action.Execute') actions.push(record);
      Object.values(record).forEach(walk);
    }
  };
  walk(card);
  return String((actions[index]?.data as { templateId?: string } | undefined)?.templateId);
}
