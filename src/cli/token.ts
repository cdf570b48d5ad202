import './compileCache';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, loadDotEnv } from '../config';
import { type AppRole, ASSIGNABLE_ROLES, isAppRole } from '../contract/roles';
import { EmbeddedTokenIssuer, type TokenSubject } from '../services/access/tokens';
import { migrate, openStore } from '../store/database';
import { DirectoryRepository } from '../store/directory/directory';
import { seedDemoData } from '../store/seed';

const USAGE = `Prints an embedded bearer token for a person or an app of the directory.

  npm run -s token -- --user <object id | UPN | mail> [--roles R1,R2] [--ttl seconds]
  npm run -s token -- --app --user <app id> [--roles R1,R2] [--ttl seconds]

Without --roles, the roles the embedded directory assigns are used; --roles "" gives none.
Roles: ${ASSIGNABLE_ROLES.join(', ')}.`;

/** `npm run token`: mints a token with the embedded issuer's secret. */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      user: { type: 'string' },
      roles: { type: 'string' },
      app: { type: 'boolean', default: false },
      ttl: { type: 'string', default: '3600' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help || !values.user) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(values.help ? 0 : 2);
  }
  loadDotEnv();
  const config = loadConfig();
  if (config.auth.mode !== 'embedded') {
    throw new Error('Tokens are minted only with STEWARD_AUTH_MODE=embedded; Entra ID issues the others.');
  }
  const ttl = Number(values.ttl);
  if (!Number.isInteger(ttl) || ttl < 1 || ttl > 7 * 24 * 3600)
    throw new Error('--ttl takes 1 to 604800 seconds.');
  const roles = values.roles === undefined ? undefined : parseRoles(values.roles);

  const store = openStore(config.database);
  try {
    await migrate(store.db);
    if (config.seedDemoData) await seedDemoData(store);
    const subject = await subjectFor(new DirectoryRepository(store.db), values.user, values.app, roles);
    const issuer = new EmbeddedTokenIssuer(config.auth.secret, config.tenantId);
    process.stdout.write(`${await issuer.mint(subject, ttl)}\n`);
  } finally {
    await store.close();
  }
}

async function subjectFor(
  directory: DirectoryRepository,
  key: string,
  app: boolean,
  roles: AppRole[] | undefined,
): Promise<TokenSubject> {
  if (app) {
    const found = await directory.findApp(key);
    if (!found && roles === undefined)
      throw new Error(`No app "${key}" in the directory; pass --roles to mint anyway.`);
    return { id: key, name: found?.displayName, roles: roles ?? found?.appRoles ?? [], app: true };
  }
  const user = await directory.findUser(key);
  if (!user) throw new Error(`No user "${key}" in the directory (try an object id, UPN or mail).`);
  return { id: user.id, name: user.displayName, upn: user.userPrincipalName, roles: roles ?? user.appRoles };
}

function parseRoles(list: string): AppRole[] {
  const roles = list
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
  const unknown = roles.filter((r) => !isAppRole(r));
  if (unknown.length > 0)
    throw new Error(`Unknown role(s): ${unknown.join(', ')}. Roles: ${ASSIGNABLE_ROLES.join(', ')}.`);
  return roles as AppRole[];
}

main().catch((error: unknown) => {
  const message = error instanceof ConfigError || error instanceof Error ? error.message : String(error);
  process.stderr.write(`token: ${message}\n`);
  process.exit(1);
});
