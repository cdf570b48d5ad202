import type { TestSteward } from './steward';

/** Directory people the tests invite into teams as guests. */
export const GUESTS = {
  zoe: { id: '00000000-0000-0000-0000-000000000026', displayName: 'Zoé Lefèvre' },
  jurgen: { id: '00000000-0000-0000-0000-000000000027', displayName: 'Jürgen Groß' },
} as const;

/**
 * Invites `userIds` into a team of the embedded tenant as guests. The simulated tenant has no
 * invitation flow (Graph's guests arrive through Entra B2B), so the test writes the membership the
 * way the platform stores a guest: a `platform_members` row whose role is `guest`.
 */
export async function inviteGuests(
  app: TestSteward,
  teamId: string,
  userIds: readonly string[],
): Promise<void> {
  const now = new Date().toISOString();
  await app.steward.store.db
    .insertInto('platform_members')
    .values(
      userIds.map((userId) => ({
        id: `guest-${teamId}-${userId}`,
        team_id: teamId,
        user_id: userId,
        role: 'guest',
        created_at: now,
      })),
    )
    .execute();
}

/** Resolves once the job `jobId` has ended (jobs the API does not show, such as `LifecycleChange`). */
export async function jobEnded(app: TestSteward, jobId: string, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await app.steward.store.db
      .selectFrom('jobs')
      .select(['status', 'log'])
      .where('id', '=', jobId)
      .executeTakeFirst();
    if (row && (row.status === 'completed' || row.status === 'failed')) return row.status;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${row?.status ?? 'absent'}: ${row?.log}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
