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
const SCHEMA = '@microsoft/app-manifest/build/json-schemas/teams/v1.25/MicrosoftTeams.schema.json';
const GUID = /^[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}$/i;
/** A fixed time for every zip entry, so the same inputs give the same package. */
const ENTRY_TIME = new Date('2026-01-01T00:00:00Z');

class ManifestError extends Error {}

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
  return {
    ...sso,
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

/** Problems of `manifest` against the bundled Teams manifest schema (empty when valid). */
function manifestProblems(manifest) {
  const Ajv = require('ajv-draft-04');
  const addFormats = require('ajv-formats');
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  const validate = ajv.compile(require(SCHEMA));
  return validate(manifest) ? [] : validate.errors.map((e) => `${e.instancePath || '/'} ${e.message}`);
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
  const problems = manifestProblems(manifest);
  if (problems.length > 0) throw new ManifestError(`The manifest is not valid:\n  ${problems.join('\n  ')}`);
  const zip = new yazl.ZipFile();
  const entry = { mtime: ENTRY_TIME, mode: 0o100644 };
  zip.addBuffer(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), 'manifest.json', entry);
  for (const icon of ['color.png', 'outline.png']) {
    zip.addBuffer(readFileSync(path.join(MANIFEST_DIR, icon)), icon, entry);
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

module.exports = { buildAppPackage, fillManifest, placeholders, ManifestError };
