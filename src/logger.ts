import pino, { type Logger } from 'pino';
import type { Config } from './config';
import { LogDestination } from './logDestination';

/** Standard output as a log destination that never blocks or holds the process (see LogDestination). */
export const STDOUT_LOG = new LogDestination(1);

/** JSON logs; anything that could hold a secret or a token is redacted before it is written. */
export function createLogger(
  level: Config['logLevel'],
  destination: pino.DestinationStream = STDOUT_LOG,
): Logger {
  return pino(
    {
      level,
      base: { service: 'steward' },
      redact: {
        paths: [
          'authorization',
          '*.authorization',
          'headers.authorization',
          '*.headers.authorization',
          'token',
          '*.token',
          'secret',
          '*.secret',
          'password',
          '*.password',
          // A person's sign-in (the on-behalf-of assertion) and their delegated grant.
          'assertion',
          '*.assertion',
          'person',
          '*.person',
          'grant',
          '*.grant',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
