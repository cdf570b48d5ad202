import { databaseKinds } from '../../support/databases';
import { waitForJob } from '../../support/jobs';
import { provisionTeam } from '../../support/lifecycle';
import { PEOPLE } from '../../support/steward';
import { ENGLISH, FRENCH, frenchText } from '../support/cardTurns';
import { actionData, cardText } from '../support/fakeConnector';
import { ALEX, startBotHarness } from '../support/botHarness';
import { suiteBot } from '../support/suiteBot';

/**
 * An archive is not a new team. Alex archives a team he owns through the API;
 * "my requests" and the request's status card say what happened in their own words, in English and
 * in French, never "Team request · Ready" nor "Your team is ready".
 */
describe.each(databaseKinds)('each kind of request in its own words, on %s', (kind) => {
  const bot = suiteBot(() => startBotHarness(kind));
  it('lists an archive as an archive and shows its card as archived, in English and French', async () => {
    const teamId = await provisionTeam(bot.steward, 'project', 'Harbour works');
    const alex = await bot.steward.userToken(PEOPLE.alex, [], { name: 'Alex Wilber' });
    const archived = await bot.steward.call<{ id: string }>('POST', `/api/v1.0/teams/${teamId}/archive`, {
      token: alex,
      body: {},
    });
    expect(archived.status).toBe(202);
    expect((await waitForJob(bot.steward, alex, archived.body.id)).status).toBe('completed');

    const listed = bot.connector.sent.length;
    await bot.send(ALEX, { type: 'message', text: 'my requests', ...ENGLISH });
    const list = bot.lastCard(ALEX, listed).card;
    const text = cardText(list);
    // Newest first: the archive, then the request that made the team.
    const archiveRow = text.slice(0, text.indexOf('Harbour works', text.indexOf('Harbour works') + 1));
    expect(archiveRow).toContain('Archiving a team');
    expect(archiveRow).toContain('Archived');
    expect(archiveRow).not.toMatch(/Team request|Ready/);

    // Status from the list posts the request's card as a new message.
    const pressed = bot.connector.sent.length;
    const status = await bot.execute(ALEX, 'showStatus', { jobId: archived.body.id, newCard: true });
    expect(status.status).toBe(200);
    const card = bot.lastCard(ALEX, pressed).card;
    expect(cardText(card)).toContain('The team is archived');
    expect(cardText(card)).not.toMatch(/Your team is ready|Team request/);
    // An archive has no form to fill in again.
    expect(actionData(card, 'retryRequest')).toBeUndefined();

    const french = bot.connector.sent.length;
    await bot.send(ALEX, { type: 'message', text: 'my requests', ...FRENCH });
    const liste = frenchText(bot.lastCard(ALEX, french).card);
    expect(liste).toContain('Archivage d’une équipe');
    expect(liste).toContain('Archivée');
  }, 90_000);
});
