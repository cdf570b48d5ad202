import { SignJWT } from 'jose';
import { OPERATIONS, type OperationPolicy } from '../../../src/domain/rbac';
import type { AppRole } from '../../../src/contract/roles';
import { databaseKinds } from '../../support/databases';
import { PEOPLE, suiteSteward, TENANT, TEST_SECRET } from '../../support/steward';

interface Operation {
  operationId: string;
  requestBody?: { required: boolean };
  parameters: Array<{ name: string; in: string }>;
}

/** Values that make each path parameter name an existing resource. */
const GOOD_PARAMS: Record<string, string> = {
  template_id: 'project',
  role: 'owners',
  teamId: 'no-such-team',
  channelId: '19:nope@thread.tacv2',
  jobId: 'no-such-job',
  approvalRequestId: 'no-such-approval',
  namespace: 'steward',
  hookId: 'no-such-hook',
  eventCode: 'team_created',
  joinRequestId: 'no-such-join-request',
  code: 'webhooks',
  resource_type: 'question',
  resource_id: 'orphaned-teams',
};
/** Values that break each path parameter's format or enum. */
const BAD_PARAMS: Record<string, string> = {
  template_id: 'has%20space',
  role: 'guests',
  teamId: 'has%20space',
  channelId: 'has%20space',
  jobId: 'has%20space',
  approvalRequestId: 'has%20space',
  namespace: 'has%20space',
  hookId: 'has%20space',
  eventCode: 'no_such_event',
  joinRequestId: 'has%20space',
  code: 'has%20space',
  resource_type: 'chart',
  resource_id: 'has%20space',
};
/** Operations whose body is any JSON object (metadata): no field is unknown, but a non-object is refused. */
const FREE_FORM_BODIES = new Set([
  'setTeamNamespaceMetadata',
  'updateTeamNamespaceMetadata',
  'queryMetadata',
]);

/**
 * Every operation that exists, driven by the served OpenAPI document: each class of bad input gets
 * its ApiError status, never a 500, and nothing is written.
 */
describe.each(databaseKinds)('bad input on every operation (%s)', (kind) => {
  let operations: Array<{ method: string; path: string; op: Operation }>;
  let snapshot: () => Promise<string>;

  const suite = suiteSteward(kind);
  beforeAll(async () => {
    operations = Object.entries(suite.app.contract.document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        op: op as unknown as Operation,
      })),
    );
    // Everything a write could touch in this issue: the whole catalog with its membership.
    snapshot = async () =>
      JSON.stringify(
        (await suite.app.call('GET', '/api/v1.0/catalog/templates', { token: suite.megan })).body,
      );
  });

  const hasBody = (method: string) => method !== 'GET' && method !== 'DELETE';
  const fill = (path: string, values: Record<string, string>) =>
    `/api/v1.0${path.replace(/\{([^}]+)\}/g, (_m, name: string) => values[name] ?? 'x')}`;

  const expectError = (res: { status: number; body: unknown }, status: number, code?: string) => {
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({
      error: { code: code ?? expect.any(String), message: expect.any(String) },
    });
  };

  test('the matrix covers every operation built so far', () => {
    expect(operations.map((o) => o.op.operationId).sort()).toEqual(
      [
        'addTeamMember',
        'answerTeamDrift',
        'applyTeamDrift',
        'applyTemplateDrift',
        'applyTeamSensitivityLabel',
        'approveTeamCreation',
        'archiveTeam',
        'createTeamChannel',
        'createTeamChannelTab',
        'createHook',
        'createLifecycleEvaluation',
        'createTeamProvisioningJob',
        'deleteHook',
        'deleteTeam',
        'generateHookSignature',
        'getAuditTrailRecords',
        'getAuditTrails',
        'getCatalogTemplates',
        'getGovernanceManagers',
        'getHook',
        'getHookDeliveries',
        'getHooksEvents',
        'getJob',
        'getJobs',
        'getLifecyclePolicy',
        'getMyApprovals',
        'getMyCatalogTemplates',
        'getMyJobs',
        'getMyLabels',
        'getMyUnavailableTemplates',
        'getPlatformTeamTemplate',
        'getPlatformTeamTemplatePermanentMembership',
        'getPlatformTeamTemplatePermanentMembershipByRole',
        'getReportUrl',
        'getReports',
        'getReportsCategories',
        'getTeam',
        'getTeamChannelTabs',
        'getTeamChannels',
        'getTeamDrift',
        'getTeamLifecycle',
        'getTeamMembers',
        'getTeamNamespaceMetadata',
        'getTeamPrimaryChannel',
        'getTemplateDrift',
        'getTemplateVersions',
        'getUsers',
        'listHooks',
        'previewLifecycle',
        'previewTeamProvisioning',
        'queryMetadata',
        'recordTeamActivity',
        'rejectTeamCreation',
        'renewTeamLifecycle',
        'reportNotRightPerson',
        'reviewTeamGuests',
        'setLifecyclePolicy',
        'setPlatformTeamTemplate',
        'setPlatformTeamTemplatePermanentMembership',
        'setPlatformTeamTemplatePermanentMembershipByRole',
        'setTeamNamespaceMetadata',
        'stepUpAsTeamOwner',
        'unarchiveTeam',
        'updateTeam',
        'updateTeamNamespaceMetadata',
        'withdrawTeamProvisioningJob',
        'searchTeamDirectory',
        'createTeamJoinRequest',
        'getTeamJoinRequests',
        'getMyJoinRequests',
        'getJoinRequest',
        'decideTeamJoinRequest',
        'createHookSubscription',
        'deleteHookSubscription',
        'activateHook',
      ].sort(),
    );
  });

  test('missing or invalid tokens are 401 with WWW-Authenticate, on every operation', async () => {
    const before = await snapshot();
    const expired = await new SignJWT({ oid: PEOPLE.megan, tid: TENANT, roles: ['GLOBAL_ADMIN'] })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('steward-embedded')
      .setAudience('api://steward')
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(new TextEncoder().encode(TEST_SECRET));
    const [header, payload] = suite.megan.split('.');
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`;
    const tampered = `${header}.${payload!.slice(0, -2)}AA.${suite.megan.split('.')[2]}`;
    for (const { method, path } of operations) {
      for (const token of [undefined, 'not-a-jwt', expired, none, tampered]) {
        const res = await suite.app.call(method, fill(path, GOOD_PARAMS), {
          token,
          body: method === 'PUT' ? {} : undefined,
        });
        expectError(res, 401, 'unauthorized');
        expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      }
    }
    expect(await snapshot()).toBe(before);
  });

  test('a caller without the role is 403 on every operation that some caller is refused', async () => {
    const before = await snapshot();
    const callers: Array<[AppRole[], string]> = [
      [['AUTHENTICATED_USER'], await suite.app.userToken(PEOPLE.alex)],
      [['AUTHORIZED_APP'], await suite.app.appToken('automation-app', ['AUTHORIZED_APP'])],
    ];
    let refused = 0;
    for (const { method, path, op } of operations) {
      const policy = (OPERATIONS as Record<string, OperationPolicy>)[op.operationId]!;
      for (const [roles, token] of callers) {
        if (policy.roles.some((r) => roles.includes(r))) continue;
        const body =
          method === 'PUT' ? (path.endsWith('{role}') ? [] : { owners: [], members: [] }) : undefined;
        expectError(await suite.app.call(method, fill(path, GOOD_PARAMS), { token, body }), 403, 'forbidden');
        refused++;
      }
    }
    expect(refused).toBeGreaterThanOrEqual(8);
    expect(await snapshot()).toBe(before);
  });

  test('bad path parameters are 400 on every operation that has them', async () => {
    const before = await snapshot();
    let checked = 0;
    for (const { method, path, op } of operations) {
      for (const param of op.parameters.filter((p) => p.in === 'path')) {
        const url = fill(path, { ...GOOD_PARAMS, [param.name]: BAD_PARAMS[param.name]! });
        const res = await suite.app.call(method, url, {
          token: suite.megan,
          body: hasBody(method) ? {} : undefined,
        });
        expectError(res, 400, 'validationFailed');
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(8);
    expect(await snapshot()).toBe(before);
  });

  test('bodies: wrong content type 415, malformed JSON 400, wrong types 400, unknown fields 400, over 1 MiB 413', async () => {
    const before = await snapshot();
    const writes = operations.filter((o) => o.op.requestBody);
    expect(writes.length).toBeGreaterThanOrEqual(11);
    for (const { method, path, op } of writes) {
      const url = fill(path, GOOD_PARAMS);
      const json = { 'content-type': 'application/json' };
      expectError(
        await suite.app.call(method, url, {
          token: suite.megan,
          rawBody: '{}',
          headers: { 'content-type': 'text/plain' },
        }),
        415,
      );
      expectError(
        await suite.app.call(method, url, { token: suite.megan, rawBody: '{"a":', headers: json }),
        400,
        'validationFailed',
      );
      expectError(
        await suite.app.call(method, url, { token: suite.megan, body: 'a string' }),
        400,
        'validationFailed',
      );
      expectError(
        await suite.app.call(method, url, {
          token: suite.megan,
          body: FREE_FORM_BODIES.has(op.operationId) ? [{ unexpected: true }] : { unexpected: true },
        }),
        400,
        'validationFailed',
      );
      // An empty body is refused where the body is required (archiving takes an optional one).
      if (op.requestBody?.required) {
        expectError(
          await suite.app.call(method, url, { token: suite.megan, rawBody: '', headers: json }),
          400,
          'validationFailed',
        );
      }
      const big = `{"pad":"${'p'.repeat(1024 * 1024)}"}`;
      expectError(
        await suite.app.call(method, url, { token: suite.megan, rawBody: big, headers: json }),
        413,
        'payloadTooLarge',
      );
    }
    expect(await snapshot()).toBe(before);
  });

  test('a query that breaks its schema is 400 on every operation with a query', async () => {
    const withQuery = operations.filter((o) => o.op.parameters.some((p) => p.in === 'query'));
    expect(withQuery.length).toBeGreaterThanOrEqual(1);
    for (const { method, path, op } of withQuery) {
      for (const param of op.parameters.filter((p) => p.in === 'query')) {
        const res = await suite.app.call(
          method,
          `${fill(path, GOOD_PARAMS)}?${param.name}=${'%FF'.repeat(300)}`,
          {
            token: suite.megan,
          },
        );
        expectError(res, 400, 'validationFailed');
      }
    }
  });
});
