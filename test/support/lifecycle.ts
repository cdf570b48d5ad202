import type { CatalogTemplateInput, Job, LifecyclePolicyInput } from '../../src/contract';
import { waitForJob } from './jobs';
import { PEOPLE, type TestSteward } from './steward';

export const DAY = 86_400_000;

/** The day `days` after today (UTC), as the API writes days. */
export const dayAfter = (days: number): string =>
  new Date(Date.now() + days * DAY).toISOString().slice(0, 10);

/** That day as a reader of `locale` reads it on a card ("November 24, 2026" in en-US). */
export const longDay = (locale: string, days: number): string =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(`${dayAfter(days)}T00:00:00Z`),
  );

/** Saves a template with `lifecycle` (and whatever else `config` sets) as the catalog manager. */
/** The tokens lifecycle suites act with: Alex, Isaiah, Lynne GOVERNANCE_MANAGER, Megan GLOBAL_ADMIN. */
export async function lifecycleTokens(
  app: TestSteward,
): Promise<{ alex: string; isaiah: string; lynne: string; megan: string }> {
  return {
    alex: await app.userToken(PEOPLE.alex, [], { name: 'Alex Wilber' }),
    isaiah: await app.userToken(PEOPLE.isaiah),
    lynne: await app.userToken(PEOPLE.lynne, ['GOVERNANCE_MANAGER']),
    megan: await app.userToken(PEOPLE.megan, ['GLOBAL_ADMIN']),
  };
}

export async function lifecycleTemplate(
  app: TestSteward,
  id: string,
  lifecycle: LifecyclePolicyInput,
  config: Partial<CatalogTemplateInput['templateConfiguration']> = {},
): Promise<void> {
  const patti = await app.userToken(PEOPLE.patti, ['CATALOG_MANAGER']);
  const res = await app.call('PUT', `/api/v1.0/catalog/templates/${id}`, {
    token: patti,
    body: { templateConfiguration: { name: id, lifecycle, ...config } },
  });
  if (res.status !== 200) throw new Error(`template ${id}: ${res.status} ${res.text}`);
}

/** Alex requests a team from `templateId`; resolves with the team's id once it exists. */
export async function provisionTeam(app: TestSteward, templateId: string, name: string): Promise<string> {
  const alex = await app.userToken(PEOPLE.alex, [], { name: 'Alex Wilber' });
  const res = await app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
    token: alex,
    body: { template: { id: templateId }, team: { name } },
  });
  if (res.status !== 201) throw new Error(`provisioning: ${res.status} ${res.text}`);
  const job = await waitForJob(app, alex, res.body.id);
  if (job.status !== 'completed') throw new Error(`provisioning failed: ${job.log.join(' | ')}`);
  return (job.data.team as { id: string }).id;
}

/** Alex adds each of `people` (user ids) to `teamId` in their role; each addition is answered 201. */
export async function addMembers(
  app: TestSteward,
  teamId: string,
  people: Array<[string, 'owner' | 'member']>,
): Promise<void> {
  const alex = await app.userToken(PEOPLE.alex, [], { name: 'Alex Wilber' });
  for (const [id, role] of people) {
    const added = await app.call('POST', `/api/v1.0/teams/${teamId}/members`, {
      token: alex,
      body: { user: { id }, role },
    });
    expect(added.status).toBe(201);
  }
}

/** A team of `templateId` that Alex requested, with `people` (user ids) added in their roles. */
export async function teamWith(
  app: TestSteward,
  templateId: string,
  name: string,
  people: Array<[string, 'owner' | 'member']>,
): Promise<string> {
  const teamId = await provisionTeam(app, templateId, name);
  await addMembers(app, teamId, people);
  return teamId;
}

/** Runs an evaluation now as a governance manager and waits for it to complete. */
export async function evaluate(app: TestSteward): Promise<Job> {
  const lynne = await app.userToken(PEOPLE.lynne, ['GOVERNANCE_MANAGER'], { name: 'Lynne Robbins' });
  const res = await app.call<Job>('POST', '/api/v1.0/lifecycle/evaluations', { token: lynne });
  if (res.status !== 202) throw new Error(`evaluation: ${res.status} ${res.text}`);
  const job = await waitForJob(app, lynne, res.body.id);
  if (job.status !== 'completed')
    throw new Error(`evaluation failed: ${job.failedReason} ${job.log.join(' | ')}`);
  return job;
}

/** The payloads of the outbox's `type` events about `teamId`. */
export async function teamEvents(
  app: TestSteward,
  type: string,
  teamId: string,
): Promise<Array<{ lifecycle?: Record<string, unknown> }>> {
  const rows = await app.steward.store.db
    .selectFrom('outbox_events')
    .select('payload')
    .where('type', '=', type)
    .orderBy('seq')
    .execute();
  return rows
    .map((r) => JSON.parse(r.payload) as { team?: { id: string }; lifecycle?: Record<string, unknown> })
    .filter((p) => p.team?.id === teamId);
}

/** The `lifecycle` trail's records about `teamId`, oldest first. */
export async function lifecycleRecords(
  app: TestSteward,
  teamId: string,
): Promise<Array<{ action: string; details: Record<string, unknown> }>> {
  const rows = await app.steward.store.db
    .selectFrom('audit_records')
    .select(['action', 'target', 'details'])
    .where('trail', '=', 'lifecycle')
    .orderBy('seq')
    .execute();
  return rows
    .filter((r) => (JSON.parse(r.target) as { id: string }).id === teamId)
    .map((r) => ({ action: r.action, details: JSON.parse(r.details ?? '{}') as Record<string, unknown> }));
}

/**
 * Someone makes every owner of `teamId` a plain member in Teams itself, outside Steward (the
 * embedded platform's rows): the team is left with no owner.
 */
export async function demoteEveryOwner(app: TestSteward, teamId: string): Promise<void> {
  await app.steward.store.db
    .updateTable('platform_members')
    .set({ role: 'member' })
    .where('team_id', '=', teamId)
    .where('role', '=', 'owner')
    .execute();
}
