import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import AjvDraft04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { EVENT_TYPES, eventPayloadModel } from '../../../src/contract';
import { triggerOperationId } from '../../../src/api/connector/triggers';
import { CONNECTOR_DIR, connectorFiles } from '../../../src/cli/connectorFiles';
import { readConnectorSchema } from '../../support/powerPlatform';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- generated JSON, read field by field
type Json = Record<string, any>;

/**
 * Validators of Microsoft's published connector schemas, both draft-04 (the apiProperties schema
 * names draft-07 in `$schema` but is written in draft-04, `id` and all).
 */
function validators() {
  const draft04 = new AjvDraft04({ strict: false, allErrors: true });
  addFormats(draft04);
  const definition = draft04.compile(readConnectorSchema('apiDefinition.swagger.schema.json'));
  const { $schema: _declared, ...properties } = readConnectorSchema('paconn-apiProperties.schema.json');
  return { definition, properties: draft04.compile(properties) };
}

/**
 * What @apidevtools/swagger-parser says of `document`: "valid <version>" or its error. It is an ES
 * module, which Jest's CommonJS runtime cannot load, so a short Node.js process runs it.
 */
function swaggerParser(document: Json): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'connector-'));
  try {
    const file = path.join(dir, 'apiDefinition.swagger.json');
    writeFileSync(file, JSON.stringify(document));
    const script =
      "const { default: parser } = await import('@apidevtools/swagger-parser');" +
      'try { const api = await parser.validate(process.argv[1]); console.log(`valid ${api.swagger}`); }' +
      'catch (error) { console.log(String(error.message)); }';
    return execFileSync(process.execPath, ['--input-type=module', '-e', script, file], {
      cwd: path.resolve(__dirname, '../../..'),
      encoding: 'utf8',
    }).trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the Power Platform connector', () => {
  const files = connectorFiles();
  const api = JSON.parse(files['apiDefinition.swagger.json']!) as Json;
  const props = JSON.parse(files['apiProperties.json']!) as Json;
  const { definition, properties } = validators();

  test('is what is committed: generating again changes nothing', () => {
    const root = path.resolve(__dirname, '../../..', CONNECTOR_DIR);
    for (const [name, text] of Object.entries(files)) {
      expect([name, readFileSync(path.join(root, name), 'utf8')]).toEqual([name, text]);
    }
    expect(connectorFiles()).toEqual(files);
  });

  test('apiDefinition.swagger.json satisfies Microsoft’s connector schema', () => {
    const valid = definition(api);
    expect(definition.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  test('apiProperties.json satisfies Microsoft’s schema: Entra ID sign-in to the API', () => {
    const valid = properties(props);
    expect(properties.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    const token = props.properties.connectionParameters.token;
    expect(token.type).toBe('oauthSetting');
    expect(token.oAuthSettings.identityProvider).toBe('aad');
    expect(token.oAuthSettings.customParameters.resourceUri.value).toBe('api://steward.example.com');
    expect(api.securityDefinitions.oauth2_auth).toMatchObject({ type: 'oauth2', flow: 'accessCode' });
  });

  test('the schemas refuse what a connector may not say (the checks can fail)', () => {
    const broken = structuredClone(api);
    broken.paths['/hooks/team_created'].post['x-ms-made-up'] = true;
    expect(definition(broken)).toBe(false);
    const wrongRedirect = structuredClone(props);
    wrongRedirect.properties.connectionParameters.token.oAuthSettings.redirectMode = 'GlobalPerConnector';
    expect(properties(wrongRedirect)).toBe(false);
  });

  test('a Swagger 2.0 parser validates it, references and all', () => {
    expect(swaggerParser(api)).toBe('valid 2.0');
    const broken = structuredClone(api);
    broken.paths['/me/jobs'].get.responses['200'].schema = { $ref: '#/definitions/Missing' };
    expect(swaggerParser(broken)).toMatch(/Missing/);
  });

  test('every action has the summary, description and operationId certification asks for', () => {
    const operations = Object.values(api.paths as Json).flatMap((item: Json) =>
      ['get', 'post', 'put', 'patch', 'delete'].filter((m) => item[m]).map((m) => item[m] as Json),
    );
    expect(new Set(operations.map((op) => op.operationId)).size).toBe(operations.length);
    for (const op of operations) {
      expect(op.summary.length).toBeLessThanOrEqual(80);
      expect(op.summary).not.toMatch(/[.]$/);
      expect(op.description).not.toBe(op.summary);
      for (const parameter of op.parameters ?? [])
        expect(parameter['x-ms-summary']).toEqual(expect.any(String));
    }
    for (const id of [
      'createTeamProvisioningJob',
      'getMyCatalogTemplates',
      'getTeam',
      'getTeamMembers',
      'getTeamChannels',
      'getTeamChannelTabs',
      'archiveTeam',
      'getMyApprovals',
      'approveTeamCreation',
    ]) {
      expect(operations.map((op) => op.operationId)).toContain(id);
    }
  });

  test('a request’s template is picked from the caller’s templates (dynamic values)', () => {
    const request = api.definitions.TeamProvisioningRequest.properties.template.properties.id;
    expect(request['x-ms-dynamic-values']).toEqual({
      operationId: 'getMyCatalogTemplates',
      'value-collection': 'value',
      'value-path': 'templateConfiguration/id',
      'value-title': 'templateConfiguration/name',
    });
    const templates = api.paths['/me/catalog/templates'].get.responses['200'].schema.$ref as string;
    const collection = api.definitions[templates.split('/').pop()!];
    const item = api.definitions[collection.properties.value.items.$ref.split('/').pop()];
    expect(item.properties.templateConfiguration.$ref).toBe('#/definitions/TemplateConfiguration');
    expect(api.definitions.TemplateConfiguration.properties).toHaveProperty('id');
    expect(api.definitions.TemplateConfiguration.properties).toHaveProperty('name');
  });

  test('one trigger per event: a subscription answered 201 with Location, its payload declared', () => {
    for (const code of EVENT_TYPES) {
      const item = api.paths[`/hooks/${code}`];
      expect(item['x-ms-notification-content'].schema).toEqual({
        $ref: `#/definitions/${eventPayloadModel(code)}`,
      });
      expect(api.definitions[eventPayloadModel(code)].properties.event.enum).toEqual([code]);
      const op = item.post;
      expect(op.operationId).toBe(triggerOperationId(code));
      expect(op['x-ms-trigger']).toBe('single');
      expect(op.responses['201'].headers.Location.type).toBe('string');
      const body = op.parameters.find((p: Json) => p.in === 'body').schema;
      expect(body.properties.config.properties.url).toMatchObject({
        'x-ms-notification-url': true,
        'x-ms-visibility': 'internal',
      });
    }
    const unsubscribe = api.paths['/hooks/subscriptions/{hookId}'].delete;
    expect(unsubscribe['x-ms-visibility']).toBe('internal');
  });
});
