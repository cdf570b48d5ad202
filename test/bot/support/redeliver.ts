import { createHmac } from 'node:crypto';
import { request } from 'undici';
import type { TestSteward } from '../../support/steward';

/**
 * Delivers `payload` to the bot's webhook again, signed with the secret the bot registered, as
 * Steward does when it retries a delivery. Resolves once the bot has handled it (it answers after).
 */
export async function redeliver(app: TestSteward, event: string, payload: unknown): Promise<void> {
  const row = await app.steward.store.db
    .selectFrom('bot_state')
    .select('value')
    .where('key', '=', 'webhook')
    .executeTakeFirstOrThrow();
  const { secret } = JSON.parse(row.value) as { secret: string };
  const body = JSON.stringify(payload);
  const response = await request(`${app.url}/api/notifications`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-steward-event': event,
      'x-steward-signature': createHmac('sha256', secret).update(body).digest('hex'),
    },
    body,
  });
  await response.body.dump();
  if (response.statusCode !== 200) throw new Error(`the bot answered ${response.statusCode}`);
}
