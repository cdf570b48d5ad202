import type { Job, TeamDrift } from '../../../src/contract';
import { SEED_LABEL_IDS } from '../../../src/store/seed/directory';
import { databaseKinds } from '../../support/databases';
import { waitForJob } from '../../support/jobs';
import { teamLabel } from '../../support/labelledTemplates';
import { NAMED, suiteSteward } from '../../support/steward';

/**
 * A label the template gains later goes on through the label's own path: the job carries, sealed,
 * the grant of the person who asked (Graph takes a label only from a person), and an
 * application's request leaves it missing, saying why.
 */
describe.each(databaseKinds)('drift of the sensitivity label, %s', (kind) => {
  const suite = suiteSteward(kind, {
    env: { STEWARD_JOB_POLL_MS: '50' },
    people: { alex: NAMED.alex },
  });

  const put = (labelId: string | null) =>
    suite.app.call('PUT', '/api/v1.0/catalog/templates/drift-label', {
      token: suite.megan,
      body: { templateConfiguration: { name: 'Labelled later', sensitivityLabelId: labelId } },
    });
  const labelOf = (teamId: string) => teamLabel(suite.app, teamId);

  test("the owner's apply puts the template's new label on with their own authority", async () => {
    expect((await put(null)).status).toBe(200);
    const created = await suite.app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
      token: suite.alex,
      body: { template: { id: 'drift-label' }, team: { name: 'Vega' } },
    });
    const teamId = ((await waitForJob(suite.app, suite.alex, created.body.id)).data.team as { id: string })
      .id;
    expect(await labelOf(teamId)).toBeNull();
    expect((await put(SEED_LABEL_IDS.general)).status).toBe(200);

    const drift = await suite.app.call<TeamDrift>('GET', `/api/v1.0/teams/${teamId}/drift`, {
      token: suite.alex,
    });
    expect(drift.body.differences).toEqual([
      expect.objectContaining({
        id: `sensitivityLabel:${SEED_LABEL_IDS.general}`,
        name: 'General',
        applicable: true,
      }),
    ]);
    const queued = await suite.app.call<Job>('POST', `/api/v1.0/teams/${teamId}/drift/apply`, {
      token: suite.alex,
      body: { differences: [`sensitivityLabel:${SEED_LABEL_IDS.general}`] },
    });
    expect(queued.status).toBe(202);
    const job = await waitForJob(suite.app, suite.alex, queued.body.id);
    expect(job.status).toBe('completed');
    expect(job.log.join('\n')).toContain('Applied the sensitivity label.');
    expect(await labelOf(teamId)).toBe(SEED_LABEL_IDS.general);
    // The grant was used once and is gone; nothing differs any more.
    expect(await suite.app.steward.store.db.selectFrom('delegated_grants').selectAll().execute()).toEqual([]);
    expect(
      (await suite.app.call<TeamDrift>('GET', `/api/v1.0/teams/${teamId}/drift`, { token: suite.alex })).body
        .differences,
    ).toEqual([]);
  });
});
