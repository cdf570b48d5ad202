import { cardTurnsOf, FRENCH, greet } from '../support/cardTurns';
import type { TeamChannel, TemplateDriftApplyResult } from '../../../src/contract';
import { databaseKinds } from '../../support/databases';
import { addMembers, provisionTeam, teamWith } from '../../support/lifecycle';
import { waitForJob } from '../../support/jobs';
import { PEOPLE } from '../../support/steward';
import { actionData, cardText, verbsOf } from '../support/fakeConnector';
import { ALEX, SIOBHAN, startBotHarness } from '../support/botHarness';
import { suiteBot } from '../support/suiteBot';

/**
 * The owners' card about a template's new version, through the bot's webhook and a real adapter:
 * a template that asks its owners first sends each drifting team's owners a card in their
 * language; "Add them" queues the job that adds the parts, "Not now" is recorded, and every
 * owner's card says what was answered. Alex reads English, Siobhán French.
 */
describe.each(databaseKinds)("the owners' drift card, on %s", (kind) => {
  const bot = suiteBot(async () => {
    const started = await startBotHarness(kind, {
      STEWARD_JOB_POLL_MS: '25',
      STEWARD_LIFECYCLE_EVALUATION_AT: 'off',
    });
    await greet(started, { english: [ALEX], french: [SIOBHAN] });
    return started;
  });
  const template = 'drift-asks-owners';

  const put = async (channels: Array<{ displayName: string }>) => {
    const megan = await bot.steward.userToken(PEOPLE.megan, ['GLOBAL_ADMIN']);
    const res = await bot.steward.call('PUT', `/api/v1.0/catalog/templates/${template}`, {
      token: megan,
      body: {
        // With a French name: each owner's card names the template in their language.
        templateConfiguration: {
          name: 'Project team',
          translations: { fr: { name: 'Équipe projet' } },
          askOwnersBeforeApplying: true,
        },
        newTeam: { channels },
      },
    });
    expect(res.status).toBe(200);
  };
  const { cardTo, cardSaying, press, french } = cardTurnsOf(bot);

  it('asks the owners in their language; "Add them" adds the channel, "Not now" is recorded', async () => {
    await put([{ displayName: 'Planning' }]);
    const alpha = await provisionTeam(bot.steward, template, 'Alpha');
    const beta = await provisionTeam(bot.steward, template, 'Beta');
    const alexToken = await bot.steward.userToken(PEOPLE.alex, [], { name: 'Alex Wilber' });
    await addMembers(bot.steward, alpha, [[SIOBHAN.aadObjectId, 'owner']]);
    await put([{ displayName: 'Planning' }, { displayName: 'Deliverables' }]);

    const mark = bot.connector.sent.length;
    const lynne = await bot.steward.userToken(PEOPLE.lynne, ['GOVERNANCE_MANAGER'], {
      name: 'Lynne Robbins',
    });
    const applied = await bot.steward.call<TemplateDriftApplyResult>(
      'POST',
      `/api/v1.0/catalog/templates/${template}/drift/apply`,
      { token: lynne, body: {} },
    );
    expect(applied.status).toBe(202);
    expect(applied.body.teams.map((t) => t.outcome)).toEqual(['askOwners', 'askOwners']);
    // No job yet: the owners decide.
    expect(applied.body.teams.every((t) => t.jobId === undefined)).toBe(true);

    const alexAlpha = await cardTo(ALEX, mark, /\*\*Alpha\*\*/);
    const alexBeta = await cardTo(ALEX, mark, /\*\*Beta\*\*/);
    const siobhan = await cardTo(SIOBHAN, mark, /\*\*Alpha\*\*/);
    const asked = bot.connector.currentCard(alexBeta.activityId)!;
    expect(cardText(asked)).toContain('The Project team template has changed');
    expect(cardText(asked)).toContain(
      'The **Project team** template now has a channel named **Deliverables**. Add it to **Beta**?',
    );
    expect(verbsOf(asked)).toEqual(['addTemplateChanges', 'declineTemplateChanges']);
    const demande = french(bot.connector.currentCard(siobhan.activityId)!);
    expect(demande).toContain(
      'Le modèle **Équipe projet** comporte désormais un canal **Deliverables**. L’ajouter à **Alpha** ?',
    );
    expect(demande).toContain('L’ajouter');
    expect(demande).toContain('Pas maintenant');

    // Siobhán answers "Pas maintenant" for Alpha: her card says so in French, Alex's says who.
    const notNow = actionData(bot.connector.currentCard(siobhan.activityId), 'declineTemplateChanges')!;
    const declined = bot.cardOfAnswer(
      await press(SIOBHAN, 'declineTemplateChanges', notNow, siobhan.activityId, FRENCH),
    );
    expect(french(declined)).toContain(
      'Rien n’a été ajouté à **Alpha**. La question vous sera reposée au prochain changement du modèle **Équipe projet**.',
    );
    expect(verbsOf(declined)).toEqual([]);
    const told = await cardSaying(alexAlpha.activityId, /chose not to add/);
    expect(cardText(told)).toContain("Siobhán O'Connor chose not to add it for now.");

    // Alex answers "Add them" for Beta: the job is his, and adds the channel once.
    const add = actionData(asked, 'addTemplateChanges')!;
    const added = bot.cardOfAnswer(await press(ALEX, 'addTemplateChanges', add, alexBeta.activityId));
    expect(cardText(added)).toContain('Steward is adding a channel named **Deliverables** to **Beta**.');
    const job = await bot.steward.steward.store.db
      .selectFrom('jobs')
      .select(['id', 'requester_id'])
      .where('type', '=', 'TeamDriftApply')
      .where('team_id', '=', beta)
      .executeTakeFirstOrThrow();
    expect(job.requester_id).toBe(PEOPLE.alex);
    expect((await waitForJob(bot.steward, alexToken, job.id)).status).toBe('completed');
    // Once the channel exists, the owners' cards say it was added, not that it is being added.
    const done = await cardSaying(alexBeta.activityId, /Steward added a channel named \*\*Deliverables\*\*/);
    expect(cardText(done)).toContain('Beta is in line with its template');
    expect(cardText(done)).not.toContain('Steward is adding');
    const channels = await bot.steward.call<TeamChannel[]>('GET', `/api/v1.0/teams/${beta}/channels`, {
      token: alexToken,
    });
    expect(channels.body.filter((c) => c.displayName === 'Deliverables')).toHaveLength(1);

    // The answers are recorded; Alpha got nothing, and is not asked again about this version.
    const rows = await bot.steward.steward.store.db
      .selectFrom('team_templates')
      .select(['team_id', 'owners_answer', 'owners_answered_by'])
      .where('template_id', '=', template)
      .orderBy('display_name')
      .execute();
    expect(rows).toEqual([
      { team_id: alpha, owners_answer: 'notNow', owners_answered_by: SIOBHAN.aadObjectId },
      { team_id: beta, owners_answer: 'add', owners_answered_by: PEOPLE.alex },
    ]);
    const jobsOfAlpha = await bot.steward.steward.store.db
      .selectFrom('jobs')
      .select('id')
      .where('type', '=', 'TeamDriftApply')
      .where('team_id', '=', alpha)
      .execute();
    expect(jobsOfAlpha).toEqual([]);
    const again = await bot.steward.call<TemplateDriftApplyResult>(
      'POST',
      `/api/v1.0/catalog/templates/${template}/drift/apply`,
      { token: lynne, body: {} },
    );
    expect(again.body.teams.find((t) => t.teamId === alpha)?.outcome).toBe('askOwners');
    // Asked about this version already: no second card.
    const sent = bot.connector
      .messages(ALEX.conversationId, mark)
      .filter((m) => /\*\*Alpha\*\*/.test(cardText(m.body)));
    expect(sent).toHaveLength(1);

    // A member who is not an owner may not answer for the team.
    await addMembers(bot.steward, alpha, [[PEOPLE.isaiah, 'member']]);
    const refused = await bot.steward.call('POST', `/api/v1.0/teams/${alpha}/drift/answer`, {
      token: await bot.steward.userToken(PEOPLE.isaiah),
      body: { answer: 'add' },
    });
    expect(refused.status).toBe(403);
  }, 90_000);

  it('in French: once the parts are added, the card says they were', async () => {
    await teamWith(bot.steward, template, 'Gamma', [[SIOBHAN.aadObjectId, 'owner']]);
    await put([{ displayName: 'Planning' }, { displayName: 'Deliverables' }, { displayName: 'Livrables' }]);
    const mark = bot.connector.sent.length;
    const lynne = await bot.steward.userToken(PEOPLE.lynne, ['GOVERNANCE_MANAGER'], {
      name: 'Lynne Robbins',
    });
    const applied = await bot.steward.call('POST', `/api/v1.0/catalog/templates/${template}/drift/apply`, {
      token: lynne,
      body: {},
    });
    expect(applied.status).toBe(202);
    const asked = await cardTo(SIOBHAN, mark, /\*\*Gamma\*\*/);
    const add = actionData(bot.connector.currentCard(asked.activityId), 'addTemplateChanges')!;
    const adding = bot.cardOfAnswer(
      await press(SIOBHAN, 'addTemplateChanges', add, asked.activityId, FRENCH),
    );
    expect(french(adding)).toContain('Steward ajoute un canal **Livrables** à **Gamma**.');
    const done = await cardSaying(asked.activityId, /Steward a ajouté/);
    expect(french(done)).toContain('Steward a ajouté un canal **Livrables** à **Gamma**.');
    expect(french(done)).toContain('L’équipe Gamma est conforme à son modèle');
  }, 90_000);
});
