import { databaseKinds } from '../../support/databases';
import { ADELE, ALEX, startWithApprovers } from '../support/botHarness';
import { actionData, cardOf, cardText, fact, type SentCard, verbsOf } from '../support/fakeConnector';
import { suiteBot } from '../support/suiteBot';

const GUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** Names instead of ids, and an approver who amends the name. */
describe.each(databaseKinds)('names, ids out of the way, and amended names, on %s', (kind) => {
  const bot = suiteBot(() => startWithApprovers(kind));
  async function request(name: string, owners = '') {
    const mark = bot.connector.sent.length;
    const form = bot.cardOfAnswer(
      await bot.execute(ALEX, 'pickTemplate', { templateId: 'client-engagement' }),
    );
    const confirmation = bot.cardOfAnswer(
      await bot.execute(ALEX, 'submitRequest', { ...actionData(form, 'submitRequest'), name, owners }),
    );
    const progress = bot.progressCard(ALEX, mark);
    const approval = await bot.connector.waitFor(() =>
      bot.connector.messages(ADELE.conversationId, mark).find((m) => verbsOf(m.body).includes('approve')),
    );
    return { confirmation, progress, approval, card: cardOf(approval.body) as SentCard };
  }

  it('shows people by name on the approval card, the requester among the owners, and no ids in the text', async () => {
    const { confirmation, progress, card, approval } = await request('Globex', 'isaiah@example.com');
    const owners = fact(card, 'Owners')!;
    expect(owners).toContain('Isaiah Langer');
    expect(owners).toContain('Alex Wilber');
    expect(owners).toContain('Oliver Bennett');
    expect(owners).not.toContain('@');

    // No id anywhere a person reads (the "Request id" footer is gone too): ids mean nothing to people.
    const textWithoutFooter = (c: unknown) => cardText(c);
    expect(textWithoutFooter(confirmation)).not.toMatch(GUID);
    expect(textWithoutFooter(progress.card)).not.toMatch(GUID);
    expect(cardText(progress.card)).not.toMatch(/Request id/);

    const approvalId = String(actionData(card, 'approve')!.approvalId);
    await bot.execute(ADELE, 'approve', { approvalId }, approval.activityId);
    const ready = await bot.connector.waitFor(() => {
      const current = bot.connector.currentCard(progress.activityId);
      return current && /Your team is ready/.test(cardText(current)) ? current : undefined;
    }, 20_000);
    // "Privacy private, label 901c…" and "Created … (id)" read without their ids.
    expect(textWithoutFooter(ready)).not.toMatch(GUID);
  }, 60_000);

  it('lets the approver amend the name, shows the final name, and the team gets it', async () => {
    const { progress, card, approval } = await request('Initech');
    const approvalId = String(actionData(card, 'approve')!.approvalId);
    expect(JSON.stringify(card)).toContain('"id":"teamName"');
    expect(cardText(card)).toContain('Final name: CLI-US-Initech');

    /** The approval card as Adele's "Check the name" with `teamName` answers it. */
    const check = async (teamName: string) =>
      bot.cardOfAnswer(
        await bot.execute(ADELE, 'checkApprovalName', { approvalId, teamName }, approval.activityId),
      );
    const checked = await check('Initech Labs');
    expect(cardText(checked)).toContain('Final name: CLI-US-Initech Labs');
    expect(verbsOf(checked)).toContain('approve');

    const refused = await check('Initech: Labs');
    expect(cardText(refused)).toContain('A team name cannot contain');

    const decided = bot.cardOfAnswer(
      await bot.execute(ADELE, 'approve', { approvalId, teamName: 'Initech Labs' }, approval.activityId),
    );
    expect(cardText(decided)).toContain('CLI-US-Initech Labs');
    const ready = await bot.connector.waitFor(() => {
      const current = bot.connector.currentCard(progress.activityId);
      return current && /Your team is ready/.test(cardText(current)) ? current : undefined;
    }, 20_000);
    expect(cardText(ready)).toContain('CLI-US-Initech Labs');
  }, 60_000);
});
