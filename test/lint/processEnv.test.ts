import path from 'node:path';
import { ESLint } from 'eslint';

/**
 * The rule of `eslint.config.js` that keeps reading the environment in src/config, run through
 * ESLint itself on source texts placed in a folder (nothing is written).
 */
const root = path.join(__dirname, '..', '..');
// The project's config, loaded here (ESLint's own loader needs a dynamic import that Jest's VM lacks).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const config = require(path.join(root, 'eslint.config.js')) as ESLint.Options['overrideConfig'];
const eslint = new ESLint({ cwd: root, overrideConfigFile: true, overrideConfig: config });

async function envReads(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(root, 'src', file) });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-properties').map((m) => m.message);
}

describe('the environment is read in src/config only', () => {
  it.each([
    ['cli/reads.ts', 'export const port = process.env.STEWARD_PORT;\n'],
    ['cli/spreads.ts', 'export const env = { ...process.env, STEWARD_ROLE: "api" };\n'],
    ['services/reads.ts', 'export const read = (name: string) => process.env[name];\n'],
  ])('refuses process.env in src/%s', async (file, source) => {
    expect(await envReads(file, source)).toEqual([
      expect.stringMatching(/Read the environment in src\/config/),
    ]);
  });

  it('allows it in src/config', async () => {
    expect(await envReads('config/reads.ts', 'export const port = process.env.STEWARD_PORT;\n')).toEqual([]);
  });
});
