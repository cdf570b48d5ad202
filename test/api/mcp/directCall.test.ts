import { request } from 'undici';
import * as servers from '../../../src/api/mcp/mcpServer';
import { createTestDatabase, type TestDatabase } from '../../support/databases';
import { PEOPLE, startTestSteward, type TestSteward } from '../../support/steward';

type Json = Record<string, unknown>;

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'steward-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** One raw MCP request: the tool call's params, on a revision, with headers changed or added. */
interface Case {
  what: string;
  /** Whether Steward answers it directly (otherwise the SDK does, in both Stewards). */
  direct?: boolean;
  modern: boolean;
  params: Json;
  headers?: Record<string, string>;
}

const PREVIEW = { template: { id: 'client-engagement' }, team: { name: 'Acme' } };
const CASES: Case[] = [
  { what: 'a cached read', direct: true, modern: true, params: { name: 'list_my_templates', arguments: {} } },
  { what: 'a cached read, 2025', direct: true, modern: false, params: { name: 'list_my_templates' } },
  {
    what: 'a read of rules',
    direct: true,
    modern: true,
    params: { name: 'preview_team_request', arguments: PREVIEW },
  },
  {
    what: 'a read of rules, 2025',
    direct: true,
    modern: false,
    params: { name: 'preview_team_request', arguments: PREVIEW },
  },
  {
    what: 'arguments refused',
    direct: true,
    modern: true,
    params: { name: 'preview_team_request', arguments: { template: 5 } },
  },
  {
    what: 'arguments refused, 2025',
    direct: true,
    modern: false,
    params: { name: 'preview_team_request', arguments: { x: 1 } },
  },
  { what: 'a role refused', direct: true, modern: true, params: { name: 'search_audit', arguments: {} } },
  { what: 'my requests', direct: true, modern: false, params: { name: 'list_my_requests', arguments: {} } },
  { what: 'an unknown tool', modern: true, params: { name: 'make_coffee', arguments: {} } },
  { what: 'arguments not an object', modern: true, params: { name: 'list_my_templates', arguments: [1] } },
  {
    what: 'a tool asking first',
    modern: false,
    params: { name: 'withdraw_request', arguments: { jobId: '00000000-0000-0000-0000-00000000dead' } },
  },
  {
    what: 'a name header that differs',
    modern: true,
    params: { name: 'list_my_templates', arguments: {} },
    headers: { 'mcp-name': 'preview_team_request' },
  },
  {
    what: 'no event stream accepted',
    modern: false,
    params: { name: 'list_my_templates' },
    headers: { accept: 'application/json' },
  },
];

/**
 * Tool calls answered directly (src/api/mcp/directCall.ts) read exactly as the SDK answers them:
 * the same requests sent to a Steward answering through the SDK alone get the same status, content
 * type and message, on both revisions, for successes, refusals and what the direct path leaves alone.
 */
describe('MCP tool calls answered directly', () => {
  const databases: TestDatabase[] = [];
  let direct: TestSteward;
  let sdk: TestSteward;
  let token: string;

  beforeAll(async () => {
    databases.push(await createTestDatabase('sqlite'), await createTestDatabase('sqlite'));
    direct = await startTestSteward(databases[0]!);
    sdk = await startTestSteward(databases[1]!, {}, { mcpThroughSdk: true });
    token = await direct.userToken(PEOPLE.alex, [], { name: 'Alex Wilber' });
  });
  afterAll(async () => {
    await Promise.all([direct?.close(), sdk?.close()]);
    await Promise.all(databases.map((db) => db.drop()));
  });

  /** The answer of `steward` to a case: status, content type, and the JSON-RPC message as a reader compares it. */
  async function answer(steward: TestSteward, c: Case) {
    const name = String(c.params.name);
    const res = await request(`${steward.url}/api/v1.0/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(c.modern
          ? { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name }
          : {}),
        ...c.headers,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: c.modern ? { ...c.params, _meta: ENVELOPE } : c.params,
      }),
    });
    const text = await res.body.text();
    // What differs between two Stewards answering alike: their address, the time and the request's id.
    const comparable = text
      .replaceAll(steward.url, 'STEWARD')
      .replace(/"date":"[^"]+"/g, '"date":"…"')
      .replace(/"request-id":"[^"]+"/g, '"request-id":"…"');
    const stream = comparable.startsWith('event: message\ndata: ') && comparable.endsWith('\n\n');
    const { date, 'request-id': id, 'content-length': length, ...headers } = res.headers;
    expect([date, id, Number(length)]).toEqual([
      expect.any(String),
      expect.any(String),
      Buffer.byteLength(text),
    ]);
    return {
      status: res.statusCode,
      headers,
      stream,
      // The bytes, in the SDK's order and spacing, not only the same message.
      text: comparable,
      message: JSON.parse(stream ? comparable.slice(21) : comparable) as Json,
    };
  }

  test.each(CASES)('$what: the same answer as the SDK’s', async (c) => {
    const built = jest.spyOn(servers, 'mcpServerFor');
    const ours = await answer(direct, c);
    const oursBuilt = built.mock.calls.length;
    const theirs = await answer(sdk, c);
    const theirsBuilt = built.mock.calls.length - oursBuilt;
    built.mockRestore();
    // A server per request only on the SDK's path; elsewhere both Stewards go the same way.
    expect([oursBuilt, theirsBuilt]).toEqual(c.direct ? [0, 1] : [theirsBuilt, theirsBuilt]);
    expect(ours).toEqual(theirs);
    if (ours.message.result) expect(ours.message.id).toBe(7);
  });

  test('every answer carries its request-id and echoes a client-request-id, as the API’s do', async () => {
    const call = (params: Json, headers: Record<string, string>) =>
      request(`${direct.url}/api/v1.0/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'client-request-id': 'agent-trace-1',
          ...headers,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }),
      });
    const answers = [
      await call({ name: 'list_my_templates' }, { authorization: `Bearer ${token}` }), // answered directly
      await call({ name: 'make_coffee' }, { authorization: `Bearer ${token}` }), // by the SDK
      await call({ name: 'list_my_templates' }, {}), // refused: no token
    ];
    for (const res of answers) await res.body.dump();
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 401]);
    for (const res of answers) {
      expect(res.headers['request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers['client-request-id']).toBe('agent-trace-1');
    }
  });

  test('the quotable sentence names what the answer lists', async () => {
    const ours = await answer(direct, CASES[0]!);
    const result = ours.message.result as { content: Array<{ text: string }> };
    expect(result.content[0]!.text).toMatch(/^6 templates: Client engagement, /);
    expect(result.content[0]!.text).not.toContain('undefined');
  });
});
