/**
 * `npm run copilot`: writes the generated files of the Microsoft 365 Copilot agent's action into
 * manifest/copilot/ (the curated OpenAPI 3.0.3 description, the API plugin, the MCP plugin), from
 * the routes of the operations the agent calls; `--check` writes nothing and exits 1 when a file
 * differs from a fresh generation (the tests check the same against the document Steward serves).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildOpenApiDocument } from '../api/openapi';
import { copilotActionFiles } from '../api/copilot/plugin';
import type { OpenApi31 } from '../api/copilot/openApi30';
import { catalogRoutes } from '../api/routes/catalog';
import { joiningRoutes } from '../api/routes/joining';
import { lifecycleRoutes } from '../api/routes/lifecycle/lifecycle';
import { provisioningRoutes } from '../api/routes/provisioning';
import { VERSION } from '../version';

const DIR = path.resolve(__dirname, '..', '..', 'manifest', 'copilot');

/**
 * The routes of the agent's operations. A route keeps its service for its handler alone, and no
 * handler runs here: the contract (paths, schemas, responses) is all the document needs.
 */
function contractRoutes() {
  const unused = undefined as never;
  return [
    ...catalogRoutes(unused),
    ...provisioningRoutes(unused, unused, unused),
    ...joiningRoutes(unused),
    ...lifecycleRoutes(unused, unused, unused),
  ];
}

/** The generated files as they are written: two-space JSON and a final newline. */
export function generatedFiles(): Record<string, string> {
  const document = buildOpenApiDocument(contractRoutes(), { version: VERSION, serverUrl: 'https://steward' });
  return Object.fromEntries(
    Object.entries(copilotActionFiles(document as OpenApi31)).map(([name, json]) => [
      name,
      `${JSON.stringify(json, null, 2)}\n`,
    ]),
  );
}

function main(check: boolean): number {
  let stale = 0;
  for (const [name, text] of Object.entries(generatedFiles())) {
    const file = path.join(DIR, name);
    let current: string | undefined;
    try {
      current = readFileSync(file, 'utf8');
    } catch {
      current = undefined;
    }
    if (current === text) continue;
    stale += 1;
    if (check) console.error(`manifest/copilot/${name} differs from its generation: run npm run copilot.`);
    else {
      writeFileSync(file, text);
      console.log(`Wrote manifest/copilot/${name}.`);
    }
  }
  if (stale === 0) console.log('manifest/copilot/ is up to date.');
  return check && stale > 0 ? 1 : 0;
}

if (require.main === module) process.exitCode = main(process.argv.includes('--check'));
