import pino, { type Logger } from 'pino';
import type { Config } from './config';

/** JSON logs; anything that could hold a secret or a token is redacted before it is written. */
export function createLogger(level: Config['logLevel'], destination?: pino.DestinationStream): Logger {
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
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
