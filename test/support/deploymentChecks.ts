import { request } from 'undici';
import { EmbeddedTokenIssuer } from '../../src/services/access/tokens';
import { seedUsers } from '../../src/store/seed/directory';
import type { WebhookReceiver } from './cluster';
import { PEOPLE, TENANT, TEST_SECRET } from './steward';

/**
 * What a multi-process deployment must do through its entry (the cluster's own proxy, or nginx):
 * provisioning done once and only once, and rate limits shared by the API processes.
 */
const TEAMS = 200;
const CALLERS = 20;
const EVENTS = ['team_created', 'team_provisioning_completed'];
const issuer = new EmbeddedTokenIssuer(TEST_SECRET, TENANT);

/** One HTTP call; the body parsed when it is JSON. */
export async function call(url: string, method: string, token: string, body?: unknown) {
  const res = await request(url, {
    method: method as 'GET',
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  const json = String(res.headers['content-type'] ?? '').includes('json') && text ? JSON.parse(text) : text;
  return { status: res.statusCode, headers: res.headers, body: json as Record<string, unknown> };
}

/**
 * The jobs a provisioning run makes: its requests and their webhook deliveries. A deployment also
 * schedules jobs of its own (the next lifecycle evaluation, due at night), which wait for their time.
 */
const THESE_JOBS = "type in ('ProvisioningRequest', 'WebhookDelivery')";

/** Polls `check` until it returns a value, or fails after `timeoutMs` with the last state. */
export async function until<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * 200 teams requested through `entry` by 20 callers, with a webhook to `receiver`: every job runs
 * once, no team is duplicated, each webhook is delivered once. `rows` queries the shared store.
 */
export async function provisionOnceThrough(
  entry: string,
  rows: <T>(text: string) => Promise<T[]>,
  receiver: WebhookReceiver,
): Promise<void> {
  const api = `${entry}/api/v1.0`;
  const manager = await issuer.mint({ id: 'teams-bot', roles: ['INTEGRATION_MANAGER'], app: true });
  const hook = await call(`${api}/hooks`, 'POST', manager, {
    name: 'cluster receiver',
    events: EVENTS,
    config: { url: `${receiver.url}/cluster` },
  });
  expect(hook.status).toBe(201);

  // CALLERS lanes, each a seed person, share the TEAMS requests.
  const tokens = await Promise.all(seedUsers.map((u) => issuer.mint({ id: u.id, roles: u.appRoles })));
  const jobIds: string[] = [];
  const refused: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CALLERS }, async (_v, lane) => {
      while (next < TEAMS) {
        const i = next++;
        const res = await call(`${api}/teams/provisioning`, 'POST', tokens[lane % tokens.length]!, {
          template: { id: 'project' },
          team: { name: `Cluster ${i}` },
        });
        if (res.status === 201) jobIds.push(String(res.body.id));
        else refused.push(`${res.status} ${JSON.stringify(res.body)}`);
      }
    }),
  );
  expect(refused).toEqual([]);
  expect(new Set(jobIds).size).toBe(TEAMS);

  // Every job, provisioning and delivery, ends; none is left waiting, failed or running.
  const expectedDeliveries = TEAMS * EVENTS.length;
  await until(
    'every job to finish',
    async () => {
      const [open] = await rows<{ n: string }>(
        `select count(*) as n from jobs where ${THESE_JOBS} and status not in ('completed', 'failed')`,
      );
      const [all] = await rows<{ n: string }>(`select count(*) as n from jobs where ${THESE_JOBS}`);
      return Number(open!.n) === 0 && Number(all!.n) === TEAMS + expectedDeliveries ? true : undefined;
    },
    120_000,
  );
  const jobs = await rows<{ id: string; type: string; status: string; attempts: number; log: string }>(
    `select id, type, status, attempts, log from jobs where ${THESE_JOBS}`,
  );
  const byType = (type: string) => jobs.filter((j) => j.type === type);
  expect(
    byType('ProvisioningRequest')
      .map((j) => j.id)
      .sort(),
  ).toEqual([...jobIds].sort());
  expect(byType('WebhookDelivery')).toHaveLength(expectedDeliveries);
  expect(jobs.filter((j) => j.status !== 'completed').map((j) => j.id)).toEqual([]);
  // Run once: a retry would be an `Attempt n failed` line, a second run after a lost lease a `Found team`.
  for (const job of jobs) {
    const log = JSON.parse(job.log) as string[];
    expect(log.filter((line) => /^Attempt \d+ failed/.test(line))).toHaveLength(Number(job.attempts));
    if (job.type === 'ProvisioningRequest') {
      expect(log.filter((line) => /^(Created|Found) team/.test(line))).toEqual([
        expect.stringMatching(/^Created team/),
      ]);
    }
  }

  // One team per job, distinct keys and names, each linked from its job.
  const [teams] = await rows<{ n: string; keys: string; names: string; linked: string }>(
    'select count(*) as n, count(distinct t.provisioning_key) as keys, ' +
      'count(distinct lower(t.display_name)) as names, count(j.id) as linked ' +
      'from platform_teams t left join jobs j on j.id = t.provisioning_key and j.team_id = t.id ' +
      "where t.provisioning_key in (select id from jobs where type = 'ProvisioningRequest')",
  );
  expect(teams).toEqual({ n: '200', keys: '200', names: '200', linked: '200' });
  const [dupes] = await rows<{ n: string }>(
    "select count(*) as n from (select lower(display_name) from platform_teams where display_name like 'Cluster %' " +
      'group by lower(display_name) having count(*) > 1) d',
  );
  expect(dupes!.n).toBe('0');

  // The receiver got each delivery once: TEAMS of each event, one per job, no id twice.
  await until(
    'every delivery',
    async () => (receiver.received.length >= expectedDeliveries ? true : undefined),
    30_000,
  );
  await new Promise((resolve) => setTimeout(resolve, 500)); // a duplicate would arrive by now
  const received = receiver.received.filter((r) => r.path === '/cluster');
  expect(received).toHaveLength(expectedDeliveries);
  expect(new Set(received.map((r) => r.headers['x-steward-delivery'])).size).toBe(expectedDeliveries);
  for (const event of EVENTS) {
    const of = received.filter((r) => r.headers['x-steward-event'] === event);
    const jobsNamed = of.map((r) => (JSON.parse(r.body) as { provisioning: { id: string } }).provisioning.id);
    expect(jobsNamed.sort()).toEqual([...jobIds].sort());
  }
  // Each delivery took one POST (the store's `attempts` counts them).
  const [delivered] = await rows<{ n: string }>(
    "select count(*) as n from hook_deliveries where status = 'delivered' and attempts = 1",
  );
  expect(delivered!.n).toBe(String(expectedDeliveries));
}

/** One caller through `entry` (round-robin over the API processes) gets the tier limit once, not per process. */
export async function oneLimitThrough(entry: string): Promise<void> {
  const alex = await issuer.mint({ id: PEOPLE.alex, roles: [] });
  const statuses: number[] = [];
  for (let i = 0; i < 22; i += 1)
    statuses.push((await call(`${entry}/api/v1.0/me/catalog/templates`, 'GET', alex)).status);
  expect(statuses).toEqual([...Array(20).fill(200), 429, 429]);
}
