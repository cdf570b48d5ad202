import type { Db } from '../schema';

/**
 * Records a team's guest reviews in its `team_lifecycle` row: only `guest_reviewed_on`, the day
 * the lifecycle decision counts the next review from (`decideLifecycle`: due `everyDays` after
 * the last review, else after the creation). Every other column of the row is the evaluator's.
 */
export class GuestReviewRecords {
  /** Notes that the team's guests were reviewed on `day` (YYYY-MM-DD), creating the row when the evaluator has not. */
  async recordReview(teamId: string, day: string, now: Date, trx: Db): Promise<void> {
    const updatedAt = now.toISOString();
    await trx
      .insertInto('team_lifecycle')
      .values({
        team_id: teamId,
        renewals: 0,
        renewed_on: null,
        renewed_by: null,
        notices_sent: '[]',
        expired_for: null,
        inactive_for: null,
        ownerless_since: null,
        guest_reviewed_on: day,
        guest_review_due_for: null,
        last_activity_on: null,
        evaluated_on: null,
        updated_at: updatedAt,
      })
      .onConflict((oc) => oc.column('team_id').doUpdateSet({ guest_reviewed_on: day, updated_at: updatedAt }))
      .execute();
  }
}
