import type { ApiError, CatalogTemplate, Job } from '../../../src/contract';
import { databaseKinds } from '../../support/databases';
import { waitForJob } from '../../support/jobs';
import { PEOPLE, suiteSteward } from '../../support/steward';

/**
 * Teams' channel names are unique regardless of case: a template naming `Contracts` and
 * `contracts` could only ever be one channel (the private one's file landing in the standard one),
 * so it is refused when created and when replaced, naming the second channel; names that differ in
 * case still find their channel (a tab on `CONTRACTS` is on `Contracts`).
 */
describe.each(databaseKinds)("templates' channel names, regardless of case, %s", (kind) => {
  const suite = suiteSteward(kind, {
    env: { STEWARD_JOB_POLL_MS: '50' },
    people: { patti: { id: PEOPLE.patti, roles: ['CATALOG_MANAGER'] } },
  });

  const put = (id: string, channels: unknown[], tabs: unknown[] = []) =>
    suite.app.call<CatalogTemplate & ApiError>('PUT', `/api/v1.0/catalog/templates/${id}`, {
      token: suite.patti,
      body: { templateConfiguration: { name: 'Legal' }, newTeam: { channels, tabs } },
    });
  const colliding = [
    { displayName: 'Contracts' },
    { displayName: 'Planning' },
    { displayName: 'Notes' },
    {
      displayName: 'contracts',
      membershipType: 'private',
      files: [{ path: 'Confidential.txt', content: 'For the partners only.' }],
    },
  ];
  const refusal = {
    code: 'duplicate',
    target: 'newTeam.channels[3].displayName',
    message: expect.stringContaining('regardless of case'),
  };

  test('a new template with two channels named alike but for case: 400 naming the second, nothing stored', async () => {
    const res = await put('legal-new', colliding);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validationFailed');
    expect(res.body.error.details).toEqual([refusal]);
    const read = await suite.app.call('GET', '/api/v1.0/catalog/templates/legal-new', { token: suite.patti });
    expect(read.status).toBe(404);
  });

  test('replacing a template with such channels: 400, the stored template unchanged', async () => {
    const first = await put('legal', [{ displayName: 'Contracts' }]);
    expect(first.status).toBe(200);
    const res = await put('legal', colliding);
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([refusal]);
    const read = await suite.app.call<CatalogTemplate>('GET', '/api/v1.0/catalog/templates/legal', {
      token: suite.patti,
    });
    expect(read.body.newTeam.channels.map((c) => c.displayName)).toEqual(['Contracts']);
  });

  test('a tab naming its channel in another case is pinned in that channel', async () => {
    const saved = await put(
      'legal-tabs',
      [{ displayName: 'Contracts', folders: ['Signed'] }],
      [{ channel: 'CONTRACTS', displayName: 'Register', teamsAppId: 'com.microsoft.teamspace.tab.web' }],
    );
    expect(saved.status).toBe(200);
    const created = await suite.app.call<Job>('POST', '/api/v1.0/teams/provisioning', {
      token: suite.alex,
      body: { template: { id: 'legal-tabs' }, team: { name: 'Legal tabs' } },
    });
    expect(created.status).toBe(201);
    const job = await waitForJob(suite.app, suite.alex, created.body.id);
    expect(job.status).toBe('completed');
    expect(job.log).toContain('Made 1 folder and 0 starter files in "Contracts".');
    expect(job.log).toContain('Created tabs: Register (CONTRACTS).');
  });
});
