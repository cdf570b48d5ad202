import { startSteward } from './app';
import { ConfigError, loadConfig } from './config';
import { createLogger } from './logger';

/** `npm start`: reads the configuration, starts Steward, and stops it gracefully on SIGTERM / SIGINT. */
async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`Steward cannot start: ${error.message}\n`);
    process.exit(1);
  }
  const logger = createLogger(config.logLevel);
  const steward = await startSteward(config, logger);
  const stop = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.warn('requests still running at the shutdown deadline; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    timer.unref();
    steward.close().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Steward failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
