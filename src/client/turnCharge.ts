import type { TokenSource, Turn, TurnAttempt } from './options';

/** The header of a call whose turn is already charged (the API's `X-Steward-Charged-Turn`). */
export const CHARGED_TURN_HEADER = 'x-steward-charged-turn';

/** How long a turn's charge covers its calls: the API's budgets are per minute. */
const TURN_MS = 60_000;

/**
 * One turn of a person with Steward's bot (a typed message, a card pressed), whose calls made with
 * the person's token cost their rate-limit budget once: the first call is charged as any call is;
 * once an answer shows it was (it carries `X-RateLimit-Limit` and is not a 429), the turn's other
 * calls carry `X-Steward-Charged-Turn` with the bot's own app token (`vouch`), which the API trusts
 * from the bot alone, and spend nothing. Calls waiting while the first is in flight go after it, so
 * two calls at once are not both charged. A refused or failed first call leaves the turn uncharged:
 * the next call is charged in its place. The charge covers a minute, after which a call is charged
 * again.
 */
export class TurnCharge implements Turn {
  private chargedAt: number | undefined;
  private charging: Promise<void> | undefined;

  constructor(
    private readonly vouch: TokenSource,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Before an attempt: what it carries (waits while another attempt may be the turn's charge). */
  async begin(): Promise<TurnAttempt> {
    while (this.charging) await this.charging;
    if (this.chargedAt !== undefined && this.clock() - this.chargedAt < TURN_MS) {
      const token = typeof this.vouch === 'function' ? await this.vouch() : this.vouch;
      return { headers: { [CHARGED_TURN_HEADER]: `Bearer ${token}` }, end: () => undefined };
    }
    let settle!: () => void;
    this.charging = new Promise<void>((resolve) => (settle = resolve));
    return {
      headers: {},
      end: (answer) => {
        if (answer && answer.status !== 429 && answer.headers['x-ratelimit-limit'] !== undefined)
          this.chargedAt = this.clock();
        this.charging = undefined;
        settle();
      },
    };
  }
}
