import './compileCache';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ConfigError, loadDotEnv } from '../config';
import { graphBaseUrlSetting } from '../config/processEnv';
import { AdminGraph, GraphRefusal } from './adminGraph';
import {
  AdminUsageError,
  grantPermissions,
  type GrantOutcome,
  publishApp,
  type PublishOutcome,
} from './adminCommands';

const USAGE = `An administrator's steps in the tenant, through Microsoft Graph, with your own token.

  az account get-access-token --resource-type ms-graph --query accessToken -o tsv \\
    | npm run -s admin -- grant-permissions --principal <client id or object id> \\
        [--api-app <API client id> --role INTEGRATION_MANAGER]
  <token> | npm run -s admin -- publish-app --package manifest/build/steward.zip

grant-permissions  grants Steward's identity (the managed identity or app registration) the
                   Microsoft Graph application permissions it needs; with --api-app, the app role
                   --role of Steward's API too. What is granted already is left as it is.
publish-app        publishes Steward's Teams app to the organisation's app catalog, or updates it.

The token is read from standard input, never from the command line. Graph is the cloud's
(STEWARD_CLOUD, from the environment or .env) unless --graph-url names another root.
Exit status: 0 done, 1 Graph refused, 2 a wrong input. Guide: docs/guides/deploying.md.`;

/** What each command's token must carry when Graph answers 403. */
const NEEDS: Record<string, string> = {
  'grant-permissions':
    'the delegated permissions Application.Read.All and AppRoleAssignment.ReadWrite.All, held by a Privileged Role Administrator or Global Administrator',
  'publish-app':
    'the delegated permission AppCatalog.ReadWrite.All (or AppCatalog.Submit), held by a Teams Administrator or Global Administrator (Graph documents updates for Global Administrators only)',
};

/** Standard input, whole, once closed; a terminal is refused rather than waited on. */
async function readToken(): Promise<string> {
  if (process.stdin.isTTY)
    throw new AdminUsageError(
      'Pipe your Graph token on standard input (see --help); it is never taken from the command line.',
    );
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const token = Buffer.concat(chunks).toString('utf8').trim();
  if (!token)
    throw new AdminUsageError('No token on standard input: pipe a Graph access token in (see --help).');
  if (/\s/.test(token))
    throw new AdminUsageError('Standard input holds more than one token: pipe just the access token.');
  return token;
}

/** Graph's v1.0 root: --graph-url, else STEWARD_GRAPH_BASE_URL, else the cloud's (`src/config/cloud.ts`). */
function graphRoot(override: string | undefined): string {
  const url = override ?? graphBaseUrlSetting();
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AdminUsageError(`--graph-url "${url}" is not a URL.`);
  }
  if (parsed.protocol !== 'https:') throw new AdminUsageError('Graph is reached over https only.');
  return url.replace(/\/+$/, '');
}

function printGrants(outcome: GrantOutcome): void {
  const { principal } = outcome;
  const lines = [
    `Service principal ${principal.displayName ?? ''} (object id ${principal.id}, client id ${principal.appId}):`,
  ];
  for (const resource of outcome.resources) {
    lines.push(
      `  ${resource.name}: granted ${resource.granted.length}, already granted ${resource.already.length}`,
    );
    if (resource.granted.length > 0) lines.push(`    granted now: ${resource.granted.join(', ')}`);
    if (resource.already.length > 0) lines.push(`    already granted: ${resource.already.join(', ')}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

function printPublished(outcome: PublishOutcome): void {
  process.stdout.write(
    `${outcome.action === 'published' ? 'Published' : 'Updated'} Steward's app (version ${outcome.version}) in the organisation's app catalog.\n` +
      `  catalog id: ${outcome.catalogId}\n` +
      `  manifest id: ${outcome.manifestId} (STEWARD_TEAMS_APP_ID: Steward finds the app by it; unset, it is MicrosoftAppId)\n`,
  );
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      principal: { type: 'string' },
      'api-app': { type: 'string' },
      role: { type: 'string' },
      package: { type: 'string' },
      'graph-url': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || command === undefined) {
    process.stdout.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  if (!(command in NEEDS) || rest.length > 0)
    throw new AdminUsageError(`Unknown command "${positionals.join(' ')}" (see --help).`);
  if (command === 'grant-permissions' && !values.principal)
    throw new AdminUsageError('grant-permissions needs --principal.');
  if (command === 'publish-app' && !values.package)
    throw new AdminUsageError(
      'publish-app needs --package (npm run manifest writes manifest/build/steward.zip).',
    );
  loadDotEnv();
  const root = graphRoot(values['graph-url']);
  let zip: Buffer | undefined;
  if (values.package) {
    try {
      zip = readFileSync(values.package);
    } catch (error) {
      throw new AdminUsageError(
        `${values.package} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
      );
    }
  }
  const graph = new AdminGraph(root, await readToken());
  try {
    if (command === 'grant-permissions')
      printGrants(
        await grantPermissions(graph, {
          principal: values.principal!,
          apiApp: values['api-app'],
          role: values.role,
        }),
      );
    else printPublished(await publishApp(graph, zip!));
  } catch (error) {
    if (error instanceof GraphRefusal && (error.status === 401 || error.status === 403))
      throw new GraphRefusal(
        error.status,
        error.code,
        `${error.message}\nThe token must be a person's Graph token with ${NEEDS[command]}.`,
      );
    throw error;
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    const usage =
      error instanceof AdminUsageError ||
      error instanceof ConfigError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(
      `admin: ${usage ? message : error instanceof GraphRefusal ? `Graph refused: ${message}` : message}\n`,
    );
    process.exit(usage ? 2 : 1);
  },
);
