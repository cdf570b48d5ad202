import type { Kysely } from 'kysely';
import type { Database } from '../../src/store/schema';
import { writeQueuePaused } from '../../src/store/jobs/queuePause';
import type { TestResponse, TestSteward } from '../support/steward';

/** How many identical requests are fired at once. */
export const AT_ONCE = 6;

/** What an operation did, counted by kind: jobs by type, audit records by action and outcome, … */
export type Tally = Record<string, number>;

/**
 * One mutating operation, raced. `subject(k)` prepares what request `k` acts on (0: the requests
 * made one after another, 1: the requests made at once), so both start from the same state.
 */
export interface RaceCase {
  name: string;
  /**
   * `once`: a second identical request has no effect of its own (it gets the first one's answer or
   * a 409); `serial`: each request is an effect of its own (a PUT saving a version, a new hook), and
   * requests at once must do what the same requests do one after another.
   */
  mode: 'once' | 'serial';
  subject: (k: number) => Promise<string>;
  request: (subject: string) => Promise<TestResponse>;
  /** The statuses the requests one after another answer, first request first, when the case says. */
  answers?: number[];
}

/** The effects Steward records in its own tables, counted by kind. */
export async function tally(db: Kysely<Database>): Promise<Tally> {
  const counts: Tally = {};
  const add = (key: string, n: number | string | bigint) => {
    counts[key] = (counts[key] ?? 0) + Number(n);
  };
  const grouped = async (
    table: 'jobs' | 'outbox_events' | 'join_requests' | 'approvals' | 'team_labels',
    column: 'type' | 'status',
  ) => {
    const rows = await db
      .selectFrom(table)
      .select([column, (eb) => eb.fn.countAll<number | string>().as('n')])
      .groupBy(column)
      .execute();
    for (const row of rows as Array<Record<string, string> & { n: number | string }>)
      add(`${table}:${row[column]}`, row.n);
  };
  await grouped('jobs', 'type');
  await grouped('outbox_events', 'type');
  await grouped('join_requests', 'status');
  await grouped('approvals', 'status');
  await grouped('team_labels', 'status');
  // Who is in which team, in which role: a member added twice is one member.
  const members = await db
    .selectFrom('platform_members')
    .select(['role', (eb) => eb.fn.countAll<number | string>().as('n')])
    .groupBy('role')
    .execute();
  for (const row of members) add(`platform_members:${row.role}`, row.n);
  const records = await db
    .selectFrom('audit_records')
    .select(['action', 'outcome', (eb) => eb.fn.countAll<number | string>().as('n')])
    .groupBy(['action', 'outcome'])
    .execute();
  for (const row of records) add(`audit:${row.action}:${row.outcome}`, row.n);
  const counted = [
    'hooks',
    'template_versions',
    'platform_tabs',
    'platform_tags',
    'platform_channels',
    'team_metadata',
  ] as const;
  for (const table of counted) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    add(table, row.n);
  }
  return counts;
}

/** What changed from `before` to `after`, zeros left out. */
export function difference(before: Tally, after: Tally): Tally {
  const out: Tally = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const d = (after[key] ?? 0) - (before[key] ?? 0);
    if (d !== 0) out[key] = d;
  }
  return out;
}

/** What a race showed: the answers and effects of the requests one after another, and at once. */
export interface RaceOutcome {
  serial: { statuses: number[]; effects: Tally; afterFirst: Tally };
  atOnce: { statuses: number[]; effects: Tally; ids: string[] };
}

/**
 * Runs `race` with the job queue paused (so only the requests write): AT_ONCE requests one after
 * another on subject 0, then AT_ONCE identical requests at once on subject 1.
 */
export async function runRace(app: TestSteward, race: RaceCase): Promise<RaceOutcome> {
  const db = app.steward.store.db;
  const first = await race.subject(0);
  const second = await race.subject(1);
  await writeQueuePaused(db, true);
  try {
    const t0 = await tally(db);
    const statuses = [(await race.request(first)).status];
    const t1 = await tally(db);
    for (let i = 1; i < AT_ONCE; i++) statuses.push((await race.request(first)).status);
    const t2 = await tally(db);
    const answers = await Promise.all(Array.from({ length: AT_ONCE }, () => race.request(second)));
    const t3 = await tally(db);
    const ids = answers
      .filter((a) => a.status < 300)
      .map((a) => (a.body as { id?: string } | undefined)?.id ?? '')
      .filter((id) => id !== '');
    return {
      serial: { statuses, effects: difference(t0, t2), afterFirst: difference(t1, t2) },
      atOnce: { statuses: answers.map((a) => a.status), effects: difference(t2, t3), ids },
    };
  } finally {
    await writeQueuePaused(db, false);
    await drained(db);
  }
}

/** Resolves once no job due now is left to run, so the next race counts only its own requests. */
async function drained(db: Kysely<Database>): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const left = await db
      .selectFrom('jobs')
      .select('id')
      .where((eb) =>
        eb.or([
          eb('status', '=', 'active'),
          eb.and([
            eb('status', 'in', ['waiting', 'parked', 'delayed']),
            eb('queued', '=', 1),
            // Timers (an approval's reminder) are jobs due later: not waited for.
            eb('run_at', '<=', Date.now()),
          ]),
        ]),
      )
      .limit(1)
      .execute();
    if (left.length === 0) return;
    if (Date.now() > deadline) throw new Error('the queue did not drain');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The first request's status, then the status of every identical request after it. */
export const answers = (first: number, then = first): number[] => [
  first,
  ...Array.from({ length: AT_ONCE - 1 }, () => then),
];

/** The statuses, sorted, to compare answers regardless of which request won. */
export const sorted = (statuses: readonly number[]) => [...statuses].sort((a, b) => a - b);

/**
 * What every race must show: no 500, the requests at once answered and did what the same requests
 * did one after another, and, for a `once` operation, nothing after the first request's effect.
 */
export function expectOneAfterAnother(race: RaceCase, { serial, atOnce }: RaceOutcome): void {
  expect(atOnce.statuses.filter((s) => s >= 500)).toEqual([]);
  expect(serial.statuses.filter((s) => s >= 500)).toEqual([]);
  if (race.answers) expect(serial.statuses).toEqual(race.answers);
  expect({ statuses: sorted(atOnce.statuses), effects: atOnce.effects }).toEqual({
    statuses: sorted(serial.statuses),
    effects: serial.effects,
  });
  if (race.mode === 'once') {
    // The requests after the first changed nothing, and every success named the same resource.
    expect(serial.afterFirst).toEqual({});
    expect(new Set(atOnce.ids).size).toBeLessThanOrEqual(1);
    expect(atOnce.statuses).toHaveLength(AT_ONCE);
  }
}
