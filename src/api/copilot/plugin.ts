import { COPILOT_OPERATIONS, type CopilotOperation, type ResultCard } from './operations';
import { curatedOpenApi30, type OpenApi31 } from './openApi30';

/**
 * The files of the Copilot agent's action that are generated from Steward's contract, so that they
 * cannot drift from it: the curated OpenAPI 3.0.3 description, the API plugin over it, and the
 * plugin over Steward's MCP server. `${{NAME}}` placeholders are the package build's
 * (scripts/manifest.js) and `[[key]]` the localization files' (manifest/copilot/en.json, fr.json).
 */
const PLUGIN_SCHEMA = 'https://developer.microsoft.com/json-schemas/copilot/plugin/v2.4/schema.json';
/** The Entra ID single sign-on registration of the Teams Developer Portal that signs people in. */
const AUTH = { type: 'OAuthPluginVault', reference_id: '${{COPILOT_AUTH_ID}}' };
export const OPENAPI_FILE = 'openapi.json';
export const API_PLUGIN_FILE = 'ai-plugin.json';
export const MCP_PLUGIN_FILE = 'mcp-plugin.json';

const MODEL_DESCRIPTION =
  'Steward governs Microsoft Teams teams: it lists the templates a person may request a team from, finds ' +
  'existing teams, requests teams, follows requests and approvals, renews teams and asks to join them. Every ' +
  'call runs as the signed-in person with their own permissions; a request that needs approval waits for its ' +
  'approvers, and no function can make a team around that approval.';

/** Adaptive Card template text for a JSONPath relative to an item (`$.a.b` → `${a.b}`). */
const expression = (path: string) => `\${${path.replace(/^\$\.?/, '')}}`;

/** How Copilot renders a function's results: an Adaptive Card per item, with its citation fields. */
function responseSemantics(card: ResultCard) {
  return {
    data_path: card.dataPath,
    properties: { title: card.title, subtitle: card.subtitle, ...(card.url ? { url: card.url } : {}) },
    static_template: {
      type: 'AdaptiveCard',
      $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
      version: '1.5',
      body: [
        { type: 'TextBlock', text: expression(card.title), weight: 'Bolder', wrap: true },
        { type: 'TextBlock', text: expression(card.subtitle), wrap: true, isSubtle: true },
        { type: 'FactSet', facts: card.facts.map(({ label, value }) => ({ title: label, value })) },
      ],
      ...(card.url
        ? { actions: [{ type: 'Action.OpenUrl', title: 'Open in Teams', url: expression(card.url) }] }
        : {}),
    },
  };
}

/** The localization keys of a write's confirmation card. */
export const confirmationKeys = (operationId: string) => ({
  title: `confirm_${operationId}_title`,
  body: `confirm_${operationId}_body`,
});

function pluginFunction(operation: CopilotOperation) {
  const keys = confirmationKeys(operation.operationId);
  return {
    name: operation.operationId,
    description: operation.description,
    capabilities: {
      ...(operation.writes
        ? { confirmation: { type: 'AdaptiveCard', title: `[[${keys.title}]]`, body: `[[${keys.body}]]` } }
        : {}),
      ...(operation.card ? { response_semantics: responseSemantics(operation.card) } : {}),
      security_info: { data_handling: [operation.writes ? 'ResourceStateUpdate' : 'GetPrivateData'] },
    },
  };
}

const common = {
  $schema: PLUGIN_SCHEMA,
  schema_version: 'v2.4',
  name_for_human: '[[plugin_name]]',
  description_for_human: '[[plugin_description]]',
  description_for_model: MODEL_DESCRIPTION,
  legal_info_url: '${{TERMS_URL}}',
  privacy_policy_url: '${{PRIVACY_URL}}',
};

/** The API plugin: one function per curated operation, over the curated OpenAPI description. */
export function apiPlugin(operations: readonly CopilotOperation[] = COPILOT_OPERATIONS) {
  return {
    ...common,
    namespace: 'steward',
    functions: operations.map(pluginFunction),
    runtimes: [
      {
        type: 'OpenApi',
        auth: AUTH,
        spec: { url: OPENAPI_FILE, progress_style: 'ShowUsageWithInputAndOutput' },
        run_for_functions: operations.map((operation) => operation.operationId),
      },
    ],
  };
}

/**
 * The plugin over Steward's MCP server (Streamable HTTP at `/api/v1.0/mcp`), with its tools
 * described inline (the server's `tools/list` answer, which the package build fills in, with a
 * function and a confirmation card for every tool that is not read-only). The plugin schema 2.4
 * admits no other shape: a spec of the URL alone (dynamic discovery) also matches its OpenAPI spec
 * object, and a `file` reference also matches its inline form, so both fail its `oneOf`.
 */
export function mcpPlugin() {
  return {
    ...common,
    namespace: 'stewardmcp',
    functions: [],
    runtimes: [
      {
        type: 'RemoteMCPServer',
        auth: AUTH,
        spec: { url: '${{API_URL}}/mcp', mcp_tool_description: { tools: [] } },
        run_for_functions: [],
      },
    ],
  };
}

/** Every generated file of the agent's action, by its name in the package. */
export function copilotActionFiles(served: OpenApi31): Record<string, unknown> {
  const openApi = curatedOpenApi30(
    served,
    COPILOT_OPERATIONS.map((operation) => ({
      operationId: operation.operationId,
      readOnlyPost: !operation.writes,
    })),
    {
      version: '${{APP_VERSION}}',
      serverUrl: '${{API_URL}}',
      description:
        'The operations of Steward that its Microsoft 365 Copilot agent calls, generated from the API’s own ' +
        'contract (`npm run copilot`); the whole API is described at /api/v1.0/openapi.json.',
    },
  );
  return { [OPENAPI_FILE]: openApi, [API_PLUGIN_FILE]: apiPlugin(), [MCP_PLUGIN_FILE]: mcpPlugin() };
}
