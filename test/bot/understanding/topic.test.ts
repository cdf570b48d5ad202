import { understand } from '../../../src/bot/understanding/understand';
import { ALEX, startBotHarness } from '../support/botHarness';
import { FRENCH } from '../support/cardTurns';
import { readTexts } from '../support/englishLeaks';
import { actionData, cardText } from '../support/fakeConnector';
import { TEMPLATES } from './fixtures';
import { suiteBot } from '../support/suiteBot';

/** What the engine reads of a message: its intent, and the request or team named. */
const read = (text: string) => {
  const got = understand(text, TEMPLATES);
  return { intent: got.intent, name: got.requestName ?? got.teamName, decideAll: got.decideAll === true };
};

describe('messages about something else, and orders Steward never follows', () => {
  it.each([
    'who won the football last night',
    "what's the wifi password in building 4",
    'c’est quoi le menu de la cantine',
    'le code wifi du bâtiment B',
  ])('%s is not a request', (text) => {
    const got = understand(text, TEMPLATES);
    expect(got.offTopic).toBe(true);
    expect(['none', 'askCapabilities', 'greeting', 'thanks']).toContain(got.intent);
  });

  it.each([
    ['approve everything pending', 'en'],
    ['approuve tout', 'fr'],
  ])('%s asks to decide in bulk, which is answered and never done', (text) => {
    expect(read(text)).toMatchObject({ intent: 'askMyApprovals', decideAll: true });
  });

  it.each([
    ['is something waiting for my decision', 'askMyApprovals', null],
    ['qu’est-ce que je dois approuver', 'askMyApprovals', null],
    ['drop my request for Atlas', 'withdrawRequest', 'Atlas'],
    ['annule ma demande pour Atlas', 'withdrawRequest', 'Atlas'],
    ['has my team for Northwind been made yet', 'askRequestStatus', 'Northwind'],
    ['est-ce que l’équipe Atlas est prête', 'askRequestStatus', 'Atlas'],
    ['do I need anyone to approve a client team?', 'askApprovers', null],
  ])('%s → %s', (text, intent, name) => {
    expect(read(text)).toMatchObject({ intent, name });
  });
});

describe('the bot, on messages about something else', () => {
  const bot = suiteBot(() => startBotHarness('sqlite'));
  it.each([
    ['English', {}, 'who won the football last night', /cannot help with "who won the football/],
    ['French', FRENCH, 'c’est quoi le menu de la cantine', /ne peut pas vous aider pour « c’est quoi/],
  ])('says honestly it does not look after that, with the help card (%s)', async (_l, locale, text, said) => {
    await bot.send(ALEX, { type: 'message', text, ...locale });
    const texts = readTexts(bot.lastCard(ALEX).card).join('\n');
    expect(texts).toMatch(said);
  });

  it.each([
    ['English', {}, 'please drop my Northwind request'],
    ['French', FRENCH, 'annule ma demande Northwind'],
  ])('finds the request to withdraw by a word of its name (%s)', async (_l, locale, text) => {
    const form = bot.cardOfAnswer(
      await bot.execute(ALEX, 'pickTemplate', { templateId: 'client-engagement' }),
    );
    const submit = actionData(form, 'submitRequest')!;
    const name = `Northwind Traders ${Math.random().toString(36).slice(2, 6)}`;
    await bot.execute(ALEX, 'submitRequest', { ...submit, name, owners: 'isaiah@example.com' });
    const mark = bot.connector.messages(ALEX.conversationId).length;
    await bot.send(ALEX, { type: 'message', text, ...locale });
    const card = bot.lastCard(ALEX, mark).card;
    expect(cardText(card)).toContain(name.split(' ').pop());
    expect(actionData(card, 'withdrawRequest')).toMatchObject({ confirmed: true });
  });

  it.each([
    ['approve everything pending', /never approve or reject requests in bulk or by message/],
    ["approve Megan's Orion request", /press Approve or Reject on its approval card/],
    ['valide la demande de Lucas pour Atlas', /appuyez sur Approuver ou Refuser/],
  ])('declines an order to decide (%s): a sentence, no card, nothing decided', async (text, said) => {
    const mark = bot.connector.messages(ALEX.conversationId).length;
    await bot.say(ALEX, text);
    const sent = bot.connector.messages(ALEX.conversationId, mark);
    const bodies = JSON.stringify(sent.map((message) => message.body));
    expect(bodies).toMatch(said);
    // No approval card is posted to be pressed, and nothing is decided.
    expect(bodies).not.toMatch(/"verb":"(?:approve|reject)"/);
  });
});
