import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import type { LifecycleDashboardRows, LifecycleTeamRow } from '../../domain/reports/model';
import type { ReportFilter } from '../reports/reports';
import type { Database } from '../schema';

type Lifecycle = ExpressionBuilder<Database, 'team_lifecycle'>;

/** Each list of the dashboard: which teams it holds on `today`, and the date it shows and sorts by. */
const LISTS = {
  expiringSoon: {
    on: 'expires_on',
    where: (eb: Lifecycle, today: string, soon: string) =>
      eb.and([eb('expires_on', '>', today), eb('expires_on', '<=', soon)]),
  },
  expired: { on: 'expires_on', where: (eb: Lifecycle, today: string) => eb('expires_on', '<=', today) },
  inactive: { on: 'inactive_on', where: (eb: Lifecycle, today: string) => eb('inactive_on', '<=', today) },
  ownerless: { on: 'ownerless_since', where: (eb: Lifecycle) => eb('ownerless_since', 'is not', null) },
  guestReviewsOverdue: {
    on: 'guest_review_due_on',
    // Due before today and not reviewed since (a review recorded after the last evaluation counts).
    where: (eb: Lifecycle, today: string) =>
      eb.and([
        eb('guest_review_due_on', '<', today),
        eb.or([
          eb('guest_reviewed_on', 'is', null),
          eb('guest_reviewed_on', '<', eb.ref('guest_review_due_on')),
        ]),
      ]),
  },
} as const;
type ListName = keyof typeof LISTS;

/**
 * The lifecycle dashboard's numbers, from what the evaluator keeps of each team (`team_lifecycle`:
 * its record and its standing at the last evaluation) and the `lifecycle` audit trail's renewals.
 * One scan of `team_lifecycle` for the counts, then the first `limit` teams of each list by date
 * (the dates are indexed), and renewals by the trail-and-action index: cheap at 100 000 teams,
 * and nothing is asked of the platform.
 */
export class LifecycleReportRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async dashboard(
    today: string,
    soon: string,
    filter: ReportFilter,
    limit: number,
  ): Promise<LifecycleDashboardRows> {
    const names = Object.keys(LISTS) as ListName[];
    const counted = await this.evaluated()
      .select((eb) => [
        eb.fn.countAll<number | string>().as('teams'),
        ...names.map((name) =>
          eb.fn
            .sum<number | string | null>(
              eb
                .case()
                .when(LISTS[name].where(eb, today, soon))
                .then(1)
                .else(0)
                .end(),
            )
            .as(name),
        ),
      ])
      .executeTakeFirstOrThrow();
    const lists = await Promise.all(names.map((name) => this.list(name, today, soon, limit)));
    const section = (name: ListName, i: number) => ({ count: Number(counted[name] ?? 0), teams: lists[i]! });
    return {
      today,
      teamsEvaluated: Number(counted.teams),
      expiringSoon: section('expiringSoon', 0),
      expired: section('expired', 1),
      inactive: section('inactive', 2),
      ownerless: section('ownerless', 3),
      guestReviewsOverdue: section('guestReviewsOverdue', 4),
      renewalsPerMonth: await this.renewalsPerMonth(filter),
    };
  }

  /** Teams evaluated at least once and not archived when they were. */
  private evaluated() {
    return this.db
      .selectFrom('team_lifecycle')
      .where('display_name', 'is not', null)
      .where((eb) => eb.or([eb('is_archived', 'is', null), eb('is_archived', '=', 0)]));
  }

  private async list(
    name: ListName,
    today: string,
    soon: string,
    limit: number,
  ): Promise<LifecycleTeamRow[]> {
    const { on, where } = LISTS[name];
    const rows = await this.evaluated()
      .where((eb) => where(eb, today, soon))
      .select(['team_id', 'display_name', `${on} as on`])
      .orderBy(on)
      .orderBy('team_id')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      teamId: row.team_id,
      displayName: row.display_name ?? row.team_id,
      on: row.on ?? '',
    }));
  }

  private async renewalsPerMonth(filter: ReportFilter): Promise<Array<{ month: string; count: number }>> {
    const month = sql<string>`substr(created_at, 1, 7)`;
    const rows = await this.db
      .selectFrom('audit_records')
      .select([month.as('month'), (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('trail', '=', 'lifecycle')
      .where('action', '=', 'team_renewed')
      .$if(filter.since !== undefined, (q) => q.where('created_at', '>=', filter.since!))
      .$if(filter.until !== undefined, (q) => q.where('created_at', '<', filter.until!))
      .groupBy(month)
      .orderBy(month)
      .execute();
    return rows.map((row) => ({ month: row.month, count: Number(row.n) }));
  }
}
