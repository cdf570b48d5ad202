import { type Kysely, sql, type Transaction } from 'kysely';
import { contains, isJsonObject, type JsonObject, leaves } from '../../domain/metadata';
import { isPostgres } from '../dialect';
import type { Database, Db } from '../schema';

/** The most teams a containment query returns (the first ones by team id). */
export const MAX_QUERY_RESULTS = 10_000;
/** The most leaves of a query used to narrow the candidates on SQLite; the exact check does the rest. */
const MAX_FILTER_LEAVES = 50;
/** Candidates confirmed per round trip on SQLite. */
const CONFIRM_BATCH = 500;
/** How far a leaf's documents are counted to find the rarest leaf of a query on SQLite. */
const SELECTIVITY_PROBE = 2_000;

/**
 * Per-team metadata documents, one JSON object per team and namespace. On SQLite every write also
 * rewrites the document's leaves in `team_metadata_values`, in the same transaction.
 */
export class MetadataRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Replaces the document of `teamId` in `namespace` (creating it if needed), inside `outer` when given. */
  async put(
    teamId: string,
    namespace: string,
    document: Record<string, unknown>,
    now: Date,
    outer?: Transaction<Database>,
  ): Promise<void> {
    if (outer) return write(outer, teamId, namespace, document, now);
    await this.db.transaction().execute((trx) => write(trx, teamId, namespace, document, now));
  }

  /** The document of `teamId` in `namespace`, if any. */
  async get(teamId: string, namespace: string): Promise<Record<string, unknown> | undefined> {
    return read(this.db, teamId, namespace, false);
  }

  /**
   * Replaces the document with `change(current)` (`{}` when there is none) in one transaction that
   * holds the row against concurrent updates (inside `outer` when given); a throwing `change` writes nothing.
   */
  async update(
    teamId: string,
    namespace: string,
    change: (current: JsonObject) => JsonObject,
    now: Date,
    outer?: Transaction<Database>,
  ): Promise<JsonObject> {
    const work = async (trx: Transaction<Database>) => {
      if (isPostgres(trx)) {
        // Make the row exist first, so that FOR UPDATE has something to lock even for a new document.
        await trx
          .insertInto('team_metadata')
          .values({ team_id: teamId, namespace, document: '{}', updated_at: now.toISOString() })
          .onConflict((oc) => oc.columns(['team_id', 'namespace']).doNothing())
          .execute();
      }
      const current = ((await read(trx, teamId, namespace, true)) ?? {}) as JsonObject;
      const next = change(current);
      await write(trx, teamId, namespace, next, now);
      return next;
    };
    return outer ? work(outer) : this.db.transaction().execute(work);
  }

  /**
   * The ids of the teams whose document in `namespace` contains `query` (jsonb `@>` semantics),
   * ordered by id, at most MAX_QUERY_RESULTS.
   */
  async query(namespace: string, query: JsonObject): Promise<string[]> {
    if (isPostgres(this.db)) {
      const rows = await this.db
        .selectFrom('team_metadata')
        .select('team_id')
        .where('namespace', '=', namespace)
        .where(sql<boolean>`document @> ${JSON.stringify(query)}::jsonb`)
        .orderBy('team_id')
        .limit(MAX_QUERY_RESULTS)
        .execute();
      return rows.map((r) => r.team_id);
    }
    const found: string[] = [];
    let after = '';
    for (;;) {
      const candidates = await this.candidates(namespace, query, after);
      if (candidates.length === 0) return found;
      const rows = await this.db
        .selectFrom('team_metadata')
        .select(['team_id', 'document'])
        .where('namespace', '=', namespace)
        .where('team_id', 'in', candidates)
        .orderBy('team_id')
        .execute();
      for (const row of rows) {
        if (contains(parse(row.document), query)) found.push(row.team_id);
        if (found.length === MAX_QUERY_RESULTS) return found;
      }
      after = candidates[candidates.length - 1]!;
    }
  }

  /** SQLite: the next team ids after `after` that hold every (filtering) leaf of `query`. */
  private async candidates(namespace: string, query: JsonObject, after: string): Promise<string[]> {
    const wanted = leaves(query).slice(0, MAX_FILTER_LEAVES);
    if (wanted.length === 0) {
      const rows = await this.db
        .selectFrom('team_metadata')
        .select('team_id')
        .where('namespace', '=', namespace)
        .where('team_id', '>', after)
        .orderBy('team_id')
        .limit(CONFIRM_BATCH)
        .execute();
      return rows.map((r) => r.team_id);
    }
    // Drive from the rarest leaf and check the others by index look-ups: the cost follows the most
    // selective part of the query, not the most common one (a region shared by a third of all teams).
    const counted: Array<{ leaf: (typeof wanted)[number]; n: number }> = [];
    for (const leaf of wanted) {
      const n = await this.countUpTo(namespace, leaf, SELECTIVITY_PROBE);
      if (n === 0) return [];
      counted.push({ leaf, n });
    }
    counted.sort((a, b) => a.n - b.n);
    const [driver, ...others] = counted.map((c) => c.leaf);
    const rows = await this.db
      .selectFrom('team_metadata_values as d')
      .select('d.team_id')
      .where('d.namespace', '=', namespace)
      .where('d.path', '=', driver!.path)
      .where('d.value', '=', driver!.value)
      .where('d.team_id', '>', after)
      .where((eb) =>
        eb.and(
          others.map((leaf) =>
            eb.exists(
              eb
                .selectFrom('team_metadata_values as o')
                .select('o.team_id')
                .where('o.namespace', '=', namespace)
                .where('o.path', '=', leaf.path)
                .where('o.value', '=', leaf.value)
                .whereRef('o.team_id', '=', 'd.team_id'),
            ),
          ),
        ),
      )
      .orderBy('d.team_id')
      .limit(CONFIRM_BATCH)
      .execute();
    return rows.map((r) => r.team_id);
  }

  /** SQLite: how many documents hold `leaf`, counting no further than `cap` (a bounded index scan). */
  private async countUpTo(
    namespace: string,
    leaf: { path: string; value: string },
    cap: number,
  ): Promise<number> {
    const row = await this.db
      .selectFrom((eb) =>
        eb
          .selectFrom('team_metadata_values')
          .select('team_id')
          .where('namespace', '=', namespace)
          .where('path', '=', leaf.path)
          .where('value', '=', leaf.value)
          .limit(cap)
          .as('hits'),
      )
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }
}

/** The stored document: jsonb arrives parsed from PostgreSQL, text from SQLite. */
function parse(document: string | Record<string, unknown>): JsonObject {
  const value: unknown = typeof document === 'string' ? JSON.parse(document) : document;
  return (isJsonObject(value) ? value : {}) as JsonObject;
}

async function read(
  db: Db,
  teamId: string,
  namespace: string,
  forUpdate: boolean,
): Promise<JsonObject | undefined> {
  let select = db
    .selectFrom('team_metadata')
    .select('document')
    .where('team_id', '=', teamId)
    .where('namespace', '=', namespace);
  if (forUpdate && isPostgres(db)) select = select.forUpdate();
  const row = await select.executeTakeFirst();
  return row && parse(row.document);
}

async function write(
  trx: Transaction<Database>,
  teamId: string,
  namespace: string,
  document: Record<string, unknown>,
  now: Date,
): Promise<void> {
  const values = { document: JSON.stringify(document), updated_at: now.toISOString() };
  await trx
    .insertInto('team_metadata')
    .values({ team_id: teamId, namespace, ...values })
    .onConflict((oc) => oc.columns(['team_id', 'namespace']).doUpdateSet(values))
    .execute();
  if (isPostgres(trx)) return;
  await trx
    .deleteFrom('team_metadata_values')
    .where('team_id', '=', teamId)
    .where('namespace', '=', namespace)
    .execute();
  const rows = leaves(document as JsonObject).map((leaf) => ({ team_id: teamId, namespace, ...leaf }));
  // A 64 KiB document has a few thousand leaves at most; batches stay under SQLite's variable limit.
  for (let i = 0; i < rows.length; i += 200) {
    await trx
      .insertInto('team_metadata_values')
      .values(rows.slice(i, i + 200))
      .execute();
  }
}
