import type { Database } from '../../src/store/schema';
import type { TestSteward } from './steward';

/** How many rows `table` of the Steward's store holds. */
export async function rowCount(app: TestSteward, table: keyof Database): Promise<number> {
  const row = await app.steward.store.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
