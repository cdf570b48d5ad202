import { PEOPLE } from '../../support/steward';
import { cardText } from '../support/fakeConnector';
import { ALEX, startBotHarness } from '../support/botHarness';
import { suiteBot } from '../support/suiteBot';

/**
 * Templates of a workspace type Steward cannot provision yet (a Microsoft 365 group here) stay out of
 * the chat: the gallery does not show them, and words that name one do not open its form.
 */
describe('a group template in the catalog, in chat', () => {
  const bot = suiteBot(() => startBotHarness('sqlite'));

  beforeAll(async () => {
    const patti = await bot.steward.userToken(PEOPLE.patti, ['CATALOG_MANAGER']);
    const put = await bot.steward.call('PUT', '/api/v1.0/catalog/templates/finance-mail-group', {
      token: patti,
      body: {
        templateConfiguration: {
          name: 'Finance mail group',
          description: 'A Microsoft 365 group for a finance topic: mail, calendar and files.',
          workspaceType: 'group',
        },
      },
    });
    expect(put.status).toBe(200);
    // The catalog offers it to Alex: the API lists every type.
    const listed = await bot.steward.call<{ value: Array<{ templateConfiguration: { name: string } }> }>(
      'GET',
      '/api/v1.0/me/catalog/templates',
      { token: await bot.steward.userToken(PEOPLE.alex) },
    );
    expect(listed.body.value.map((t) => t.templateConfiguration.name)).toContain('Finance mail group');
  }, 60_000);

  it('is not in the gallery, which still shows the team templates', async () => {
    const mark = bot.connector.sent.length;
    await bot.say(ALEX, 'new team');
    const gallery = cardText(bot.lastCard(ALEX, mark).card);
    expect(gallery).toContain('Project');
    expect(gallery).not.toContain('Finance mail group');
  });

  it('is not the form a request in words opens', async () => {
    const mark = bot.connector.sent.length;
    await bot.say(ALEX, 'I need a finance mail group called Budget 2027');
    const answer = cardText(bot.lastCard(ALEX, mark).card);
    expect(answer).not.toContain('Finance mail group');
  });
});
