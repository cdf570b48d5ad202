#!/usr/bin/env node
/**
 * Builds the Teams app package: manifest/manifest.json with its placeholders filled from the
 * environment, checked against the Teams manifest JSON schema, zipped with the two icons into
 * manifest/build/steward.zip (or the path given with --out).
 *
 *   STEWARD_BOT_ID or MicrosoftAppId   the bot's Microsoft App ID (required, a GUID)
 *   STEWARD_TEAMS_APP_ID               the manifest's id (default: the bot id); Steward reads the
 *                                      same setting to find the app in the organisation's catalog
 *   STEWARD_PUBLIC_URL                 https address of this deployment (required): developer
 *                                      website, and the domain listed in validDomains
 *   STEWARD_PRIVACY_URL, STEWARD_TERMS_URL   privacy statement and terms of use (default: the website)
 *   STEWARD_SSO_APP_ID                 Entra app registration of Teams single sign-on (webApplicationInfo.id),
 *                                      by default Steward's own STEWARD_API_CLIENT_ID (the API's app
 *                                      registration, the same one); neither set, the package has no
 *                                      webApplicationInfo (no SSO), and says so
 *   STEWARD_SSO_RESOURCE               its Application ID URI (default api://botid-<SSO app id>)
 *   STEWARD_VALID_DOMAINS              more domains for validDomains, comma-separated
 *   STEWARD_COPILOT_AUTH_ID            the Microsoft Entra SSO registration ID (Teams Developer Portal)
 *                                      Microsoft 365 Copilot signs people in to Steward's API with;
 *                                      set, the package holds the Copilot agent (manifest/copilot/:
 *                                      its declarative agent, its action, its English and French
 *                                      strings), checked against their schemas; unset, no agent, and
 *                                      the build says so (docs/guides/copilot.md)
 *   STEWARD_COPILOT_ACTION             the agent's action: `api` (default: the API plugin over the
 *                                      OpenAPI description of manifest/copilot/) or `mcp` (Steward's
 *                                      MCP server, at /api/v1.0/mcp)
 *   STEWARD_COPILOT_MCP_TOOLS          with `mcp`: the file holding the MCP server's `tools/list`
 *                                      answer (default manifest/copilot/mcp-tools.json)
 *
 * A standalone build step, so it reads its own environment rather than src/config.ts; like Steward,
 * it reads `.env` in the current directory too (the environment wins), so the package describes the
 * deployment Steward's settings describe.
 */
const { mkdirSync, readFileSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const { URL } = require('node:url');
const yazl = require('yazl');

const ROOT = path.resolve(__dirname, '..');
const MANIFEST_DIR = path.join(ROOT, 'manifest');
const COPILOT_DIR = path.join(MANIFEST_DIR, 'copilot');
const SCHEMAS = '@microsoft/app-manifest/build/json-schemas';
const SCHEMA = `${SCHEMAS}/teams/v1.25/MicrosoftTeams.schema.json`;
/** The schemas of the agent's files, by the file's name in the package. */
const COPILOT_SCHEMAS = {
  'declarativeAgent.json': `${SCHEMAS}/copilot/declarative-agent/v1.8/schema.json`,
  'ai-plugin.json': `${SCHEMAS}/copilot/plugin/v2.4/schema.json`,
  'mcp-plugin.json': `${SCHEMAS}/copilot/plugin/v2.4/schema.json`,
  'openapi.json': undefined,
  'en.json': `${SCHEMAS}/teams/v1.25/MicrosoftTeams.Localization.schema.json`,
  'fr.json': `${SCHEMAS}/teams/v1.25/MicrosoftTeams.Localization.schema.json`,
};
const LANGUAGE_FILES = ['en.json', 'fr.json'];
const GUID = /^[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}$/i;
/** A fixed time for every zip entry, so the same inputs give the same package. */
const ENTRY_TIME = new Date('2026-01-01T00:00:00Z');

class ManifestError extends Error {}
/** Where manifestFor keeps the agent's files on the manifest (not a property of the JSON). */
const COPILOT = Symbol('copilot files');

/** The placeholder values, from the environment; throws ManifestError naming what is missing or wrong. */
function placeholders(env) {
  const read = (name) => (env[name] ?? '').trim() || undefined;
  const botId = read('STEWARD_BOT_ID') ?? read('MicrosoftAppId');
  if (!botId)
    throw new ManifestError("Set STEWARD_BOT_ID (or MicrosoftAppId) to the bot's Microsoft App ID.");
  if (!GUID.test(botId)) throw new ManifestError(`The bot id "${botId}" is not a GUID.`);
  const appId = read('STEWARD_TEAMS_APP_ID') ?? botId;
  if (!GUID.test(appId)) throw new ManifestError(`STEWARD_TEAMS_APP_ID "${appId}" is not a GUID.`);
  const website = httpsUrl('STEWARD_PUBLIC_URL', read('STEWARD_PUBLIC_URL'));
  const ssoSetting =
    read('STEWARD_SSO_APP_ID') !== undefined ? 'STEWARD_SSO_APP_ID' : 'STEWARD_API_CLIENT_ID';
  const ssoAppId = read(ssoSetting);
  if (ssoAppId !== undefined && !GUID.test(ssoAppId))
    throw new ManifestError(`${ssoSetting} "${ssoAppId}" is not a GUID.`);
  const sso =
    ssoAppId === undefined
      ? {}
      : { SSO_APP_ID: ssoAppId, SSO_RESOURCE: read('STEWARD_SSO_RESOURCE') ?? `api://botid-${ssoAppId}` };
  const copilotAuthId = read('STEWARD_COPILOT_AUTH_ID');
  if (copilotAuthId !== undefined && !/^[\w.+/=-]{1,256}$/.test(copilotAuthId))
    throw new ManifestError(`STEWARD_COPILOT_AUTH_ID "${copilotAuthId}" is not a registration ID.`);
  return {
    ...sso,
    ...(copilotAuthId === undefined ? {} : { COPILOT_AUTH_ID: copilotAuthId }),
    API_URL: `${website.origin}${website.pathname.replace(/\/+$/, '')}/api/v1.0`,
    BOT_ID: botId,
    TEAMS_APP_ID: appId,
    APP_VERSION: JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version,
    WEBSITE_URL: website.href,
    PRIVACY_URL: httpsUrl('STEWARD_PRIVACY_URL', read('STEWARD_PRIVACY_URL') ?? website.href).href,
    TERMS_URL: httpsUrl('STEWARD_TERMS_URL', read('STEWARD_TERMS_URL') ?? website.href).href,
    PUBLIC_HOST: website.host,
  };
}

function httpsUrl(name, value) {
  if (!value) throw new ManifestError(`Set ${name} to the https address people reach Steward at.`);
  let url;
  try {
    url = new URL(value);
  } catch {
    throw new ManifestError(`${name} "${value}" is not a URL.`);
  }
  if (url.protocol !== 'https:') throw new ManifestError(`${name} must be an https URL (Teams requires it).`);
  return url;
}

/** The manifest template with every `${{NAME}}` replaced; an unknown name is an error. */
function fillManifest(template, values) {
  const fill = (value) => {
    if (typeof value === 'string') {
      return value.replace(/\$\{\{(\w+)\}\}/g, (_, name) => {
        if (!(name in values)) throw new ManifestError(`manifest.json uses an unknown placeholder ${name}.`);
        return values[name];
      });
    }
    if (Array.isArray(value)) return value.map(fill);
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, fill(inner)]));
    }
    return value;
  };
  return fill(template);
}

/** Problems of `document` against the bundled JSON schema `schema` (empty when valid). */
function schemaProblems(document, schema = SCHEMA) {
  const Ajv = require('ajv-draft-04');
  const addFormats = require('ajv-formats');
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  const validate = ajv.compile(withValidPatterns(require(schema)));
  return validate(document) ? [] : validate.errors.map((e) => `${e.instancePath || '/'} ${e.message}`);
}

/**
 * `schema` with the property patterns that are not valid regular expressions in Unicode mode fixed:
 * the localization schema's `activityTypes` patterns leave a `]` unescaped (the Toolkit's own
 * validation fixes the same two).
 */
function withValidPatterns(schema) {
  if (!schema.patternProperties) return schema;
  const patterns = Object.entries(schema.patternProperties).map(([key, value]) => [
    key.replaceAll('\\b]', '\\b\\]'),
    value,
  ]);
  return { ...schema, patternProperties: Object.fromEntries(patterns) };
}

/** Every `[[key]]` of the localization files that `value` uses. */
function localizationKeys(value, found = new Set()) {
  if (typeof value === 'string') for (const [, key] of value.matchAll(/^\[\[(\w+)\]\]$/g)) found.add(key);
  else if (value && typeof value === 'object')
    for (const inner of Object.values(value)) localizationKeys(inner, found);
  return found;
}

/** The MCP server's tools, from the `tools/list` answer STEWARD_COPILOT_MCP_TOOLS names. */
function mcpTools(env) {
  const file = (env.STEWARD_COPILOT_MCP_TOOLS ?? '').trim() || path.join(COPILOT_DIR, 'mcp-tools.json');
  let answer;
  try {
    answer = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ManifestError(
      `STEWARD_COPILOT_ACTION=mcp needs the MCP server's tools/list answer in ${file} ` +
        `(${error.code ?? 'not JSON'}); docs/guides/copilot.md says how to save it.`,
    );
  }
  const tools = answer?.result?.tools ?? answer?.tools;
  if (!Array.isArray(tools) || tools.length === 0)
    throw new ManifestError(`${file} holds no tools (a tools/list answer: { "tools": [...] }).`);
  for (const tool of tools) {
    if (typeof tool?.name !== 'string' || !/^[A-Za-z0-9_]+$/.test(tool.name))
      throw new ManifestError(`${file}: the tool name "${tool?.name}" is not a plugin function name.`);
    if (typeof tool.description !== 'string' || typeof tool.inputSchema !== 'object')
      throw new ManifestError(`${file}: the tool ${tool.name} lacks a description or an inputSchema.`);
  }
  return tools;
}

/**
 * Names the MCP tools as the plugin's functions, for its runtime, each tool that is not read-only
 * (`annotations.readOnlyHint`) with a confirmation card before it runs.
 */
function withToolFunctions(plugin, tools) {
  plugin.functions = tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    ...(tool.annotations?.readOnlyHint === true
      ? {}
      : {
          capabilities: {
            confirmation: {
              type: 'AdaptiveCard',
              title: '[[confirm_mcp_tool_title]]',
              body: '[[confirm_mcp_tool_body]]',
            },
          },
        }),
  }));
  plugin.runtimes[0].run_for_functions = tools.map((tool) => tool.name);
  plugin.runtimes[0].spec.mcp_tool_description = { tools };
}

/**
 * The Copilot agent's files for the package (by name, filled with `values`), or undefined when
 * STEWARD_COPILOT_AUTH_ID is not set. Throws ManifestError when a file breaks its schema or uses a
 * string that a language file lacks.
 */
function copilotFiles(env, values) {
  if (!('COPILOT_AUTH_ID' in values)) return undefined;
  const action = (env.STEWARD_COPILOT_ACTION ?? '').trim() || 'api';
  if (action !== 'api' && action !== 'mcp')
    throw new ManifestError(`STEWARD_COPILOT_ACTION "${action}" is neither api nor mcp.`);
  const names = [
    'declarativeAgent.json',
    ...(action === 'api' ? ['ai-plugin.json', 'openapi.json'] : ['mcp-plugin.json']),
  ];
  const files = {};
  for (const name of [...names, ...LANGUAGE_FILES]) {
    files[name] = fillManifest(JSON.parse(readFileSync(path.join(COPILOT_DIR, name), 'utf8')), values);
  }
  if (action === 'mcp') {
    files['declarativeAgent.json'].actions = [{ id: 'steward', file: 'mcp-plugin.json' }];
    withToolFunctions(files['mcp-plugin.json'], mcpTools(env));
  }
  const problems = Object.entries(files).flatMap(([name, document]) =>
    COPILOT_SCHEMAS[name] ? schemaProblems(document, COPILOT_SCHEMAS[name]).map((p) => `${name}: ${p}`) : [],
  );
  const used = localizationKeys(names.map((name) => files[name]));
  for (const language of LANGUAGE_FILES) {
    for (const key of used)
      if (!(key in files[language].localizationKeys)) problems.push(`${language}: no string for [[${key}]]`);
  }
  if (problems.length > 0)
    throw new ManifestError(`The Copilot agent is not valid:\n  ${problems.join('\n  ')}`);
  return files;
}

/**
 * The manifest for `env`: the template filled, without single sign-on when it is not configured,
 * with the extra valid domains.
 */
function manifestFor(env) {
  const template = JSON.parse(readFileSync(path.join(MANIFEST_DIR, 'manifest.json'), 'utf8'));
  const values = placeholders(env);
  if (!('SSO_APP_ID' in values)) delete template.webApplicationInfo;
  const manifest = fillManifest(template, values);
  const copilot = copilotFiles(env, values);
  if (copilot) {
    manifest.copilotAgents = { declarativeAgents: [{ id: 'steward', file: 'declarativeAgent.json' }] };
    manifest.localizationInfo = {
      defaultLanguageTag: 'en',
      defaultLanguageFile: 'en.json',
      additionalLanguages: [{ languageTag: 'fr', file: 'fr.json' }],
    };
    Object.defineProperty(manifest, COPILOT, { value: copilot, enumerable: false });
  }
  const extra = (env.STEWARD_VALID_DOMAINS ?? '')
    .split(',')
    .map((domain) => domain.trim())
    .filter(Boolean);
  for (const domain of extra) {
    if (!/^(\*\.)?[a-z0-9.-]+(:\d+)?$/i.test(domain))
      throw new ManifestError(`STEWARD_VALID_DOMAINS: "${domain}" is not a domain (no scheme, no path).`);
    if (!manifest.validDomains.includes(domain)) manifest.validDomains.push(domain);
  }
  return manifest;
}

/** The environment with `.env` of `dir` under it (a variable set in the environment wins). */
function withDotEnv(env, dir = process.cwd()) {
  let text;
  try {
    text = readFileSync(path.join(dir, '.env'), 'utf8');
  } catch (error) {
    if (error.code === 'ENOENT') return env;
    throw new ManifestError(`.env cannot be read (${error.code ?? 'error'}).`);
  }
  return { ...require('node:util').parseEnv(text), ...env };
}

/** Writes the app package to `out`; resolves with the filled manifest. */
async function buildAppPackage(env, out) {
  const manifest = manifestFor(env);
  const problems = schemaProblems(manifest);
  if (problems.length > 0) throw new ManifestError(`The manifest is not valid:\n  ${problems.join('\n  ')}`);
  const zip = new yazl.ZipFile();
  const entry = { mtime: ENTRY_TIME, mode: 0o100644 };
  zip.addBuffer(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), 'manifest.json', entry);
  for (const icon of ['color.png', 'outline.png']) {
    zip.addBuffer(readFileSync(path.join(MANIFEST_DIR, icon)), icon, entry);
  }
  for (const [name, document] of Object.entries(manifest[COPILOT] ?? {})) {
    zip.addBuffer(Buffer.from(`${JSON.stringify(document, null, 2)}\n`), name, entry);
  }
  zip.end();
  mkdirSync(path.dirname(out), { recursive: true });
  return new Promise((resolve, reject) => {
    const chunks = [];
    zip.outputStream.on('data', (chunk) => chunks.push(chunk));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => {
      writeFileSync(out, Buffer.concat(chunks));
      resolve(manifest);
    });
  });
}

if (require.main === module) {
  const at = process.argv.indexOf('--out');
  const out = path.resolve(
    at > 0 && process.argv[at + 1] ? process.argv[at + 1] : path.join(MANIFEST_DIR, 'build', 'steward.zip'),
  );
  Promise.resolve()
    .then(() => buildAppPackage(withDotEnv(process.env), out))
    .then(
      (manifest) => {
        console.log(
          `Wrote ${path.relative(process.cwd(), out)} (app ${manifest.id}, bot ${manifest.bots[0].botId}).`,
        );
        const agent = manifest[COPILOT];
        console.log(
          agent
            ? `With the Copilot agent (its action: ${agent['mcp-plugin.json'] ? "Steward's MCP server" : 'the API plugin'}).`
            : 'No Copilot agent in the package: set STEWARD_COPILOT_AUTH_ID to the Microsoft Entra SSO ' +
                'registration ID of the Teams Developer Portal (docs/guides/copilot.md).',
        );
        if (!manifest.webApplicationInfo)
          console.log(
            'No single sign-on in the package: set STEWARD_API_CLIENT_ID (or STEWARD_SSO_APP_ID) to the ' +
              "API's app registration for Teams to sign people in to Steward.",
          );
      },
      (error) => {
        console.error(error instanceof ManifestError ? error.message : error);
        process.exitCode = 1;
      },
    );
}

module.exports = {
  buildAppPackage,
  fillManifest,
  placeholders,
  schemaProblems,
  COPILOT_SCHEMAS,
  ManifestError,
};
