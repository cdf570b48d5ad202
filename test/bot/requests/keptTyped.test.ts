import { PEOPLE } from '../../support/steward';
import { ALEX, startBotHarness } from '../support/botHarness';
import { FRENCH } from '../support/cardTurns';
import { cardText } from '../support/fakeConnector';
import { suiteBot } from '../support/suiteBot';

/**
 * A request typed in one's own words with no template told from it keeps what was typed: the
 * gallery says so, and the form of whichever template is picked holds the name and the people.
 */
describe('what a person typed, when no template is told from it', () => {
  const bot = suiteBot(() => startBotHarness('sqlite'));
  it.each([
    ['English', {}, 'I need a team for the Q3 launch with Megan and Adele', /keep what you told me/],
    ['French', FRENCH, 'il me faut une équipe pour le lancement Q3 avec Megan et Adele', /reprendra ce que/],
  ])('is carried into the form of the template picked (%s)', async (_language, locale, text, kept) => {
    await bot.send(ALEX, { type: 'message', text, ...locale });
    const gallery = bot.lastCard(ALEX);
    expect(cardText(gallery.card)).toMatch(kept);
    const picked = await bot.send(ALEX, {
      type: 'invoke',
      name: 'adaptiveCard/action',
      replyToId: gallery.activityId,
      value: { action: { type: 'Action.Execute', verb: 'pickTemplate', data: { templateId: 'project' } } },
      ...locale,
    });
    const form = JSON.stringify(bot.cardOfAnswer(picked));
    expect(form).toMatch(/"value":"[^"]*Q3/i);
    expect(form).toContain(PEOPLE.megan);
    expect(form).toContain(PEOPLE.adele);
    // Taken once: the next pick starts empty.
    const again = JSON.stringify(
      bot.cardOfAnswer(
        await bot.execute(ALEX, 'pickTemplate', { templateId: 'project' }, gallery.activityId),
      ),
    );
    expect(again).not.toContain(PEOPLE.megan);
  });
});
