import type { BotState } from '../botState';
import { DEFAULT_READER, type Reader } from '../i18n/catalog';

/**
 * How an approver reads, as the bot last saw them (English in UTC before they ever wrote): cards
 * sent to them unprompted (approval, decision, reminder) are drawn in their language.
 */
export async function readerOfApprover(state: BotState, approverId: string): Promise<Reader> {
  return (await state.user(approverId).catch(() => undefined))?.reader ?? DEFAULT_READER;
}
