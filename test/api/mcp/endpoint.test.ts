import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { request } from 'undici';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../support/databases';
import { PEOPLE, startTestSteward, type TestSteward } from '../../support/steward';

type Json = Record<string, unknown>;

/**
 * Steward's MCP server over Streamable HTTP on a loopback port, with the SDK's own client: each
 * tool runs its API operation as the caller (the same roles, refusals and audit), and what
 * decides or overwrites needs the person's confirmation.
 */
describe.each(databaseKinds)('the MCP endpoint, on %s', (kind) => {
  let db: TestDatabase;
  let app: TestSteward;
  let alex: string;
  let adele: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    app = await startTestSteward(db);
    alex = await app.userToken(PEOPLE.alex, [], { name: 'Alex Wilber' });
    adele = await app.userToken(PEOPLE.adele, [], { name: 'Adele Vance' });
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await app.close();
    await db.drop();
  });

  /**
   * A client signed in with `token`. With `confirm`, it speaks the 2026-07-28 revision and declares
   * elicitation, which `confirm` answers; without, it is a 2025 client that cannot elicit.
   */
  const connect = async (token: string, confirm?: (message: string) => boolean): Promise<Client> => {
    const client = new Client(
      { name: 'steward-test', version: '1.0.0' },
      confirm
        ? { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' } }
        : { capabilities: {} },
    );
    if (confirm)
      client.setRequestHandler('elicitation/create', async (req) => ({
        action: 'accept',
        content: { confirm: confirm(String(req.params.message)) },
      }));
    const transport = new StreamableHTTPClientTransport(new URL(`${app.url}/api/v1.0/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  };
  const call = async (client: Client, name: string, args: Json = {}) =>
    (await client.callTool({ name, arguments: args })) as {
      isError?: boolean;
      content: Array<{ type: string; text?: string }>;
      structuredContent?: Json;
    };

  test('lists the tools with honest annotations, and the inputs of their operations', async () => {
    const client = await connect(alex);
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect([...byName.keys()]).toEqual(
      expect.arrayContaining([
        'list_my_templates',
        'preview_team_request',
        'request_team',
        'list_my_requests',
        'list_my_approvals',
        'approve_request',
        'reject_request',
        'withdraw_request',
        'get_team_lifecycle',
        'renew_team',
        'join_team',
        'get_team_drift',
        'apply_team_drift',
        'archive_team',
        'list_reports',
        'search_audit',
      ]),
    );
    expect(byName.get('list_my_templates')!.annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
    });
    expect(byName.get('approve_request')!.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
    expect(byName.get('archive_team')!.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
    expect(byName.get('request_team')!.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
    });
    // The operation's own contract: the request's body fields, the approval's path parameter.
    const requestTeam = byName.get('request_team')!.inputSchema as { properties: Json; required: string[] };
    expect(Object.keys(requestTeam.properties)).toEqual(expect.arrayContaining(['template', 'team']));
    const approve = byName.get('approve_request')!.inputSchema as { properties: Json; required: string[] };
    expect(approve.required).toContain('approvalRequestId');
    expect(Object.keys(approve.properties)).toContain('confirmation');
    expect(Object.keys(requestTeam.properties)).not.toContain('confirmation');
  });

  test('Alex requests a team needing approval: it waits for Adele, who finds it in her approvals', async () => {
    const asAlex = await connect(alex);
    const requested = await call(asAlex, 'request_team', {
      template: { id: 'client-engagement' },
      team: { name: `Fabrikam ${kind}` },
    });
    expect(requested.isError).toBeFalsy();
    const job = requested.structuredContent as {
      id: string;
      status: string;
      data: { approval: { id: string } };
    };
    expect(job.status).toBe('waiting');
    expect(requested.content[0]!.text).toContain('waiting for approval by');
    expect(requested.content[0]!.text).toContain('Adele Vance');

    const mine = await call(asAlex, 'list_my_requests');
    expect((mine.structuredContent!.value as Json[]).map((item) => item.id)).toContain(job.id);

    const asAdele = await connect(adele);
    const approvals = await call(asAdele, 'list_my_approvals');
    const pending = approvals.structuredContent!.value as Array<{ id: string; job: { id: string } }>;
    expect(pending.find((item) => item.job.id === job.id)?.id).toBe(job.data.approval.id);
    // The same request over HTTP says the same.
    const http = await app.call<{ value: Json[] }>('GET', '/api/v1.0/me/approvals', { token: adele });
    expect(http.body.value.map((item) => item.id)).toContain(job.data.approval.id);
  });

  test('a non-approver deciding is refused as over HTTP (403), after confirming', async () => {
    const asAlex = await connect(alex);
    const requested = await call(asAlex, 'request_team', {
      template: { id: 'client-engagement' },
      team: { name: `Northwind ${kind}` },
    });
    const approvalId = (requested.structuredContent as { data: { approval: { id: string } } }).data.approval
      .id;
    const asIntruder = await connect(alex, () => true);
    const decided = await call(asIntruder, 'approve_request', { approvalRequestId: approvalId });
    expect(decided.isError).toBe(true);
    expect(decided.structuredContent).toMatchObject({ status: 403 });
    expect(decided.content[0]!.text).toMatch(/^Refused \(403 /);
  });

  test('deciding needs the person: elicited when the client can, else refused until confirmed', async () => {
    const asAlex = await connect(alex);
    const requested = await call(asAlex, 'request_team', {
      template: { id: 'client-engagement' },
      team: { name: `Tailspin ${kind}` },
    });
    const job = requested.structuredContent as { id: string; data: { approval: { id: string } } };
    const approvalRequestId = job.data.approval.id;

    // A client without elicitation: refused, nothing done, the model told to ask.
    const plain = await connect(adele);
    const unconfirmed = await call(plain, 'approve_request', { approvalRequestId });
    expect(unconfirmed.isError).toBe(true);
    expect(unconfirmed.structuredContent).toMatchObject({ error: { code: 'confirmationRequired' } });
    expect(unconfirmed.content[0]!.text).toContain('Ask them');

    // A client whose person declines: nothing done.
    const questions: string[] = [];
    const declining = await connect(adele, (message) => {
      questions.push(message);
      return false;
    });
    const declined = await call(declining, 'approve_request', { approvalRequestId });
    expect(declined.isError).toBe(true);
    expect(questions[0]).toContain(approvalRequestId);
    const still = await app.call<{ data: { approval: { status: string } } }>(
      'GET',
      `/api/v1.0/jobs/${job.id}`,
      {
        token: alex,
      },
    );
    expect(still.body.data.approval.status).toBe('pending');

    // The person agrees: approved, as over HTTP.
    const agreeing = await connect(adele, () => true);
    const approved = await call(agreeing, 'approve_request', { approvalRequestId });
    expect(approved.isError).toBeFalsy();
    expect(approved.content[0]!.text).toBe(`Approved ${approvalRequestId}.`);
    const after = await app.call<{ data: { approval: { status: string } } }>(
      'GET',
      `/api/v1.0/jobs/${job.id}`,
      {
        token: alex,
      },
    );
    expect(after.body.data.approval.status).toBe('approved');
  });

  test('archiving needs the person too: refused until confirmed, no job queued', async () => {
    const plain = await connect(alex);
    const teamId = '00000000-0000-0000-0000-0000000000aa';
    const unconfirmed = await call(plain, 'archive_team', { teamId });
    expect(unconfirmed.isError).toBe(true);
    expect(unconfirmed.structuredContent).toMatchObject({ error: { code: 'confirmationRequired' } });
    const archives = await app.steward.store.db
      .selectFrom('jobs')
      .select('id')
      .where('type', '=', 'TeamArchiveRequest')
      .execute();
    expect(archives).toEqual([]);
  });

  test('an app token gets only the roles it carries: a person’s tool is refused, an auditor’s served', async () => {
    const noRoles = await connect(await app.appToken('11111111-2222-3333-4444-555555555555'));
    const refused = await call(noRoles, 'list_my_templates');
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ status: 403, error: { code: 'forbidden' } });
    const audit = await call(noRoles, 'search_audit', { code: 'provisioning' });
    expect(audit.structuredContent).toMatchObject({ status: 403 });

    const auditor = await connect(
      await app.appToken('11111111-2222-3333-4444-555555555555', ['AUTHORIZED_APP']),
    );
    const trails = await app.call<{ value: Array<{ code: string }> }>(
      'GET',
      '/api/v1.0/audit_trails/events',
      {
        token: await app.appToken('11111111-2222-3333-4444-555555555555', ['AUTHORIZED_APP']),
      },
    );
    const records = await call(auditor, 'search_audit', { code: trails.body.value[0]!.code, top: 5 });
    expect(records.isError).toBeFalsy();
    // Bad input is the operation's own refusal, with its details.
    const bad = await call(auditor, 'search_audit', { code: 'Not A Code' });
    expect(bad.structuredContent).toMatchObject({ status: 400, error: { code: 'validationFailed' } });
  });

  test('arguments are checked by the operation’s own stage: control characters, unknown names, its schema', async () => {
    const asAlex = await connect(alex);
    const control = await call(asAlex, 'request_team', {
      template: { id: 'client-engagement' },
      team: { name: 'Bell\u0007' },
    });
    expect(control.structuredContent).toMatchObject({
      status: 400,
      error: { code: 'validationFailed', details: [{ code: 'controlCharacter' }] },
    });
    const unknown = await call(asAlex, 'list_my_requests', { colour: 'blue' });
    expect(unknown.structuredContent).toMatchObject({ status: 400, error: { code: 'validationFailed' } });
    const tooMany = await call(asAlex, 'list_my_requests', { top: 500 });
    expect(tooMany.structuredContent).toMatchObject({ status: 400, error: { code: 'validationFailed' } });
    const some = await call(asAlex, 'list_my_requests', { top: 2 });
    expect(some.isError).toBeFalsy();
  });

  test('resources are read as the caller: Alex reads his templates, not the lifecycle policy', async () => {
    const asAlex = await connect(alex);
    const { resources } = await asAlex.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(
      expect.arrayContaining(['steward://templates', 'steward://policies/lifecycle']),
    );
    const templates = await asAlex.readResource({ uri: 'steward://templates' });
    const http = await app.call<{ value: Array<{ id: string }> }>('GET', '/api/v1.0/me/catalog/templates', {
      token: alex,
    });
    const read = JSON.parse(String((templates.contents[0] as { text: string }).text)) as typeof http.body;
    expect(read.value.map((t) => t.id)).toEqual(http.body.value.map((t) => t.id));
    await expect(asAlex.readResource({ uri: 'steward://policies/lifecycle' })).rejects.toThrow(/403/);
  });

  test('a call without a token is 401, pointing at the protected-resource metadata', async () => {
    const res = await request(`${app.url}/api/v1.0/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    await res.body.text();
    expect(res.statusCode).toBe(401);
    const challenge = String(res.headers['www-authenticate']);
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
    expect(challenge).toMatch(/^Bearer /);
    expect(metadataUrl).toBe(`${app.url}/.well-known/oauth-protected-resource/api/v1.0/mcp`);

    const metadata = await request(metadataUrl!);
    expect(metadata.statusCode).toBe(200);
    const document = (await metadata.body.json()) as Json;
    // RFC 9728 §2: `resource` is the protected resource's URL, the one the client called.
    expect(document.resource).toBe(`${app.url}/api/v1.0/mcp`);
    expect(document.bearer_methods_supported).toEqual(['header']);
    expect(document.authorization_servers).toBeUndefined();

    const badToken = await request(`${app.url}/api/v1.0/mcp`, {
      method: 'POST',
      headers: { authorization: 'Bearer not.a.token', 'content-type': 'application/json' },
      body: '{}',
    });
    await badToken.body.text();
    expect(badToken.statusCode).toBe(401);
    expect(String(badToken.headers['www-authenticate'])).toMatch(
      /^Bearer error="invalid_token", resource_metadata="/,
    );
  });
});
