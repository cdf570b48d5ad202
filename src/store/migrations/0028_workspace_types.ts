import type { Kysely } from 'kysely';

/**
 * Templates gain a workspace type (`templateConfiguration.workspaceType`; `contract/workspaceTypes.ts`):
 * every template saved before is a team template. A stored template is its whole document with
 * its defaults applied, so the templates and their saved versions get the field, `team`, and a
 * version saved next differs from the one before by what its author changed only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const trx = db as Kysely<Tables>;
  for (const row of await trx.selectFrom('catalog_templates').select(['id', 'document']).execute()) {
    const typed = withTeamType(row.document);
    if (typed !== undefined)
      await trx.updateTable('catalog_templates').set({ document: typed }).where('id', '=', row.id).execute();
  }
  const versions = await trx
    .selectFrom('template_versions')
    .select(['template_id', 'version', 'document'])
    .execute();
  for (const row of versions) {
    const typed = withTeamType(row.document);
    if (typed === undefined) continue;
    await trx
      .updateTable('template_versions')
      .set({ document: typed })
      .where('template_id', '=', row.template_id)
      .where('version', '=', row.version)
      .execute();
  }
}

/** The field stays: a document with it is read the same by the code of before. */
export async function down(): Promise<void> {}

interface Tables {
  catalog_templates: { id: string; document: string };
  template_versions: { template_id: string; version: number; document: string };
}

/** The document with `workspaceType: "team"` after its name, or undefined when it needs none. */
function withTeamType(text: string): string | undefined {
  let template: unknown;
  try {
    template = JSON.parse(text);
  } catch {
    return undefined;
  }
  const config = (template as { templateConfiguration?: unknown } | null)?.templateConfiguration;
  if (typeof config !== 'object' || config === null || 'workspaceType' in config) return undefined;
  const typed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    typed[key] = value;
    if (key === 'name') typed.workspaceType = 'team';
  }
  typed.workspaceType ??= 'team';
  return JSON.stringify({ ...(template as object), templateConfiguration: typed });
}
