import { DEFAULT_READER, type Reader } from '../i18n/catalog';
import type { ReachState } from '../reachState';

/**
 * How an approver reads, as the bot last saw them (English in UTC before they ever wrote): cards
 * sent to them unprompted (approval, decision, reminder) are drawn in their language.
 */
export async function readerOfApprover(reachState: ReachState, approverId: string): Promise<Reader> {
  return (await reachState.user(approverId).catch(() => undefined))?.reader ?? DEFAULT_READER;
}
