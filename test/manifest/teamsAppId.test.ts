import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * STEWARD_TEAMS_APP_ID reaches every deployment the project describes, meaning the manifest's id:
 * the Toolkit's `teamsApp/create` writes TEAMS_APP_ID (the manifest's `id`), which the Bicep
 * parameters pass to `teamsAppId` and the template sets as the app setting; the local run writes it
 * into `.env`. (The Toolkit's schema and `atk validate` check these files in toolkit.test.ts.)
 */
const ROOT = path.resolve(__dirname, '..', '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

test('the manifest takes its id from TEAMS_APP_ID, which teamsApp/create writes', () => {
  expect((JSON.parse(read('manifest/manifest.json')) as { id: string }).id).toBe('${{TEAMS_APP_ID}}');
  for (const file of ['m365agents.yml', 'm365agents.local.yml'])
    expect(read(file)).toMatch(/- uses: teamsApp\/create\n(?: {4}.*\n)*? {6}teamsAppId: TEAMS_APP_ID\n/);
});

test('Bicep: the parameters pass TEAMS_APP_ID to teamsAppId, the template sets STEWARD_TEAMS_APP_ID from it', () => {
  const parameters = (
    JSON.parse(read('infra/main.parameters.json')) as { parameters: Record<string, { value: string }> }
  ).parameters;
  expect(parameters.teamsAppId).toEqual({ value: '${{TEAMS_APP_ID}}' });
  const bicep = read('infra/main.bicep');
  expect(bicep).toMatch(/^param teamsAppId string = ''$/m);
  expect(bicep).toMatch(/^ {4}STEWARD_TEAMS_APP_ID: teamsAppId$/m);
  // Every parameter passed is one the template declares.
  for (const name of Object.keys(parameters)) expect(bicep).toMatch(new RegExp(`^param ${name} `, 'm'));
});

test('the local run writes it into .env beside the bot’s registration', () => {
  const local = read('m365agents.local.yml');
  const dotEnv = local.slice(local.indexOf('target: ./.env\n'));
  expect(dotEnv).toMatch(/^ {8}STEWARD_TEAMS_APP_ID: \$\{\{TEAMS_APP_ID\}\}$/m);
});
