import { migrate } from '../../../src/store/database';
import { TemplateRepository } from '../../../src/store/catalog/templates';
import { CatalogTemplate } from '../../../src/contract';
import { databaseKinds, eachEmptyStore } from '../../support/databases';

/**
 * Migration 0028 on a store that has lived: every template saved before workspace types existed,
 * and each of its versions, becomes a team template, so the version saved next differs from the
 * one before by its author's change only.
 */
describe.each(databaseKinds)('migration 0028 on %s', (kind) => {
  const empty = eachEmptyStore(kind);

  test('templates and their versions saved before are team templates', async () => {
    const store = await empty.before('0027_hook_creator_kind');
    // A document as the code of before stored it: its defaults applied, no workspace type.
    const old = CatalogTemplate.parse({
      templateConfiguration: { id: 'project', name: 'Project team' },
      newTeam: { channels: [{ displayName: 'Planning' }] },
    });
    delete (old.templateConfiguration as { workspaceType?: string }).workspaceType;
    const document = JSON.stringify(old);
    const at = '2026-01-01T00:00:00.000Z';
    await store.db
      .insertInto('catalog_templates')
      .values({
        id: 'project',
        name: 'Project team',
        enabled: 1,
        document,
        revision: 1,
        version: 1,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await store.db
      .insertInto('template_versions')
      .values({
        template_id: 'project',
        version: 1,
        created_at: at,
        actor_id: null,
        actor_name: null,
        document,
        changes: '[]',
        summary: 'Created.',
      })
      .execute();

    await migrate(store.db);

    const templates = new TemplateRepository(store.db);
    const stored = await templates.get('project');
    expect(stored?.template.templateConfiguration.workspaceType).toBe('team');
    expect(stored?.template.newTeam.channels).toEqual([
      { displayName: 'Planning', membershipType: 'standard' },
    ]);
    expect((await templates.versions.document('project', 1))?.templateConfiguration.workspaceType).toBe(
      'team',
    );

    // Saved again with one change: that change is the version's only difference.
    const renamed = CatalogTemplate.parse({
      ...stored!.template,
      templateConfiguration: { ...stored!.template.templateConfiguration, description: 'Projects.' },
    });
    await templates.put(renamed, '2026-02-01T00:00:00.000Z');
    const { versions } = await templates.versions.list('project', { top: 1, skip: 0 });
    expect(versions[0]!.changes.map((c) => c.path)).toEqual(['templateConfiguration.description']);
  });
});
