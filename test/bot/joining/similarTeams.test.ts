import type { Job } from '../../../src/contract';
import { databaseKinds } from '../../support/databases';
import { waitForJob } from '../../support/jobs';
import { PEOPLE } from '../../support/steward';
import { ADELE, ALEX, startBotHarness } from '../support/botHarness';
import { actionData, cardText, type SentCard } from '../support/fakeConnector';
import { renderSimilarTeamsCard } from '../../../src/bot/shared/similarTeamsCard';
import { suiteBot } from '../support/suiteBot';

/** Before a request is made from the form, the teams like it that the person may see. */
describe.each(databaseKinds)('teams like this already exist, on %s', (kind) => {
  const bot = suiteBot(() => startBotHarness(kind, { STEWARD_JOB_POLL_MS: '50' }));
  let contosoId: string;
  beforeAll(async () => {
    const app = bot.steward;
    const alex = await app.userToken(PEOPLE.alex, [], { name: 'Alex Wilber' });
    const made = await app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
      token: alex,
      body: { template: { id: 'project' }, team: { name: 'Contoso deal', description: 'Closing the deal' } },
    });
    const job = await waitForJob(app, alex, made.body.id);
    contosoId = (job.data.team as { id: string }).id;
  });

  const adeleJobs = async () =>
    (
      await bot.steward.steward.store.db
        .selectFrom('jobs')
        .select('id')
        .where('requester_id', '=', PEOPLE.adele)
        .where('type', '=', 'ProvisioningRequest')
        .execute()
    ).length;

  it.each([
    ['English', { locale: 'en-US' }, /you may join/, /you are in it already/],
    ['French', { locale: 'fr-FR' }, /vous pourriez la rejoindre/, /vous en faites déjà partie/],
  ])('%s: offers no team to join that the person is in already', async (_, locale, mayJoin, inIt) => {
    const press = (verb: string, data: Record<string, unknown>) =>
      bot.send(ALEX, {
        type: 'invoke',
        name: 'adaptiveCard/action',
        value: { action: { type: 'Action.Execute', verb, data } },
        ...locale,
      });
    const form = bot.cardOfAnswer(await press('pickTemplate', { templateId: 'project' }));
    const submit = {
      ...actionData(form, 'submitRequest'),
      formId: `own-${locale.locale}`,
      name: 'Contoso Deal Team',
    };
    const similar = bot.cardOfAnswer(await press('submitRequest', submit));
    expect(cardText(similar)).toContain('PRJ-Contoso deal');
    expect(cardText(similar)).not.toMatch(mayJoin);
    expect(cardText(similar)).toMatch(inIt);
    expect(actionData(similar, 'askToJoin')).toBeUndefined();
  });

  it('shows the alike team with Open, Ask to join and Create anyway; Create anyway makes exactly one request', async () => {
    const form = bot.cardOfAnswer(await bot.execute(ADELE, 'pickTemplate', { templateId: 'project' }));
    const submit = { ...actionData(form, 'submitRequest'), formId: 'dup-1', name: 'Contoso Deal Team' };
    const similar: SentCard = bot.cardOfAnswer(await bot.execute(ADELE, 'submitRequest', submit));
    const text = cardText(similar);
    expect(text).toContain('Teams like this already exist');
    expect(text).toContain('PRJ-Contoso deal');
    expect(text).toContain('Owners: Alex Wilber');
    expect(text).toContain('1 member');
    expect(JSON.stringify(similar)).toContain('Action.OpenUrl');
    expect(actionData(similar, 'askToJoin')).toMatchObject({ teamId: contosoId });
    expect(await adeleJobs()).toBe(0);

    const anyway = actionData(similar, 'submitRequest')!;
    expect(anyway).toMatchObject({ skipSimilar: true, formId: 'dup-1', name: 'Contoso Deal Team' });
    const confirmed = bot.cardOfAnswer(await bot.execute(ADELE, 'submitRequest', anyway));
    expect(cardText(confirmed)).toContain('Request received');
    // Pressed again: the same form, the same request.
    await bot.execute(ADELE, 'submitRequest', anyway);
    expect(await adeleJobs()).toBe(1);
  });

  it('speaks French, with real plurals', () => {
    const team = {
      id: 't1',
      displayName: 'PRJ-Contoso deal',
      description: null,
      visibility: 'private' as const,
      template: null,
      owners: [
        { id: 'a', displayName: 'Alex Wilber' },
        { id: 'b', displayName: 'Adele Vance' },
      ],
      memberCount: 3,
      webUrl: 'https://teams.example/t1',
      access: 'request' as const,
      reason: 'name' as const,
    };
    const fr = { language: 'fr' as const, locale: 'fr-FR', timeZone: 'UTC' };
    const text = cardText(
      renderSimilarTeamsCard(
        {
          name: 'Contoso',
          teams: [team, { ...team, id: 't2', access: 'direct' as const }],
          request: { templateId: 'project' },
        },
        fr,
      ),
    );
    expect(text).toContain('Des équipes comme celle-ci existent déjà');
    expect(text).toContain('ces 2 équipes');
    expect(text).toContain('Propriétaires : Alex Wilber et Adele Vance');
    expect(text).toContain('3 membres');
    expect(text).toContain('Créer quand même');
    // Asking the owners of one, joining the other at once (a public team anyone may join).
    expect(text).toContain('Demander à rejoindre');
    expect(text).toMatch(/(^|\n)Rejoindre(\n|$)/);
    expect(text).toContain('Demander à rejoindre');
    expect(text).toContain('Rejoindre');
  });

  it('Ask to join sends the words to the owners', async () => {
    const form = bot.cardOfAnswer(await bot.execute(ADELE, 'pickTemplate', { templateId: 'project' }));
    const submit = { ...actionData(form, 'submitRequest'), formId: 'dup-2', name: 'contoso deal' };
    const similar = bot.cardOfAnswer(await bot.execute(ADELE, 'submitRequest', submit));
    const ask = actionData(similar, 'askToJoin')!;
    await bot.execute(ADELE, 'askToJoin', { ...ask, [String(ask.inputId)]: 'I handle the contract.' });
    const rows = await bot.steward.steward.store.db
      .selectFrom('join_requests')
      .selectAll()
      .where('requester_id', '=', PEOPLE.adele)
      .execute();
    expect(rows).toEqual([
      expect.objectContaining({ team_id: contosoId, message: 'I handle the contract.', status: 'pending' }),
    ]);
  });
});
