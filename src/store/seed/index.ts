import { CatalogTemplate } from '../../contract';
import type { Store } from '../database';
import { DirectoryRepository } from '../directory/directory';
import { TemplateRepository } from '../catalog/templates';
import { seedApps, seedGroups, seedLabels, seedUsers } from './directory';
import { seedTemplates } from './templates';

const SEEDED_KEY = 'demo_data_seeded_at';

/**
 * Fills an empty embedded store with the demo directory and catalog, once. Returns false when the
 * store was seeded before (or already holds people), so a restart never overwrites edits.
 */
export async function seedDemoData(store: Store, now: Date = new Date()): Promise<boolean> {
  const marker = await store.db
    .selectFrom('steward_meta')
    .select('value')
    .where('key', '=', SEEDED_KEY)
    .executeTakeFirst();
  const directory = new DirectoryRepository(store.db);
  if (marker || !(await directory.isEmpty())) return false;
  await directory.write({ users: seedUsers, groups: seedGroups, labels: seedLabels, apps: seedApps });
  const templates = new TemplateRepository(store.db);
  for (const input of seedTemplates) await templates.put(CatalogTemplate.parse(input), now.toISOString());
  await store.db
    .insertInto('steward_meta')
    .values({ key: SEEDED_KEY, value: now.toISOString() })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  return true;
}
