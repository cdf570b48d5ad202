import {
  apiDefinition,
  apiProperties,
  type ConnectorOptions,
  type OpenApiSource,
} from '../api/connector/connector';
import { buildOpenApiDocument } from '../api/openapi';
import { documentedRoutes } from '../compose/apiRoutes';

/** The committed connector's deployment: placeholders a deployment replaces with its own. */
export const PLACEHOLDERS: ConnectorOptions = {
  host: 'steward.example.com',
  clientId: '00000000-0000-0000-0000-000000000000',
  resourceUri: 'api://steward.example.com',
};

/** Where `npm run connector` writes, under the repository, unless given a folder. */
export const CONNECTOR_DIR = 'connector';

/**
 * The connector's files, by name, made from the route table: the same options give the same
 * bytes, so the committed folder is checked against a fresh generation.
 */
export function connectorFiles(options: ConnectorOptions = PLACEHOLDERS): Record<string, string> {
  const document = buildOpenApiDocument(documentedRoutes(), {
    version: '1.0',
    serverUrl: `https://${options.host}`,
  });
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  return {
    'apiDefinition.swagger.json': json(apiDefinition(document as unknown as OpenApiSource, options)),
    'apiProperties.json': json(apiProperties(options)),
    'README.md': readme(options),
  };
}

function readme(options: ConnectorOptions): string {
  return `# Steward connector for Power Automate, Power Apps and Logic Apps

Written by \`npm run connector\` from Steward's own route table: do not edit; run it again.
Built for host \`${options.host}\`, app registration \`${options.clientId}\`, resource
\`${options.resourceUri}\`${JSON.stringify(options) === JSON.stringify(PLACEHOLDERS) ? ' (placeholders: generate your own with `npm run connector -- --host … --client-id … --resource …`)' : ''}.

Steward requests Microsoft Teams teams from governed templates, asks their approvers, and keeps
teams in line with their lifecycle policies.

## Publisher

Steward

## Prerequisites

A Steward deployment reachable over https, and an Entra ID app registration for the connector
that may ask for tokens for Steward's API (its Application ID URI is the resource above).

## Supported operations

Actions: request a team (the template picked from your own templates), follow your requests,
list and decide your approvals, read a team, its members, channels and tabs, add members, channels
and tabs, archive and unarchive a team.

Triggers: one per Steward event (a team request needs an approval, a team is created, archived,
about to expire, …). By default a trigger fires for the events that name you; integration
managers may choose a template's or the whole tenant's.

## Obtaining credentials

Sign in with your work account: the flow calls Steward as you, with your roles.

## Known issues and limitations

A trigger's subscription is a Steward webhook: it turns inactive after failed deliveries, and
comes back with \`POST /hooks/{id}/activate\`.

## Deployment instructions

\`paconn create --api-def apiDefinition.swagger.json --api-prop apiProperties.json\`, or import
\`apiDefinition.swagger.json\` in the maker portal's custom connectors and set the security page as
\`apiProperties.json\` says. The full guide: docs/guides/power-automate.md in Steward's repository.
`;
}
