import './compileCache';
import { ConfigError, loadConfig, loadDotEnv, redactUrl } from '../config';
import { migrate, openStore } from '../store/database';

/** `npm run migrate`: applies pending migrations to the configured store and says which. */
async function main(): Promise<void> {
  loadDotEnv();
  const config = loadConfig();
  const store = openStore(config.database);
  try {
    const applied = await migrate(store.db);
    const where = config.database.kind === 'sqlite' ? config.database.file : redactUrl(config.database.url);
    process.stdout.write(
      applied.length > 0 ? `Applied ${applied.join(', ')} to ${where}\n` : `${where} is up to date\n`,
    );
  } finally {
    await store.close();
  }
}

main().catch((error: unknown) => {
  const message = error instanceof ConfigError || error instanceof Error ? error.message : String(error);
  process.stderr.write(`migrate: ${message}\n`);
  process.exit(1);
});
