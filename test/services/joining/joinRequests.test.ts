import type {
  DirectoryTeam,
  DirectoryTeams,
  Job,
  JoinRequest,
  JoinRequests,
  TeamMember,
  TeamRequestPreview,
} from '../../../src/contract';
import { databaseKinds } from '../../support/databases';
import { waitForJob, suiteJobSteward } from '../../support/jobs';
import { PEOPLE, NAMED } from '../../support/steward';

type Payload = Record<string, unknown> & { joinRequest?: { id?: string } };

describe.each(databaseKinds)('the team directory and requests to join teams on %s', (kind) => {
  let contoso: { id: string; displayName: string };

  const api = '/api/v1.0';
  const makeTeam = async (token: string, template: string, name: string, description?: string) => {
    const res = await suite.app.call<Job>('POST', `${api}/teams/provisioning`, {
      token,
      body: { template: { id: template }, team: { name, ...(description ? { description } : {}) } },
    });
    expect(res.status).toBe(201);
    const job = await waitForJob(suite.app, token, res.body.id);
    expect(job.status).toBe('completed');
    return job.data.team as { id: string; displayName: string };
  };
  const listed = async (teamId: string, show: boolean) => {
    const res = await suite.app.call('PATCH', `${api}/teams/${teamId}`, {
      token: suite.megan,
      body: { discoverySettings: { showInTeamsSearchAndSuggestions: show } },
    });
    expect(res.status).toBe(204);
  };
  const search = async (token: string, words: string) => {
    const res = await suite.app.call<DirectoryTeams>(
      'GET',
      `${api}/directory/teams?search=${encodeURIComponent(words)}`,
      { token },
    );
    expect(res.status).toBe(200);
    return res.body.value;
  };
  const events = async (type: string, joinRequestId: string) =>
    (
      await suite.app.steward.store.db
        .selectFrom('outbox_events')
        .selectAll()
        .where('type', '=', type)
        .execute()
    )
      .map((row) => JSON.parse(row.payload) as Payload)
      .filter((payload) => payload.joinRequest?.id === joinRequestId);
  const auditActions = async (joinRequestId: string) =>
    (
      await suite.app.steward.store.db
        .selectFrom('audit_records')
        .selectAll()
        .where('trail', '=', 'teams')
        .orderBy('seq')
        .execute()
    )
      .filter((row) => (JSON.parse(row.details ?? '{}') as Payload).joinRequestId === joinRequestId)
      .map((row) => row.action);
  const waitForStatus = async (token: string, id: string, status: string): Promise<JoinRequest> => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const res = await suite.app.call<JoinRequest>('GET', `${api}/joinRequests/${id}`, { token });
      expect(res.status).toBe(200);
      if (res.body.status === status) return res.body;
      if (Date.now() > deadline) throw new Error(`join request still ${res.body.status}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  const memberIds = async (teamId: string) =>
    (
      await suite.app.call<TeamMember[]>('GET', `${api}/teams/${teamId}/members`, { token: suite.megan })
    ).body.map((m) => m.userId);

  const suite = suiteJobSteward(kind, {
    isaiah: NAMED.isaiah,
    patti: NAMED.patti,
    lynne: { ...NAMED.lynne, roles: ['GOVERNANCE_MANAGER'] },
    megan: { ...NAMED.megan, roles: ['GLOBAL_ADMIN'] },
  });
  beforeAll(async () => {
    contoso = await makeTeam(suite.alex, 'project', 'Contoso deal', 'Closing the Contoso deal');
    await listed(contoso.id, false);
  });

  test('the directory shows a private team to its members and governance managers, never to a stranger', async () => {
    expect(await search(suite.isaiah, 'Contoso deal')).toEqual([]);
    const mine = await search(suite.alex, 'contoso DEAL team');
    expect(mine).toEqual([
      expect.objectContaining<Partial<DirectoryTeam>>({
        id: contoso.id,
        displayName: 'PRJ-Contoso deal',
        visibility: 'private',
        template: { id: 'project', name: 'Project team' },
        owners: [{ id: PEOPLE.alex, displayName: expect.any(String) }],
        memberCount: 1,
        webUrl: expect.stringContaining('http'),
        access: 'member',
      }),
    ]);
    expect((await search(suite.lynne, 'contoso')).map((t) => t.id)).toEqual([contoso.id]);
    // A stranger cannot ask to join what they may not see: the team does not exist to them.
    const hidden = await suite.app.call('POST', `${api}/teams/${contoso.id}/joinRequests`, {
      token: suite.isaiah,
      body: {},
    });
    expect(hidden.status).toBe(404);
    // Listed in Teams' search and suggestions: its name is shown to everyone, and it may be asked for.
    await listed(contoso.id, true);
    expect(await search(suite.isaiah, 'PRJ-Contoso')).toEqual([
      expect.objectContaining({ id: contoso.id, access: 'request' }),
    ]);
  });

  test('ask to join → the owners are told → a non-owner is refused → approve → job → member added', async () => {
    const asked = await suite.app.call<JoinRequest>('POST', `${api}/teams/${contoso.id}/joinRequests`, {
      token: suite.isaiah,
      body: { message: 'I run the legal side of this deal.' },
    });
    expect(asked.status).toBe(201);
    expect(asked.headers.location).toMatch(new RegExp(`/joinRequests/${asked.body.id}$`));
    expect(asked.body).toMatchObject({ status: 'pending', direct: false, decision: null, jobId: null });
    const id = asked.body.id;
    const again = await suite.app.call('POST', `${api}/teams/${contoso.id}/joinRequests`, {
      token: suite.isaiah,
      body: {},
    });
    expect(again.status).toBe(409);
    const [requested] = await events('team_join_requested', id);
    expect(requested).toMatchObject({
      team: { id: contoso.id },
      requester: { id: PEOPLE.isaiah, displayName: 'Isaiah Langer' },
      owners: [{ id: PEOPLE.alex }],
      joinRequest: { id, message: 'I run the legal side of this deal.', direct: false },
    });

    // The owners list it; the asker lists their own; nobody else may decide.
    const forOwners = await suite.app.call<JoinRequests>(
      'GET',
      `${api}/teams/${contoso.id}/joinRequests?status=pending`,
      {
        token: suite.alex,
      },
    );
    expect(forOwners.body.value.map((r) => r.id)).toEqual([id]);
    const own = await suite.app.call<JoinRequests>('GET', `${api}/me/joinRequests`, { token: suite.isaiah });
    expect(own.body.value.map((r) => r.id)).toEqual([id]);
    expect(
      (await suite.app.call('GET', `${api}/teams/${contoso.id}/joinRequests`, { token: suite.isaiah }))
        .status,
    ).toBe(404);
    for (const token of [suite.isaiah, suite.adele]) {
      const refused = await suite.app.call('POST', `${api}/joinRequests/${id}/decision`, {
        token,
        body: { decision: 'approve' },
      });
      expect(refused.status).toBe(403);
    }
    expect(await memberIds(contoso.id)).not.toContain(PEOPLE.isaiah);

    const approved = await suite.app.call<JoinRequest>('POST', `${api}/joinRequests/${id}/decision`, {
      token: suite.alex,
      body: { decision: 'approve', comment: 'Welcome aboard.' },
    });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      status: 'approved',
      decision: { decision: 'approve', by: { id: PEOPLE.alex }, comment: 'Welcome aboard.' },
      jobId: expect.any(String),
    });
    const joined = await waitForStatus(suite.isaiah, id, 'joined');
    expect(joined.failedReason).toBeNull();
    expect(await memberIds(contoso.id)).toContain(PEOPLE.isaiah);
    const twice = await suite.app.call('POST', `${api}/joinRequests/${id}/decision`, {
      token: suite.alex,
      body: { decision: 'decline' },
    });
    expect(twice.status).toBe(409);
    expect(await events('team_join_decided', id)).toEqual([
      expect.objectContaining({
        requester: { id: PEOPLE.isaiah, displayName: 'Isaiah Langer' },
        decidedBy: { id: PEOPLE.alex, displayName: 'Alex Wilber' },
        joinRequest: { id, decision: 'approve', comment: 'Welcome aboard.', direct: false },
      }),
    ]);
    expect(await events('team_member_joined', id)).toHaveLength(1);
    expect(await auditActions(id)).toEqual(['join_requested', 'join_decided', 'member_joined']);
    // Now a member: asking again is a conflict, not a second request.
    expect(
      (
        await suite.app.call('POST', `${api}/teams/${contoso.id}/joinRequests`, {
          token: suite.isaiah,
          body: {},
        })
      ).status,
    ).toBe(409);
  });

  test('decline: the asker is told with the comment, nobody is added', async () => {
    const asked = await suite.app.call<JoinRequest>('POST', `${api}/teams/${contoso.id}/joinRequests`, {
      token: suite.patti,
      body: {},
    });
    expect(asked.status).toBe(201);
    expect(asked.body.message).toBeNull();
    // A governance manager may decide on any team's requests.
    const declined = await suite.app.call<JoinRequest>(
      'POST',
      `${api}/joinRequests/${asked.body.id}/decision`,
      {
        token: suite.lynne,
        body: { decision: 'decline', comment: 'This deal is confidential.' },
      },
    );
    expect(declined.status).toBe(200);
    expect(declined.body).toMatchObject({ status: 'declined', jobId: null });
    expect(await events('team_join_decided', asked.body.id)).toEqual([
      expect.objectContaining({
        joinRequest: expect.objectContaining({ decision: 'decline', comment: 'This deal is confidential.' }),
      }),
    ]);
    expect(await memberIds(contoso.id)).not.toContain(PEOPLE.patti);
    expect(await auditActions(asked.body.id)).toEqual(['join_requested', 'join_decided']);
  });

  test('a public team whose template allows it is joined without approval; without the flag the owners decide', async () => {
    const put = await suite.app.call('PUT', `${api}/catalog/templates/open-club`, {
      token: suite.megan,
      body: {
        templateConfiguration: { name: 'Open club', allowDirectJoin: true },
        newTeam: { teamPrivacy: 'public' },
      },
    });
    expect(put.status).toBe(200);
    const club = await makeTeam(suite.alex, 'open-club', 'Running club');
    const joined = await suite.app.call<JoinRequest>('POST', `${api}/teams/${club.id}/joinRequests`, {
      token: suite.adele,
      body: { message: 'Count me in!' },
    });
    expect(joined.status).toBe(201);
    expect(joined.body).toMatchObject({ status: 'approved', direct: true, jobId: expect.any(String) });
    await waitForStatus(suite.adele, joined.body.id, 'joined');
    expect(await memberIds(club.id)).toContain(PEOPLE.adele);
    expect(await auditActions(joined.body.id)).toEqual(['join_requested', 'member_joined']);

    const strict = await suite.app.call('PUT', `${api}/catalog/templates/public-no-join`, {
      token: suite.megan,
      body: { templateConfiguration: { name: 'Public, owners decide' }, newTeam: { teamPrivacy: 'public' } },
    });
    expect(strict.status).toBe(200);
    const reading = await makeTeam(suite.alex, 'public-no-join', 'Reading circle');
    const pending = await suite.app.call<JoinRequest>('POST', `${api}/teams/${reading.id}/joinRequests`, {
      token: suite.adele,
      body: {},
    });
    expect(pending.body).toMatchObject({ status: 'pending', direct: false });
    // The flag is validated like every template field.
    const bad = await suite.app.call('PUT', `${api}/catalog/templates/bad-flag`, {
      token: suite.megan,
      body: { templateConfiguration: { name: 'Bad', allowDirectJoin: 'sometimes' } },
    });
    expect(bad.status).toBe(400);
  });

  test('a provisioning request and its preview warn of alike teams the requester may see, and are made all the same', async () => {
    const mercury = await makeTeam(suite.alex, 'project', 'Mercury');
    await listed(mercury.id, false);
    const made = await suite.app.call<Job>('POST', `${api}/teams/provisioning`, {
      token: suite.patti,
      body: { template: { id: 'project' }, team: { name: 'Contoso Deal Team' } },
    });
    expect(made.status).toBe(201);
    expect(made.body.similarTeams).toEqual([
      expect.objectContaining({
        id: contoso.id,
        reason: 'name',
        access: 'request',
        owners: [expect.anything()],
      }),
    ]);
    // The request was made: exactly one job, which completes.
    expect((await waitForJob(suite.app, suite.patti, made.body.id)).status).toBe('completed');
    // A private team not listed is no warning to a stranger, but is to its members.
    const stranger = await suite.app.call<TeamRequestPreview>('POST', `${api}/teams/provisioning/preview`, {
      token: suite.isaiah,
      body: { template: { id: 'project' }, team: { name: 'Mercury project' } },
    });
    expect(stranger.status).toBe(200);
    expect(stranger.body.similarTeams).toEqual([]);
    const preview = await suite.app.call<TeamRequestPreview>('POST', `${api}/teams/provisioning/preview`, {
      token: suite.alex,
      body: { template: { id: 'project' }, team: { name: 'Mercury project' } },
    });
    expect(preview.status).toBe(200);
    expect(preview.body.similarTeams?.map((t) => [t.id, t.access])).toEqual([[mercury.id, 'member']]);
  });

  test('a naming convention’s prefix, the same on every team of a template, is no sign of a duplicate', async () => {
    const put = await suite.app.call('PUT', `${api}/catalog/templates/acme-eu`, {
      token: suite.megan,
      body: {
        templateConfiguration: { name: 'Acme Europe' },
        newTeam: { namingConvention: 'ACME-EU-<%= request.team.name %>' },
      },
    });
    expect(put.status).toBe(200);
    const globex = await makeTeam(suite.alex, 'acme-eu', 'Globex');
    const preview = (name: string) =>
      suite.app.call<TeamRequestPreview>('POST', `${api}/teams/provisioning/preview`, {
        token: suite.alex,
        body: { template: { id: 'acme-eu' }, team: { name } },
      });
    expect((await preview('Initech')).body.similarTeams).toEqual([]);
    expect((await preview('Globex')).body.similarTeams?.map((t) => t.id)).toEqual([globex.id]);
    // The directory finds a team by its final name too.
    expect((await search(suite.alex, 'ACME-EU-Globex')).map((t) => t.id)).toEqual([globex.id]);
  });

  test('bad input is a 400 naming the problem, never a 500, and nothing is written', async () => {
    const before = await suite.app.steward.store.db.selectFrom('join_requests').selectAll().execute();
    const cases: Array<[string, string, unknown]> = [
      ['POST', `/teams/${contoso.id}/joinRequests`, { message: 'x'.repeat(501) }],
      ['POST', `/teams/${contoso.id}/joinRequests`, { message: 42 }],
      ['POST', `/teams/${contoso.id}/joinRequests`, { message: 'hi', extra: true }],
      ['POST', `/teams/bad%20id/joinRequests`, {}],
      ['POST', `/joinRequests/not*an*id/decision`, { decision: 'approve' }],
      ['POST', `/joinRequests/${'a'.repeat(64)}/decision`, { decision: 'maybe' }],
      [
        'POST',
        `/joinRequests/${'a'.repeat(64)}/decision`,
        { decision: 'approve', comment: 'x'.repeat(1001) },
      ],
      ['GET', `/directory/teams?search=`, undefined],
      ['GET', `/directory/teams?search=a&$top=0`, undefined],
      ['GET', `/directory/teams?search=a&$top=26`, undefined],
      ['GET', `/directory/teams`, undefined],
      ['GET', `/teams/${contoso.id}/joinRequests?status=lost`, undefined],
    ];
    for (const [method, path, body] of cases) {
      const res = await suite.app.call(method, `${api}${path}`, { token: suite.patti, body });
      expect([path, res.status]).toEqual([path, 400]);
      expect(res.body).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
    }
    const unknown = await suite.app.call('POST', `${api}/joinRequests/${'a'.repeat(64)}/decision`, {
      token: suite.alex,
      body: { decision: 'approve' },
    });
    expect(unknown.status).toBe(404);
    expect(await suite.app.steward.store.db.selectFrom('join_requests').selectAll().execute()).toEqual(
      before,
    );
  });
});
