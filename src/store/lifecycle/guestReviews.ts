import type { Db } from '../schema';

/** A guest review as its write names it: its key (day and removed guests, hashed) and its answer. */
export interface GuestReviewWrite<T> {
  key: string;
  answer: T;
}

/**
 * Records a team's guest reviews in its `team_lifecycle` row: `guest_reviewed_on`, the day the
 * lifecycle decision counts the next review from (`decideLifecycle`: due `everyDays` after the last
 * review, else after the creation), and the last review's key and answer (migration 0025). Every
 * other column of the row is the evaluator's.
 */
export class GuestReviewRecords {
  /**
   * Notes that the team's guests were reviewed on `day` (YYYY-MM-DD), creating the row when the
   * evaluator has not, unless the last review recorded has the same key: then nothing is written
   * and that review's answer is returned. The row decides (its upsert changes it only when the key
   * differs; PostgreSQL waits for a review being written at the same moment and sees it), not a
   * read before the write.
   */
  async recordReview<T>(
    teamId: string,
    day: string,
    review: GuestReviewWrite<T>,
    now: Date,
    trx: Db,
  ): Promise<{ recorded: true } | { recorded: false; answer: T }> {
    const updatedAt = now.toISOString();
    const answer = JSON.stringify(review.answer);
    const written = await trx
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
        guest_review_key: review.key,
        guest_review: answer,
        last_activity_on: null,
        evaluated_on: null,
        updated_at: updatedAt,
      })
      .onConflict((oc) =>
        oc
          .column('team_id')
          .doUpdateSet({
            guest_reviewed_on: day,
            guest_review_key: review.key,
            guest_review: answer,
            updated_at: updatedAt,
          })
          .where((eb) =>
            eb.or([
              eb('team_lifecycle.guest_review_key', 'is', null),
              eb('team_lifecycle.guest_review_key', '!=', review.key),
            ]),
          ),
      )
      .returning('team_id')
      .executeTakeFirst();
    if (written) return { recorded: true };
    const row = await trx
      .selectFrom('team_lifecycle')
      .select('guest_review')
      .where('team_id', '=', teamId)
      .executeTakeFirstOrThrow();
    return { recorded: false, answer: JSON.parse(row.guest_review ?? 'null') as T };
  }
}
