import type { Kysely, Transaction } from 'kysely';
import type { CatalogTemplate } from '../../contract';
import { isPostgres } from '../dialect';
import type { Database } from '../schema';
import { TemplateVersionRepository, type VersionAuthor } from './templateVersions';

/** A stored template and its bookkeeping. */
export interface StoredTemplate {
  template: CatalogTemplate;
  revision: number;
  /** The current version (`template_versions`). */
  version: number;
  createdAt: string;
  updatedAt: string;
}

/**
 * The template catalog. Documents are stored whole; `enabled` and `name` are copied out for listing.
 * Every save makes the template's next version (`templateVersions.ts`) in the same transaction.
 */
export class TemplateRepository {
  readonly versions: TemplateVersionRepository;

  constructor(private readonly db: Kysely<Database>) {
    this.versions = new TemplateVersionRepository(db);
  }

  /** Every template, by name. */
  async list(options: { enabledOnly?: boolean } = {}): Promise<StoredTemplate[]> {
    let query = this.db.selectFrom('catalog_templates').selectAll();
    if (options.enabledOnly) query = query.where('enabled', '=', 1);
    const rows = await query.orderBy('name').orderBy('id').execute();
    return rows.map(toStored);
  }

  /** One template by id. */
  async get(id: string): Promise<StoredTemplate | undefined> {
    const row = await this.db
      .selectFrom('catalog_templates')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toStored(row);
  }

  /**
   * Creates or replaces the template whose `templateConfiguration.id` is set, as its next version
   * saved by `author`; says which happened.
   */
  async put(
    template: CatalogTemplate,
    now: string,
    trx?: Transaction<Database>,
    author?: VersionAuthor,
  ): Promise<{ created: boolean; stored: StoredTemplate }> {
    const id = template.templateConfiguration.id;
    if (!id) throw new Error('a stored template needs templateConfiguration.id');
    const values = {
      name: template.templateConfiguration.name,
      enabled: template.templateConfiguration.enabled ? 1 : 0,
      document: JSON.stringify(template),
      updated_at: now,
    };
    const work = async (trx: Transaction<Database>) => {
      // One statement, so concurrent writers of the same id serialise in the database; the row it
      // holds keeps the version written next in order.
      const row = await trx
        .insertInto('catalog_templates')
        .values({ id, ...values, revision: 1, version: 1, created_at: now })
        .onConflict((oc) =>
          oc.column('id').doUpdateSet((eb) => ({
            ...values,
            revision: eb('catalog_templates.revision', '+', 1),
            version: eb('catalog_templates.version', '+', 1),
          })),
        )
        .returning(['revision', 'version', 'created_at'])
        .executeTakeFirstOrThrow();
      const version = Number(row.version);
      await this.versions.append(trx, { templateId: id, version, template, author, now });
      return { revision: Number(row.revision), version, createdAt: row.created_at };
    };
    const { revision, version, createdAt } = await (trx ? work(trx) : this.db.transaction().execute(work));
    return {
      created: revision === 1,
      stored: { template, revision, version, createdAt, updatedAt: now },
    };
  }

  /**
   * Reads, changes and writes one template in a transaction that holds its row (FOR UPDATE on
   * PostgreSQL; SQLite transactions are exclusive), so concurrent changes never overwrite each
   * other. Returns undefined when there is no such template. Runs inside `trx` when given one.
   */
  async update(
    id: string,
    change: (template: CatalogTemplate) => CatalogTemplate,
    now: string,
    outer?: Transaction<Database>,
    author?: VersionAuthor,
  ): Promise<CatalogTemplate | undefined> {
    const work = async (trx: Transaction<Database>) => {
      let query = trx
        .selectFrom('catalog_templates')
        .select(['document', 'revision', 'version'])
        .where('id', '=', id);
      if (isPostgres(trx)) query = query.forUpdate();
      const row = await query.executeTakeFirst();
      if (!row) return undefined;
      const template = change(JSON.parse(row.document) as CatalogTemplate);
      await trx
        .updateTable('catalog_templates')
        .set({
          name: template.templateConfiguration.name,
          enabled: template.templateConfiguration.enabled ? 1 : 0,
          document: JSON.stringify(template),
          updated_at: now,
          revision: Number(row.revision) + 1,
          version: Number(row.version) + 1,
        })
        .where('id', '=', id)
        .execute();
      await this.versions.append(trx, {
        templateId: id,
        version: Number(row.version) + 1,
        template,
        author,
        now,
      });
      return template;
    };
    return outer ? work(outer) : this.db.transaction().execute(work);
  }
}

function toStored(row: Omit<Database['catalog_templates'], 'version'> & { version: number }): StoredTemplate {
  return {
    template: JSON.parse(row.document) as CatalogTemplate,
    revision: Number(row.revision),
    version: Number(row.version),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
