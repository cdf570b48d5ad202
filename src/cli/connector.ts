import './compileCache';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CONNECTOR_DIR, connectorFiles, PLACEHOLDERS } from './connectorFiles';

/**
 * `npm run connector [-- --host steward.contoso.com --client-id <guid> --resource api://… --out dir]`:
 * writes the Power Platform custom connector (docs/guides/power-automate.md) into `connector/` of
 * the repository, or the folder given. Without options it writes the committed placeholders.
 */
function main(): void {
  const { values } = parseArgs({
    options: {
      host: { type: 'string' },
      'client-id': { type: 'string' },
      resource: { type: 'string' },
      out: { type: 'string' },
    },
  });
  const host = values.host ?? PLACEHOLDERS.host;
  if (!/^[A-Za-z0-9.-]+(:\d{1,5})?$/.test(host)) {
    process.stderr.write(`connector: --host takes a host name (and port), not "${host}"\n`);
    process.exit(2);
  }
  const files = connectorFiles({
    host,
    clientId: values['client-id'] ?? PLACEHOLDERS.clientId,
    resourceUri: values.resource ?? (values.host ? `api://${host}` : PLACEHOLDERS.resourceUri),
  });
  const root = path.resolve(__dirname, '..', '..');
  const out = path.resolve(values.out ?? path.join(root, CONNECTOR_DIR));
  mkdirSync(out, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(out, name), text);
  process.stdout.write(`Wrote ${Object.keys(files).join(', ')} to ${out}\n`);
}

main();
