/**
 * Raised when a typed message's answer must wait for the person's rate limit longer than its turn
 * may (understanding/patience.ts): the turn ends, and the bot answers `afterMs` later in a turn of
 * its own (stewardBot.ts). Never a failure to show: `asCaller` lets it through.
 */
export class AnswerLater extends Error {
  constructor(
    readonly afterMs: number,
    /** Whether the person was already told that Steward is working on it. */
    readonly told: boolean,
  ) {
    super('The answer waits for the rate limit longer than a turn may.');
  }
}
