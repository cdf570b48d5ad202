/** The logging the bot needs (pino's shape); messages never carry tokens or secrets. */
export interface BotLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}
