import type { CatalogTemplate, TemplateChange, TemplateVersion } from '../../contract';
import { changeSummary, templateDiff } from '../../domain/drift/templateDiff';
import type { Database, Db } from '../schema';

/** Who saved a version, from their token. */
export interface VersionAuthor {
  id: string;
  name: string | null;
}

/** The versions of the catalog's templates: one row per save, with what changed from the previous one. */
export class TemplateVersionRepository {
  constructor(private readonly db: Db) {}

  /**
   * Records `version` of a template with its differences from the version before. Runs in the
   * transaction that saved the template, which holds the template's row, so versions are written
   * in order.
   */
  async append(
    trx: Db,
    entry: {
      templateId: string;
      version: number;
      template: CatalogTemplate;
      author?: VersionAuthor;
      now: string;
    },
  ): Promise<void> {
    const previous = await trx
      .selectFrom('template_versions')
      .select('document')
      .where('template_id', '=', entry.templateId)
      .where('version', '<', entry.version)
      .orderBy('version', 'desc')
      .limit(1)
      .executeTakeFirst();
    const changes = previous ? templateDiff(JSON.parse(previous.document), entry.template) : [];
    await trx
      .insertInto('template_versions')
      .values({
        template_id: entry.templateId,
        version: entry.version,
        created_at: entry.now,
        actor_id: entry.author?.id ?? null,
        actor_name: entry.author?.name ?? null,
        document: JSON.stringify(entry.template),
        changes: JSON.stringify(changes),
        summary: changeSummary(changes, !previous),
      })
      .execute();
  }

  /** A page of a template's versions, newest first, and how many there are. */
  async list(
    templateId: string,
    page: { top: number; skip: number },
  ): Promise<{ versions: TemplateVersion[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.db
        .selectFrom('template_versions')
        .selectAll()
        .where('template_id', '=', templateId)
        .orderBy('version', 'desc')
        .limit(page.top)
        .offset(page.skip)
        .execute(),
      this.db
        .selectFrom('template_versions')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('template_id', '=', templateId)
        .executeTakeFirstOrThrow(),
    ]);
    return { versions: rows.map(toWire), total: Number(count.n) };
  }

  /** One version's document, or undefined. */
  async document(templateId: string, version: number): Promise<CatalogTemplate | undefined> {
    const row = await this.db
      .selectFrom('template_versions')
      .select('document')
      .where('template_id', '=', templateId)
      .where('version', '=', version)
      .executeTakeFirst();
    return row && (JSON.parse(row.document) as CatalogTemplate);
  }
}

function toWire(row: Database['template_versions']): TemplateVersion {
  return {
    templateId: row.template_id,
    version: Number(row.version),
    createdDateTime: row.created_at,
    createdBy: row.actor_id ? { id: row.actor_id, displayName: row.actor_name } : null,
    summary: row.summary,
    changes: JSON.parse(row.changes) as TemplateChange[],
  };
}
