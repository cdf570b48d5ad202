import { request as httpRequest } from 'undici';
import { databaseKinds } from '../../support/databases';
import { ADELE, ALEX, startWithApprovers } from '../support/botHarness';
import { ENGLISH, FRENCH } from '../support/cardTurns';
import { englishOn } from '../support/englishLeaks';
import { actionData, cardOf, cardText, fact, type SentCard, verbsOf } from '../support/fakeConnector';
import { suiteBot } from '../support/suiteBot';

const GUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** The card's input with `id`. */
function input(card: SentCard, id: string): Record<string, unknown> | undefined {
  return (card.body ?? []).find((item) => (item as { id?: string }).id === id) as
    | Record<string, unknown>
    | undefined;
}

/** What people read, in English and French. */
describe.each(databaseKinds)('words people read, on %s', (kind) => {
  const bot = suiteBot(() => startWithApprovers(kind));
  const sayIn = (text: string, locale: Record<string, string>) =>
    bot.send(ALEX, { type: 'message', text, ...locale });
  const executeIn = (verb: string, data: Record<string, unknown>, locale: Record<string, string>) =>
    bot.send(ALEX, {
      type: 'invoke',
      name: 'adaptiveCard/action',
      value: { action: { type: 'Action.Execute', verb, data } },
      ...locale,
    });
  const myJobCount = async () =>
    (
      await bot.steward.call<{ value: unknown[] }>('GET', '/api/v1.0/me/jobs?$top=50', {
        token: await bot.steward.userToken(ALEX.aadObjectId),
      })
    ).body.value.length;

  /** The team link of the job once it completed (within 30 s). */
  async function readyTeamUrl(jobId: string): Promise<string> {
    const token = await bot.steward.userToken(ALEX.aadObjectId);
    for (const started = Date.now(); Date.now() - started < 30_000; ) {
      const job = await bot.steward.call<{ status: string; data: { team?: { webUrl?: string } } }>(
        'GET',
        `/api/v1.0/jobs/${jobId}`,
        { token },
      );
      if (job.body.status === 'completed') return job.body.data.team!.webUrl!;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`job ${jobId} did not complete within 30 s`);
  }

  /** Requests a team from the project template (no approval) and returns its job id. */
  async function requestProject(name: string): Promise<string> {
    const form = bot.cardOfAnswer(await bot.execute(ALEX, 'pickTemplate', { templateId: 'project' }));
    const mark = bot.connector.sent.length;
    await bot.execute(ALEX, 'submitRequest', { ...actionData(form, 'submitRequest'), name });
    // The request's one living card, its progress card, is posted below the confirmation; its
    // Refresh button carries the request.
    return bot.connector.waitFor(() =>
      bot.connector
        .messages(ALEX.conversationId, mark)
        .map((m) => actionData(cardOf(m.body), 'showStatus')?.jobId)
        .find((id): id is string => typeof id === 'string'),
    );
  }

  it('finds a request by its team name, and says so in a sentence when none is called that', async () => {
    const jobId = await requestProject('Heron');
    // Once it is ready, its card's link names its team.
    const webUrl = await readyTeamUrl(jobId);
    // The bot hears of the end on its own time: its cards drawn done, then one short message says
    // the team is ready. Waited for, so that nothing of it lands among the answers read below.
    await bot.connector.waitFor(() =>
      bot.connector
        .messages(ALEX.conversationId)
        .some(
          (m) => (cardOf(m.body)?.fallbackText as string | undefined) === 'Your team PRJ-Heron is ready.',
        ),
    );
    for (const typed of ['status PRJ-Heron', 'status prj-heron', 'status Heron']) {
      const mark = bot.connector.sent.length;
      await bot.say(ALEX, typed);
      const card = bot.lastCard(ALEX, mark).card;
      // That request's progress card: its team's name, and (ready by now, or still running) its link or its id.
      expect(cardText(card)).toContain('PRJ-Heron');
      expect(JSON.stringify(card)).toMatch(/"altText":"Progress: \d+%"/);
      expect(JSON.stringify(card)).toContain(`"url":"${webUrl}"`);
      // No id where a person reads: the team's name says which request it is.
      expect(cardText(card)).not.toMatch(GUID);
    }
    const mark = bot.connector.sent.length;
    await bot.say(ALEX, 'status Nothing Here');
    const [answer] = bot.connector.messages(ALEX.conversationId, mark);
    expect(answer!.body.text).toBe(
      'I found no request of yours for a team called "Nothing Here". Type "my requests" to see yours.',
    );
  }, 60_000);

  it("offers the template's default name as a placeholder, and asks for a name left empty", async () => {
    const form = bot.cardOfAnswer(await bot.execute(ALEX, 'pickTemplate', { templateId: 'project' }));
    expect(input(form, 'name')).toMatchObject({ value: '', placeholder: 'New project', isRequired: true });
    const before = await myJobCount();
    const again = bot.cardOfAnswer(
      await bot.execute(ALEX, 'submitRequest', { ...actionData(form, 'submitRequest'), name: '' }),
    );
    expect(cardText(again)).toContain('Give the team a name.');
    expect(verbsOf(again)).toContain('submitRequest');
    expect(await myJobCount()).toBe(before);
  }, 60_000);

  it('says a pasted name too long, with its length, instead of cutting it or creating the team', async () => {
    const form = bot.cardOfAnswer(await bot.execute(ALEX, 'pickTemplate', { templateId: 'project' }));
    expect(input(form, 'name')).not.toHaveProperty('maxLength');
    const before = await myJobCount();
    const refused = bot.cardOfAnswer(
      await bot.execute(ALEX, 'submitRequest', {
        ...actionData(form, 'submitRequest'),
        name: 'n'.repeat(264),
      }),
    );
    expect(cardText(refused)).toContain('The team name has 264 characters: keep it to at most 256.');
    expect(input(refused, 'name')).toMatchObject({ value: 'n'.repeat(264) });
    expect(await myJobCount()).toBe(before);
  }, 60_000);

  it('understands the French commands its French help card lists', async () => {
    let mark = bot.connector.sent.length;
    await sayIn('aide', FRENCH);
    const help = bot.lastCard(ALEX, mark).card;
    expect(cardText(help)).not.toContain('Je n’ai pas compris');
    expect(cardText(help)).toContain('nouvelle équipe');
    expect(cardText(help)).toContain('mes demandes');
    expect(cardText(help)).not.toContain('new team');
    expect(englishOn(help)).toEqual([]);

    mark = bot.connector.sent.length;
    await sayIn('mes demandes', FRENCH);
    expect(cardText(bot.lastCard(ALEX, mark).card)).toContain('Mes demandes');

    mark = bot.connector.sent.length;
    await sayIn('Nouvelle équipe', FRENCH);
    expect(cardText(bot.lastCard(ALEX, mark).card)).toContain('Choisissez un modèle');

    mark = bot.connector.sent.length;
    await sayIn('approuver', FRENCH);
    const [approve] = bot.connector.messages(ALEX.conversationId, mark);
    expect(String(approve!.body.text)).toContain('appuyez sur Approuver ou Refuser');

    mark = bot.connector.sent.length;
    await sayIn('état Personne', FRENCH);
    const [none] = bot.connector.messages(ALEX.conversationId, mark);
    expect(none!.body.text).toBe(
      'Je ne trouve aucune de vos demandes pour une équipe nommée « Personne ». Tapez **mes demandes** pour voir les vôtres.',
    );
  }, 60_000);

  it('says who decides as the stage does, checks an amended name in French, and names the label under its parent', async () => {
    // The form names the label under its parent: "All Employees" alone is several labels.
    const form = bot.cardOfAnswer(
      await executeIn('pickTemplate', { templateId: 'client-engagement' }, ENGLISH),
    );
    expect(fact(form, 'Sensitivity label')).toBe('Confidential / All Employees');

    await bot.send(ADELE, { type: 'message', text: 'language fr' });
    const mark = bot.connector.sent.length;
    const confirmation = bot.cardOfAnswer(
      await executeIn('submitRequest', { ...actionData(form, 'submitRequest'), name: 'Initech' }, ENGLISH),
    );
    // Either approver settles it: the sentence does not read as if both had to decide.
    expect(cardText(confirmation)).toContain(
      "This template needs approval from any one of Adele Vance and Siobhán O'Connor",
    );
    const progress = bot.lastCard(ALEX, mark);
    expect(cardText(progress.card)).toContain(
      "Waiting for approval by any one of Adele Vance and Siobhán O'Connor",
    );

    const approval = await bot.connector.waitFor(() =>
      bot.connector.messages(ADELE.conversationId, mark).find((m) => verbsOf(m.body).includes('approve')),
    );
    const approvalId = String(actionData(cardOf(approval.body), 'approve')!.approvalId);
    const press = (verb: string, data: Record<string, unknown>) =>
      bot.send(ADELE, {
        type: 'invoke',
        name: 'adaptiveCard/action',
        value: { action: { type: 'Action.Execute', verb, data: { approvalId, ...data } } },
        replyToId: approval.activityId,
        ...FRENCH,
      });

    // Approve with a name Teams refuses: the card comes back in French, nothing decided.
    const refused = bot.cardOfAnswer(await press('approve', { teamName: 'Initech: Labs' }));
    expect(cardText(refused)).toContain('Un nom d’équipe ne peut pas contenir');
    expect(cardText(refused)).not.toMatch(/Team name must|must not contain/);
    expect(englishOn(refused)).toEqual([]);
    expect(verbsOf(refused)).toContain('approve');
    // Too long for what the convention ("CLI-US-") leaves of Graph's 256 characters, said with its length.
    const long = bot.cardOfAnswer(await press('approve', { teamName: 'l'.repeat(250), comment: 'Oui' }));
    expect(cardText(long)).toContain(
      'Le nom de l’équipe compte 250 caractères : il ne doit pas en dépasser 249.',
    );
    expect(input(long, 'comment')).toMatchObject({ value: 'Oui' });

    const decided = bot.cardOfAnswer(await press('approve', { teamName: 'Initech Labs' }));
    expect(cardText(decided)).toContain('CLI-US-Initech Labs');
    const ready = await bot.connector.waitFor(() => {
      const current = bot.connector.currentCard(progress.activityId);
      return current && /Your team is ready/.test(cardText(current)) ? current : undefined;
    }, 20_000);
    // Log lines read as sentences; steps that did not apply are not listed.
    expect(cardText(ready)).not.toMatch(/\(s\)|Privacy |Skipped/);
    expect(cardText(ready)).not.toMatch(GUID);

    // The approver, no owner of the team, could not label it (Graph takes a label only from an
    // owner or a groups administrator): the requester's grant, kept since the request, did, so
    // nobody is asked to apply it.
    expect(verbsOf(ready)).not.toContain('applyLabel');
    // The simulated team page names the label as Teams does, not by its id.
    const open = JSON.stringify(ready).match(/"type":"Action.OpenUrl","title":"Open team","url":"([^"]+)"/);
    const page = await httpRequest(open![1]!);
    expect(page.statusCode).toBe(200);
    const html = await page.body.text();
    expect(html).toContain('Confidential / All Employees');
  }, 90_000);
});
