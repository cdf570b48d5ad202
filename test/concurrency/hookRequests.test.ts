import type { Hook } from '../../src/contract';
import { databaseKinds } from '../support/databases';
import { PEOPLE, suiteSteward } from '../support/steward';

const AT_ONCE = 20;
const api = '/api/v1.0';

/**
 * Webhook subscriptions raced, on SQLite and on PostgreSQL (several connections, as several
 * processes on one database are): identical subscriptions at once, and activations and deletions of
 * one hook at once. No request fails with a 500, each leaves exactly the rows it should, and the
 * hook ends in one state every answer agrees with.
 */
describe.each(databaseKinds)('webhook subscriptions at once, on %s', (kind) => {
  const suite = suiteSteward(kind, {
    env: { STEWARD_RATE_LIMIT_FACTOR: '20', STEWARD_WEBHOOK_ALLOW_LOOPBACK: 'true' },
    people: {
      isaiah: { id: PEOPLE.isaiah, roles: [], name: 'Isaiah Langer' },
      manager: { id: PEOPLE.megan, roles: ['GLOBAL_ADMIN'], name: 'Megan Bowen' },
    },
  });
  const db = () => suite.app.steward.store.db;
  const at = (n: number) => Array.from({ length: n }, (_, i) => i);
  const subscribe = (token: string, url: string) =>
    suite.app.call<Hook>('POST', `${api}/hooks/team_created`, { token, body: { config: { url } } });
  const audited = async (hookId: string) => {
    const rows = await db()
      .selectFrom('audit_records')
      .select(['action', 'target'])
      .where('trail', '=', 'webhooks')
      .execute();
    return rows
      .filter((r) => (JSON.parse(r.target) as { id: string }).id === hookId)
      .map((r) => r.action)
      .sort();
  };
  /** A hook of Isaiah's that failed deliveries turned inactive, its failures counted. */
  const inactiveHook = async (url: string) => {
    const made = await subscribe(suite.isaiah, url);
    expect(made.status).toBe(201);
    await db()
      .updateTable('hooks')
      .set({ active: 0, consecutive_failures: 5 })
      .where('id', '=', made.body.id)
      .execute();
    return made.body.id;
  };

  test(`${AT_ONCE} identical subscriptions at once: ${AT_ONCE} hooks, each created once and audited once`, async () => {
    const url = 'http://127.0.0.1:9/identical';
    const answers = await Promise.all(at(AT_ONCE).map(() => subscribe(suite.isaiah, url)));
    expect(answers.map((a) => a.status)).toEqual(at(AT_ONCE).map(() => 201));
    const ids = new Set(answers.map((a) => a.body.id));
    expect(ids.size).toBe(AT_ONCE);
    const rows = await db().selectFrom('hooks').selectAll().where('url', '=', url).execute();
    expect(rows.map((r) => r.id).sort()).toEqual([...ids].sort());
    expect(
      rows.every((r) => r.created_by === PEOPLE.isaiah && r.scope === 'mine' && r.creator_kind === 'user'),
    ).toBe(true);
    const listed = await suite.app.call<{ value: Hook[] }>('GET', `${api}/hooks`, { token: suite.isaiah });
    expect(listed.body.value.filter((h) => h.config.url === url)).toHaveLength(AT_ONCE);
    for (const id of ids) expect(await audited(id)).toEqual(['webhook_created']);
  });

  test(`${AT_ONCE} activations of one inactive hook at once: every answer active, one audit record`, async () => {
    const id = await inactiveHook('http://127.0.0.1:9/activations');
    const answers = await Promise.all(
      at(AT_ONCE).map((i) =>
        suite.app.call<Hook>('POST', `${api}/hooks/${id}/activate`, {
          token: i % 2 ? suite.isaiah : suite.manager,
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(at(AT_ONCE).map(() => 200));
    // Whoever came second was answered the hook as it is now: active, not as it was before it waited.
    expect(answers.map((a) => a.body.active)).toEqual(at(AT_ONCE).map(() => true));
    const row = await db().selectFrom('hooks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect([row.active, row.consecutive_failures]).toEqual([1, 0]);
    expect(await audited(id)).toEqual(['webhook_activated', 'webhook_created']);
  });

  test('activations and deletions of one hook at once: one deletion, no answer showing a hook that is gone', async () => {
    for (const round of at(3)) {
      const id = await inactiveHook(`http://127.0.0.1:9/mixed-${round}`);
      const requests = at(AT_ONCE).map((i) => {
        if (i % 4 === 0)
          return suite.app.call('DELETE', `${api}/hooks/subscriptions/${id}`, { token: suite.isaiah });
        if (i % 4 === 1) return suite.app.call('DELETE', `${api}/hooks/${id}`, { token: suite.manager });
        return suite.app.call<Hook>('POST', `${api}/hooks/${id}/activate`, { token: suite.isaiah });
      });
      const answers = await Promise.all(requests);
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s !== 200 && s !== 404)).toEqual([]);
      const deletions = answers.filter((_, i) => i % 4 <= 1);
      expect(deletions.filter((a) => a.status === 200)).toHaveLength(1);
      const activations = answers.filter((_, i) => i % 4 > 1 && answers[i]!.status === 200);
      // An activation answered 200 came before the deletion, so it shows the hook active.
      for (const a of activations) expect((a.body as Hook).active).toBe(true);
      expect(await db().selectFrom('hooks').select('id').where('id', '=', id).execute()).toEqual([]);
      expect(
        await db().selectFrom('hook_deliveries').select('id').where('hook_id', '=', id).execute(),
      ).toEqual([]);
      const actions = await audited(id);
      expect(actions.filter((a) => a === 'webhook_deleted')).toHaveLength(1);
      expect(actions.filter((a) => a === 'webhook_activated').length).toBeLessThanOrEqual(1);
      // An activation audited means one was answered 200, and the other way round.
      expect(actions.includes('webhook_activated')).toBe(activations.length > 0);
    }
  });

  test('a hook deleted while its events are recorded leaves no delivery log behind', async () => {
    const made = await suite.app.call<Hook>('POST', `${api}/hooks/team_creation_approval_requested`, {
      token: suite.isaiah,
      body: { config: { url: 'http://127.0.0.1:9/deleted-meanwhile' } },
    });
    expect(made.status).toBe(201);
    const id = made.body.id;
    // Each request records an approval request naming Isaiah, each in its own transaction.
    const requests = at(AT_ONCE).map((i) =>
      suite.app.call('POST', `${api}/teams/provisioning`, {
        token: suite.isaiah,
        body: { template: { id: 'client-engagement' }, team: { name: `Deleted meanwhile ${kind} ${i}` } },
      }),
    );
    const deletion = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return suite.app.call('DELETE', `${api}/hooks/subscriptions/${id}`, { token: suite.isaiah });
    })();
    const answers = await Promise.all([...requests, deletion]);
    expect(answers.map((a) => a.status)).toEqual([...at(AT_ONCE).map(() => 201), 200]);
    // Every delivery queued for it ends (skipped: the hook is gone) ...
    const deadline = Date.now() + 20_000;
    for (;;) {
      const open = await db()
        .selectFrom('jobs')
        .select('id')
        .where('type', '=', 'WebhookDelivery')
        .where('status', 'not in', ['completed', 'failed'])
        .execute();
      if (open.length === 0) break;
      if (Date.now() > deadline) throw new Error(`${open.length} deliveries still open`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // ... and the hook's delivery log went with it, whenever its events were recorded.
    expect(await db().selectFrom('hook_deliveries').select('id').where('hook_id', '=', id).execute()).toEqual(
      [],
    );
  });
});
