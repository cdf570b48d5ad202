import { migrate } from '../../../src/store/database';
import { databaseKinds, eachEmptyStore } from '../../support/databases';

/**
 * Migration 0019 on a store that has lived: its templates become version 1 of their history, and
 * the teams made before it are found in their completed provisioning jobs, their version unknown.
 */
describe.each(databaseKinds)('migration 0019 on %s', (kind) => {
  const empty = eachEmptyStore(kind);

  test('existing templates are version 1; teams made before are recorded without a version', async () => {
    const store = await empty.before('0017_sensitivity_labels');
    const document = { templateConfiguration: { id: 'project', name: 'Project team' } };
    await store.db
      .insertInto('catalog_templates')
      .values({
        id: 'project',
        name: 'Project team',
        enabled: 1,
        document: JSON.stringify(document),
        revision: 3,
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-02-01T00:00:00.000Z',
      } as never)
      .execute();
    const job = (id: string, status: string, teamId: string | null, data: string) => ({
      id,
      type: 'ProvisioningRequest',
      status,
      queued: 0,
      progress: 100,
      log: '[]',
      data,
      checkpoint: '{}',
      failed_reason: null,
      attempts: 1,
      run_at: 0,
      lease_owner: null,
      lease_until: null,
      requester_id: 'someone',
      team_id: teamId,
      template_id: 'project',
      idempotency_key: null,
      created_at: '2026-03-01T00:00:00.000Z',
      updated_at: '2026-03-01T00:00:00.000Z',
      completed_at: status === 'completed' ? '2026-03-01T00:10:00.000Z' : null,
      budget_key: null,
    });
    await store.db
      .insertInto('jobs')
      .values([
        job('j1', 'completed', 'team-1', JSON.stringify({ team: { id: 'team-1', displayName: 'Apollo' } })),
        job('j2', 'completed', 'team-2', 'not json'),
        job('j3', 'failed', null, '{}'),
      ])
      .execute();

    await migrate(store.db);

    expect(
      await store.db.selectFrom('template_versions').select(['template_id', 'version', 'actor_id']).execute(),
    ).toEqual([{ template_id: 'project', version: 1, actor_id: null }]);
    const template = await store.db
      .selectFrom('catalog_templates')
      .select(['version', 'revision'])
      .executeTakeFirstOrThrow();
    expect({ version: Number(template.version), revision: Number(template.revision) }).toEqual({
      version: 1,
      revision: 3,
    });
    const teams = await store.db
      .selectFrom('team_templates')
      .select(['team_id', 'display_name', 'template_id', 'template_version', 'job_id'])
      .orderBy('team_id')
      .execute();
    expect(teams).toEqual([
      {
        team_id: 'team-1',
        display_name: 'Apollo',
        template_id: 'project',
        template_version: null,
        job_id: 'j1',
      },
      // A job whose data does not parse still names its team, by id.
      {
        team_id: 'team-2',
        display_name: 'team-2',
        template_id: 'project',
        template_version: null,
        job_id: 'j2',
      },
    ]);
  });
});
