import { PEOPLE, type TestSteward } from './steward';

/**
 * The two templates the sensitivity-label suites request from, both carrying `labelId`:
 * `labelled` (no approval) and `labelled-approved` (Adele approves); both put the label on with
 * the requester's authority, an owner of the team. `newTeam` adds to their private, requester-owned
 * team settings.
 */
export async function putLabelledTemplates(
  app: TestSteward,
  token: string,
  labelId: string,
  newTeam: Record<string, unknown> = {},
): Promise<void> {
  const put = (id: string, approval?: unknown) =>
    app.call('PUT', `/api/v1.0/catalog/templates/${id}`, {
      token,
      body: {
        templateConfiguration: { name: id, sensitivityLabelId: labelId, ...(approval ? { approval } : {}) },
        newTeam: { ...newTeam, teamPrivacy: 'private', addRequesterAsTeamOwner: true },
      },
    });
  expect((await put('labelled')).status).toBe(200);
  expect(
    (await put('labelled-approved', { requireApproval: true, approvalTeam: [{ id: PEOPLE.adele }] })).status,
  ).toBe(200);
}

/** The sensitivity label the platform's row of `teamId` carries. */
export async function teamLabel(app: TestSteward, teamId: string): Promise<string | null> {
  const row = await app.steward.store.db
    .selectFrom('platform_teams')
    .select('sensitivity_label_id')
    .where('id', '=', teamId)
    .executeTakeFirstOrThrow();
  return row.sensitivity_label_id;
}
