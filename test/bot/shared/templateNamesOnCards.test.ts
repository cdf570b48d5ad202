import { databaseKinds } from '../../support/databases';
import { ENGLISH, FRENCH, cardSaying, greet, pressWith, requestInChat } from '../support/cardTurns';
import { ADELE, ALEX, SIOBHAN, startBotHarness, type TeamsPerson } from '../support/botHarness';
import { actionData, cardText, type FakeConnector, verbsOf } from '../support/fakeConnector';
import { suiteBot } from '../support/suiteBot';

/** The approval card (one with Approve) about `team` posted to `who` since `mark`, as it reads now. */
async function approvalCardOf(connector: FakeConnector, who: TeamsPerson, team: string, mark: number) {
  const posted = await connector.waitFor(() =>
    connector
      .messages(who.conversationId, mark)
      .find((m) => verbsOf(m.body).includes('approve') && cardText(m.body).includes(team)),
  );
  return { activityId: posted.activityId, text: cardText(connector.currentCard(posted.activityId)) };
}

const ENGLISH_NAME = 'Client engagement';
const FRENCH_NAME = 'Mission client';

/** The card's text names the template in English (and not in French), or the other way round. */
function expectNamed(text: string, language: 'en' | 'fr'): void {
  const [shown, hidden] = language === 'en' ? [ENGLISH_NAME, FRENCH_NAME] : [FRENCH_NAME, ENGLISH_NAME];
  expect(text).toContain(shown);
  expect(text).not.toContain(hidden);
}

/**
 * Every card of a request names its template in its reader's language (the demo's
 * `client-engagement`: "Client engagement", in French "Mission client"), whoever wrote the request
 * in which language: the requester's confirmation, progress card and list, and each approver's
 * card before and after the decision. Adele reads French, Siobhán English.
 */
describe.each(databaseKinds)(
  "a request's cards name its template in each reader's language, on %s",
  (kind) => {
    const bot = suiteBot(async () => {
      const started = await startBotHarness(kind);
      await greet(started, { english: [SIOBHAN], french: [ADELE] });
      return started;
    });

    /** Alex asks for a team `name` in `locale`: his cards, and Adele's and Siobhán's approval cards. */
    const request = async (name: string, locale: object) => {
      const asked = await requestInChat(bot, ALEX, 'client-engagement', { name }, undefined, locale);
      const adele = await approvalCardOf(bot.connector, ADELE, name, asked.mark);
      const siobhan = await approvalCardOf(bot.connector, SIOBHAN, name, asked.mark);
      return { ...asked, adele, siobhan };
    };

    it('an English request: English cards for Alex and Siobhán, French ones for Adele', async () => {
      const { confirmation, progress, adele, siobhan } = await request('Anthill', ENGLISH);
      expectNamed(cardText(confirmation), 'en');
      expectNamed(cardText(progress.card), 'en');
      expectNamed(adele.text, 'fr');
      expectNamed(siobhan.text, 'en');
    }, 60_000);

    it('a French request: French cards for Alex and Adele, English ones for Siobhán, to the end', async () => {
      const { confirmation, progress, adele, siobhan } = await request('Fourmi', FRENCH);
      expectNamed(cardText(confirmation), 'fr');
      expectNamed(cardText(progress.card), 'fr');
      expectNamed(adele.text, 'fr');
      expectNamed(siobhan.text, 'en');

      // Adele approves in French: her decided card, Siobhán's (redrawn in English) and Alex's progress.
      const approvalId = actionData(bot.connector.currentCard(adele.activityId), 'approve')!.approvalId;
      const decided = bot.cardOfAnswer(
        await pressWith(bot, ADELE, 'approve', { approvalId }, adele.activityId, FRENCH),
      );
      expect(cardText(decided)).toMatch(/Approuvée/);
      expectNamed(cardText(decided), 'fr');
      expectNamed(cardText(await cardSaying(bot.connector, siobhan.activityId, /Approved/)), 'en');
      expectNamed(
        cardText(await cardSaying(bot.connector, progress.activityId, /Votre équipe est prête/)),
        'fr',
      );

      const list = cardText(await bot.reply(ALEX, { type: 'message', text: 'mes demandes', ...FRENCH }));
      expect(list).toContain('CLI-US-Fourmi');
      expectNamed(list, 'fr');
    }, 60_000);
  },
);
