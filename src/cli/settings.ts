import './compileCache';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REFERENCE_FILE, renderEnvExample, withReference } from '../config/settingsReference';

/**
 * `npm run settings`: writes `.env.example` and the configuration reference
 * (`docs/reference/configuration.md`) from the settings' description (`src/config/settings.ts`).
 * `--check` writes nothing and exits 1 when either file differs from what it would write.
 */
function main(): void {
  const root = path.resolve(__dirname, '..', '..');
  const check = process.argv.includes('--check');
  const files = [
    { file: path.join(root, '.env.example'), text: () => renderEnvExample() },
    { file: path.join(root, REFERENCE_FILE), text: (old: string) => withReference(old) },
  ];
  const stale: string[] = [];
  for (const { file, text } of files) {
    const old = readFileSync(file, 'utf8');
    const written = text(old);
    if (written === old) continue;
    stale.push(path.relative(root, file));
    if (!check) writeFileSync(file, written);
  }
  if (check && stale.length > 0) {
    process.stderr.write(
      `settings: ${stale.join(' and ')} differ from src/config/settings.ts: run npm run settings\n`,
    );
    process.exit(1);
  }
  process.stdout.write(stale.length > 0 ? `Wrote ${stale.join(' and ')}\n` : 'Up to date\n');
}

main();
