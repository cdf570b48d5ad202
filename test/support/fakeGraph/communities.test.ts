import { type Agent, request } from 'undici';
import { FakeGraph } from './server';

/**
 * The fake's Viva Engage communities against what Microsoft documents
 * (api-reference/v1.0/api/employeeexperience-post-communities.md, engagementasyncoperation-get.md,
 * community-get.md, community-update.md, community-delete.md), over HTTPS on loopback with an
 * app's token, as Steward will call them.
 */
let graph: FakeGraph;
let dispatcher: Agent;
let token: string;
const OWNER = '6e1f0a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b';

beforeAll(async () => {
  graph = await FakeGraph.start({ latency: { minMs: 300, maxMs: 300 } });
  dispatcher = graph.dispatcher();
  graph.addUser({
    id: OWNER,
    displayName: 'Megan Bowen',
    userPrincipalName: 'megan@contoso.example',
    mail: 'megan@contoso.example',
  });
  graph.granted.add('Community.ReadWrite.All');
  const issued = await call('POST', `/${graph.tenantId}/oauth2/v2.0/token`, undefined, {
    grant_type: 'client_credentials',
    client_id: graph.clientId,
    client_secret: graph.clientSecret,
    scope: 'https://graph.microsoft.com/.default',
  });
  token = (issued.body as { access_token: string }).access_token;
});

afterAll(async () => {
  await dispatcher.close();
  await graph.close();
});

async function call(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
  form?: Record<string, string>,
): Promise<{ status: number; headers: Record<string, unknown>; body: unknown }> {
  const url = path.startsWith('https://') ? path : `${graph.origin}${path}`;
  const response = await request(url, {
    method,
    dispatcher,
    headers: form
      ? { 'content-type': 'application/x-www-form-urlencoded' }
      : { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: form ? new URLSearchParams(form).toString() : body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.body.text();
  return {
    status: response.statusCode,
    headers: response.headers,
    body: text ? (JSON.parse(text) as unknown) : null,
  };
}

const community = (extra: Record<string, unknown> = {}) => ({
  displayName: 'Cycling in Lyon',
  description: 'People who ride to work',
  privacy: 'public',
  'owners@odata.bind': [`https://graph.microsoft.com/v1.0/users/${OWNER}`],
  ...extra,
});

test('a community is created by an operation, with a group of its own that its owners own', async () => {
  const created = await call('POST', '/v1.0/employeeExperience/communities', community());
  expect(created.status).toBe(202);
  expect(created.body).toBeNull();
  const location = String(created.headers['operation-location']);
  expect(location).toMatch(/\/v1\.0\/employeeExperience\/engagementAsyncOperations\('[^']+'\)$/);

  const first = await call('GET', location);
  expect(first.body).toMatchObject({ status: 'running', operationType: 'createCommunity', resourceId: null });
  await new Promise((resolve) => setTimeout(resolve, 350));
  const done = await call('GET', location);
  const operation = done.body as { status: string; resourceId: string; resourceLocation: string };
  expect(operation.status).toBe('succeeded');
  expect(graph.communities.pollsTooSoon).toBe(1);

  const read = await call('GET', operation.resourceLocation);
  const made = read.body as { id: string; groupId: string; displayName: string; privacy: string };
  expect(made).toMatchObject({ id: operation.resourceId, displayName: 'Cycling in Lyon', privacy: 'public' });
  expect(made.groupId).not.toBe(made.id);
  const group = await call('GET', `/v1.0/groups/${made.groupId}`);
  expect(group.status).toBe(200);
  expect([...graph.groups.get(made.groupId)!.ownerIds]).toEqual([OWNER]);

  expect((await call('PATCH', operation.resourceLocation, { privacy: 'private' })).status).toBe(204);
  expect(((await call('GET', operation.resourceLocation)).body as { privacy: string }).privacy).toBe(
    'private',
  );
  const listed = await call('GET', '/v1.0/employeeExperience/communities');
  expect((listed.body as { value: Array<{ id: string }> }).value.map((c) => c.id)).toContain(made.id);

  expect((await call('DELETE', operation.resourceLocation)).status).toBe(204);
  expect((await call('GET', operation.resourceLocation)).status).toBe(404);
  expect((await call('GET', `/v1.0/groups/${made.groupId}`)).status).toBe(404);
});

test.each([
  ['with no owner, asked for by an app', { 'owners@odata.bind': undefined }],
  ['with a name over 255 characters', { displayName: 'x'.repeat(256) }],
  ['with a description over 1 024 characters', { description: 'x'.repeat(1025) }],
  ['with a privacy Graph does not know', { privacy: 'secret' }],
  [
    'with more than 100 owners',
    { 'owners@odata.bind': Array.from({ length: 101 }, () => `/users/${OWNER}`) },
  ],
  ['with an owner nobody is', { 'owners@odata.bind': ['https://graph.microsoft.com/v1.0/users/nobody'] }],
])('Graph refuses a community %s', async (_name, change) => {
  const before = graph.communities.operations.size;
  const refused = await call('POST', '/v1.0/employeeExperience/communities', community(change));
  expect(refused.status).toBe(400);
  expect(graph.communities.operations.size).toBe(before);
});

test('without Community.ReadWrite.All the app is refused, as Graph does', async () => {
  graph.granted.delete('Community.ReadWrite.All');
  try {
    const refused = await call('POST', '/v1.0/employeeExperience/communities', community());
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: { code: 'Authorization_RequestDenied' } });
  } finally {
    graph.granted.add('Community.ReadWrite.All');
  }
});
