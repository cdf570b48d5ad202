import { actionData, cardText, verbsOf } from '../support/fakeConnector';
import { ALEX, BOT, startBotHarness, STRANGER } from '../support/botHarness';
import { suiteBot } from '../support/suiteBot';

describe('the bot: welcome, help, templates, form, my requests', () => {
  const bot = suiteBot(() => startBotHarness());
  it('welcomes a person once when it is installed', async () => {
    const mark = bot.connector.sent.length;
    const added = { type: 'conversationUpdate', membersAdded: [{ id: BOT.id, name: BOT.name }] };
    expect((await bot.send(ALEX, added)).status).toBe(200);
    const { card } = bot.lastCard(ALEX, mark);
    expect(cardText(card)).toContain('Hi Alex, I am Steward');
    expect(verbsOf(card)).toEqual(['requestTeam', 'myRequests', 'myApprovals', 'help']);
    await bot.send(ALEX, { type: 'installationUpdate', action: 'add' });
    expect(bot.connector.messages(ALEX.conversationId, mark)).toHaveLength(1);
  });

  it('answers help, and unknown text with help', async () => {
    expect(verbsOf(await bot.reply(ALEX, 'help'))).toContain('requestTeam');
    expect(cardText(await bot.reply(ALEX, 'make me a sandwich'))).toContain('make me a sandwich');
    expect(verbsOf(await bot.reply(ALEX, 'x'.repeat(5000)))).toContain('requestTeam');
  });

  it('shows the gallery of the caller’s templates, paged, and the prefilled form', async () => {
    const mark = bot.connector.sent.length;
    await bot.say(ALEX, 'new team');
    const gallery = bot.lastCard(ALEX, mark).card;
    expect(cardText(gallery)).toContain('Project team');
    expect(actionData(gallery, 'pickTemplate')).toEqual({ templateId: expect.any(String) });
    const next = bot.cardOfAnswer(await bot.execute(ALEX, 'showTemplates', { page: '1' }));
    expect(verbsOf(next)).toContain('pickTemplate');
    const form = bot.cardOfAnswer(await bot.execute(ALEX, 'pickTemplate', { templateId: 'project' }));
    // The template's default name is the name's placeholder, not its value: a name left as it is would be sent.
    const name = (form.body as unknown[]).find((item) => (item as { id?: string }).id === 'name');
    expect(name).toMatchObject({ value: '', placeholder: 'New project', isRequired: true });
    expect(actionData(form, 'submitRequest')).toEqual({
      templateId: 'project',
      formId: expect.any(String),
      named: '[]',
    });
  });

  it('refuses empty, oversized and badly named forms with the reasons on the form', async () => {
    const formId = 'form-invalid';
    const empty = bot.cardOfAnswer(
      await bot.execute(ALEX, 'submitRequest', { templateId: 'project', formId, name: '   ' }),
    );
    expect(cardText(empty)).toContain('Give the team a name.');
    const huge = bot.cardOfAnswer(
      await bot.execute(ALEX, 'submitRequest', {
        templateId: 'project',
        formId,
        name: 'Falcon',
        description: 'd'.repeat(2000),
      }),
    );
    expect(cardText(huge)).toContain('The description has 2,000 characters: keep it to at most 1,024.');
    const slash = bot.cardOfAnswer(
      await bot.execute(ALEX, 'submitRequest', { templateId: 'project', formId, name: 'A/B' }),
    );
    expect(cardText(slash)).toContain('cannot contain');
    // Valid for the form, too long once the convention adds its prefix ("PRJ-"): the form says the
    // room the prefix leaves of Microsoft Graph's 256 characters.
    const long = bot.cardOfAnswer(
      await bot.execute(ALEX, 'submitRequest', { templateId: 'project', formId, name: 'n'.repeat(255) }),
    );
    expect(verbsOf(long)).toContain('submitRequest');
    expect(cardText(long)).toContain('The team name has 255 characters: keep it to at most 252.');
    const jobs = await bot.steward.call<{ value: unknown[] }>('GET', '/api/v1.0/me/jobs', {
      token: await bot.steward.userToken(ALEX.aadObjectId),
    });
    expect(jobs.body.value).toHaveLength(0);
  });

  it('answers the people picker’s search from the directory', async () => {
    const answer = await bot.send(ALEX, {
      type: 'invoke',
      name: 'application/search',
      value: { kind: 'search', queryText: 'adele', dataset: 'users', queryOptions: { skip: 0, top: 15 } },
    });
    expect(answer.status).toBe(200);
    expect(answer.body?.value).toEqual({
      results: [expect.objectContaining({ title: 'Adele Vance', value: expect.stringContaining('adele') })],
    });
  });

  it('lists my requests and shows a request’s status; a missing one is a plain sentence', async () => {
    expect(verbsOf(await bot.reply(ALEX, 'my requests'))).toContain('requestTeam');
    const mark = bot.connector.sent.length;
    await bot.say(ALEX, 'status 00000000-0000-0000-0000-00000000dead');
    // An id that matches no request says so, rather than "no longer exists".
    const [answer] = bot.connector.messages(ALEX.conversationId, mark);
    const missing = String(answer!.body.text);
    expect(missing).toContain(
      'I found no request of yours for a team called "00000000-0000-0000-0000-00000000dead".',
    );
    expect(missing).not.toMatch(/\n\s+at |Error:|stack/);
  });

  it('politely refuses someone the directory does not know', async () => {
    const mark = bot.connector.sent.length;
    await bot.say(STRANGER, 'new team');
    const reply = bot.connector.messages(STRANGER.conversationId, mark)[0]!;
    expect(reply.body.text).toMatch(/do not know you/);
    const invoke = await bot.execute(STRANGER, 'myRequests', {});
    expect(invoke.status).toBe(200);
    expect(String(invoke.body?.value)).toMatch(/do not know you/);
  });

  it('answers malformed traffic with 4xx, never 500', async () => {
    const { request } = await import('undici');
    const post = async (body: string) =>
      (
        await request(`${bot.steward.url}/api/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        })
      ).statusCode;
    expect(await post('{not json')).toBe(400);
    expect(await post('[]')).toBe(400);
    expect(await post(JSON.stringify({ type: 'message' }))).toBe(400);
    const badInvoke = await bot.send(ALEX, { type: 'invoke', name: 'adaptiveCard/action', value: 'nope' });
    expect(badInvoke.status).toBeLessThan(500);
    const unknownVerb = await bot.execute(ALEX, 'launchRockets', {});
    expect(unknownVerb.status).toBe(200);
    // Verbs are looked up in a table: names every object has are not verbs either.
    for (const verb of ['launchRockets', 'constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const mark = bot.connector.sent.length;
      expect((await bot.execute(ALEX, verb, {})).status).toBe(200);
      expect(verbsOf(bot.lastCard(ALEX, mark).card)).toContain('requestTeam');
    }
  });
});
