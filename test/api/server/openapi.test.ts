import Ajv2020 from 'ajv/dist/2020';
import { OPERATIONS, type OperationPolicy } from '../../../src/domain/rbac';
import { suiteSteward } from '../../support/steward';

interface Operation {
  operationId: string;
  'x-steward-tier': number;
  security: unknown[];
  responses: Record<string, unknown>;
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, object> };
}

/** The document the server serves is generated from the routes it registers, and agrees with them. */
describe('OpenAPI document', () => {
  let doc: Document;

  const suite = suiteSteward('sqlite');
  beforeAll(async () => {
    doc = (await suite.app.call<Document>('GET', '/api/v1.0/openapi.json')).body;
  });

  const documented = () =>
    Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map(
        (method) => `${method.toUpperCase()} /api/v1.0${path.replace(/\{([^}]+)\}/g, ':$1')}`,
      ),
    );

  test('is OpenAPI 3.1', () => {
    expect(doc.openapi).toBe('3.1.0');
  });

  test('documents every registered API route, and no route that is not registered', () => {
    // API operations live under /api/v1.0; health, metrics and the embedded viewer are not operations.
    const registered = Object.values(
      suite.app.steward.server.router.getRoutes() as unknown as Record<
        string,
        { method: string; path: string }
      >,
    )
      .filter((r) => r.path.startsWith('/api/v1.0/') && r.path !== '/api/v1.0/openapi.json')
      .map((r) => `${r.method === 'DEL' ? 'DELETE' : r.method} ${r.path}`);
    expect(registered.sort()).toEqual(documented().sort());
    expect(registered.length).toBeGreaterThanOrEqual(10);
  });

  test('each operation carries its contract operationId, tier, roles and bearer security', () => {
    const policies = OPERATIONS as Record<string, OperationPolicy>;
    for (const methods of Object.values(doc.paths)) {
      for (const op of Object.values(methods)) {
        const policy = policies[op.operationId];
        expect(policy).toBeDefined();
        expect(op['x-steward-tier']).toBe(policy!.tier);
        expect(op.security).toEqual([{ bearer: [] }]);
        for (const status of ['401', '403', '429']) expect(op.responses[status]).toBeDefined();
      }
    }
  });

  test('names the contract models of the operations built so far', () => {
    for (const name of [
      'ApiError',
      'ApiError_error',
      'ApiError_error_innerError',
      'CatalogTemplate',
      'CatalogTemplates',
      'PermanentMembership',
      'PermanentMember',
      'ApprovalTeamMember',
      'User_1',
      'Users',
      'Label',
      'Labels',
      'Job',
      'TeamProvisioningRequest',
      'OwnerUserIdentifier',
      'MemberUserIdentifier',
      'ApprovedApprovalResponsePayload',
      'RejectedApprovalResponsePayload',
      'Team',
      'TeamMembershipPayload',
      'TeamChannel',
      'TeamChannelPayload',
      'TeamChannelTab',
      'TeamChannelTabPayload',
      'HookSignatureRequest',
      'HookSignature',
      'HookEvent',
      'HooksEvents',
      'Hook',
      'Hook_config',
      'HookPayload',
      'MetadataQueryResult',
      'Report',
      'ReportsCategory',
      'ReportUrl',
    ]) {
      expect(doc.components.schemas[name]).toBeDefined();
    }
  });

  test('every component schema compiles as JSON Schema 2020-12, and refs resolve', () => {
    const ajv = new Ajv2020({ strict: false });
    for (const name of Object.keys(doc.components.schemas)) {
      expect(() =>
        ajv.compile({ $ref: `#/components/schemas/${name}`, components: doc.components }),
      ).not.toThrow();
    }
  });

  test('the response validator rejects a body that breaks the schema (the check can fail)', () => {
    expect(() => suite.app.contract.check('GET', '/api/v1.0/me/labels', 200, { value: 'nope' })).toThrow(
      /does not match/,
    );
    expect(() => suite.app.contract.check('GET', '/api/v1.0/me/labels', 418, {})).toThrow(
      /does not document/,
    );
  });
});
