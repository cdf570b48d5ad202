import path from 'node:path';
import { ESLint } from 'eslint';

/**
 * The layer rules of `eslint.config.js`, run through ESLint itself on source texts placed in a layer's
 * folder (nothing is written): a crossing fails `npm test` (lint), and an allowed import does not.
 */
const root = path.join(__dirname, '..', '..');
// The project's config, loaded here (ESLint's own loader needs a dynamic import that Jest's VM lacks).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const config = require(path.join(root, 'eslint.config.js')) as ESLint.Options['overrideConfig'];
const eslint = new ESLint({ cwd: root, overrideConfigFile: true, overrideConfig: config });

async function crossings(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join('src', file) });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('layer rules', () => {
  it.each([
    [
      'api/routes/crossing.ts',
      "import type { StoredHook } from '../../store/webhooks/hooks';",
      /Layer api: routes go through services/,
    ],
    ['api/crossing.ts', "import { createGraphPlatform } from '../platform/graph';", /Layer api:/],
    [
      'bot/cards/crossing.ts',
      "import type { Job } from '../../contract';",
      /Layer bot: the bot talks to the API only through src\/client/,
    ],
    [
      'bot/crossing.ts',
      "import { ProvisioningService } from '../services/provisioning/provisioning';",
      /Layer bot:/,
    ],
    ['bot/approvals/crossing.ts', "import { APP_ROLES } from '../../contract/roles';", /Layer bot:/],
    ['lib/crossing.ts', "import { Job } from '../contract';", /Layer lib: lib holds generic helpers/],
    ['lib/crossing.ts', "import { Kysely } from 'kysely';", /Layer lib:/],
    ['contract/crossing.ts', "import { AUDIT_TRAILS } from '../domain/audit';", /Layer contract:/],
    ['client/crossing.ts', "import { teamNameProblem } from '../domain/teamName';", /Layer client:/],
    [
      'domain/crossing.ts',
      "import { AuditLog } from '../services/audit/audit';",
      /Layer domain: the domain is pure business rules/,
    ],
    ['domain/rules/crossing.ts', "import { Kysely } from 'kysely';", /Layer domain:/],
    ['services/jobs/crossing.ts', "import { createApiServer } from '../../api/server';", /Layer services:/],
    ['services/crossing.ts', "import restify from 'restify';", /Layer services:/],
    ['store/crossing.ts', "import type { TeamsPlatform } from '../platform/port';", /Layer store:/],
    [
      'platform/graph/crossing.ts',
      "import type { Database } from '../../store/schema';",
      /Layer platform\/graph:/,
    ],
    [
      'client/crossing.ts',
      "import { SYSTEM_ACTOR } from '../domain/audit';",
      /Layer client: the client imports nothing of ours but/,
    ],
    ['config/crossing.ts', "import { openStore } from '../store/database';", /Layer config:/],
  ])('refuses %s importing across layers', async (file, source, message) => {
    const found = await crossings(
      file,
      `${source}\nexport const used = [${source
        .match(/\{ (?:type )?(\w+)|import (\w+)/)!
        .slice(1)
        .find(Boolean)}];\n`,
    );
    expect(found).toEqual([expect.stringMatching(message)]);
  });

  it.each([
    ['api/routes/allowed.ts', "import type { AuditLog } from '../../services/audit/audit';"],
    ['api/routes/reports/allowed.ts', "import { escapeMarkup } from '../../../lib/markup';"],
    ['bot/approvals/allowed.ts', "import { sleep } from '../../lib/sleep';"],
    ['domain/allowed.ts', "import type { Job } from '../contract';"],
    ['contract/allowed.ts', "import { canonicalJson } from '../lib/canonicalJson';"],
    ['bot/cards/allowed.ts', "import type { Job } from '../../client';"],
    ['client/allowed.ts', "import type { Job } from '../contract';"],
    ['platform/embedded/allowed.ts', "import type { Database } from '../../store/schema';"],
    ['services/jobs/allowed.ts', "import type { Database } from '../../store/schema';"],
    ['compose/allowed.ts', "import type { Database } from '../store/schema';"],
    ['platform/graph/allowed.ts', "import { GraphClient } from './client';"],
  ])('lets %s import within the layers', async (file, source) => {
    expect(await crossings(file, `${source}\n`)).toEqual([]);
  });
});

/**
 * Inside the services layer (`eslint.config.js`, SERVICE_FEATURE_RULES and ENGINE_RULE): the job
 * engine imports no feature, and a feature imports another only through the shared folders, the
 * engine and the public ports.
 */
describe('service feature rules', () => {
  it.each([
    [
      'services/jobs/crossing.ts',
      "import { provisioningJob } from '../provisioning/job';",
      /Job engine: services\/jobs is the job engine/,
    ],
    ['services/jobs/crossing.ts', "import type { AuditLog } from '../audit/audit';", /Job engine:/],
    ['services/jobs/crossing.ts', "import type { Config } from '../../config';", /Job engine:/],
    [
      'services/approvals/crossing.ts',
      "import { eventPayload } from '../provisioning/job';",
      /Service features: a service feature imports another only through/,
    ],
    [
      'services/drift/crossing.ts',
      "import { layOutFiles } from '../provisioning/job/workspaceSteps';",
      /Service features:/,
    ],
    [
      'services/provisioning/job/crossing.ts',
      "import { teamRecord } from '../../teams/teamRecord';",
      /Service features:/,
    ],
    [
      'services/provisioning/crossing.ts',
      "import { stagesOf } from '../approvals/approvalDecision';",
      /Service features:/,
    ],
    ['services/drift/crossing.ts', "import restify from 'restify';", /Layer services:/],
  ])('refuses %s importing %s', async (file, source, message) => {
    const name = source
      .match(/\{ (?:type )?(\w+)|import (\w+)/)!
      .slice(1)
      .find(Boolean);
    const found = await crossings(file, `${source}\nexport const used = [${name}];\n`);
    expect(found).toEqual([expect.stringMatching(message)]);
  });

  it.each([
    ['services/drift/allowed.ts', "import { layOutFiles } from '../workspace/workspaceSteps';"],
    ['services/approvals/allowed.ts', "import { eventPayload } from '../jobData/provisioningEvents';"],
    ['services/approvals/allowed.ts', "import type { AuditLog } from '../audit/audit';"],
    ['services/teams/allowed.ts', "import type { EventBus } from '../webhooks/events';"],
    ['services/provisioning/job/allowed.ts', "import type { JobRun } from '../../jobs/jobType';"],
    ['services/provisioning/allowed.ts', "import { withStages } from '../approvals/approvalStages';"],
    ['services/provisioning/job/allowed.ts', "import { provisioningSteps } from './steps';"],
    ['services/jobs/allowed.ts', "import { ActiveRun } from './jobRun';"],
    ['services/drift/allowed.ts', "import type { Database } from '../../store/schema';"],
  ])('lets %s import %s', async (file, source) => {
    expect(await crossings(file, `${source}\n`)).toEqual([]);
  });
});

/**
 * Inside the bot (`eslint.config.js`, BOT_FEATURE_RULES): a feature folder imports no other feature;
 * what several use lives in bot/shared, cards, conversations, understanding or the top-level files,
 * and i18n merges every feature's words. The bot's layer rule still holds in each feature.
 */
describe('bot feature rules', () => {
  it.each([
    [
      'bot/requests/crossing.ts',
      "import { renderJoinNewsCard } from '../joining/joinNewsCard';",
      /Bot features: a bot feature imports no other feature/,
    ],
    ['bot/lifecycle/crossing.ts', "import { approvalsEn } from '../approvals/approvalsEn';", /Bot features:/],
    [
      'bot/welcome/crossing.ts',
      "import { EmbeddedIdentity } from '../identity/embeddedIdentity';",
      /Bot features:/,
    ],
    [
      'bot/understanding/entities/crossing.ts',
      "import { renderWelcomeCard } from '../../welcome/welcomeCard';",
      /Bot features:/,
    ],
    ['bot/drift/crossing.ts', "import type { Job } from '../../contract';", /Layer bot:/],
    ['bot/shared/crossing.ts', "import { Kysely } from 'kysely';", /Layer bot:/],
  ])('refuses %s importing %s', async (file, source, message) => {
    const name = source
      .match(/\{ (?:type )?(\w+)|import (\w+)/)!
      .slice(1)
      .find(Boolean);
    const found = await crossings(file, `${source}\nexport const used = [${name}];\n`);
    expect(found).toEqual([expect.stringMatching(message)]);
  });

  it.each([
    ['bot/requests/allowed.ts', "import { renderSimilarTeamsCard } from '../shared/similarTeamsCard';"],
    ['bot/joining/allowed.ts', "import { postToEach } from '../shared/cardsForPeople';"],
    ['bot/drift/allowed.ts', "import { renderCard } from '../cards/adaptiveCard';"],
    ['bot/welcome/allowed.ts', "import { cardReply } from '../conversations/reply';"],
    ['bot/approvals/allowed.ts', "import { say } from '../i18n/catalog';"],
    ['bot/lifecycle/allowed.ts', "import type { ReachState } from '../reachState';"],
    ['bot/welcome/allowed.ts', "import { understand } from '../understanding/understand';"],
    ['bot/joining/allowed.ts', "import { renderJoinNewsCard } from './joinNewsCard';"],
    ['bot/i18n/allowed.ts', "import { approvalsEn } from '../approvals/approvalsEn';"],
    ['bot/allowed.ts', "import { approvalIntents } from './approvals/approvalIntents';"],
    ['bot/requests/allowed.ts', "import type { Job } from '../../client';"],
  ])('lets %s import %s', async (file, source) => {
    expect(await crossings(file, `${source}\n`)).toEqual([]);
  });
});
