import type { Kysely, Transaction } from 'kysely';
import type { CatalogTemplate } from '../../contract';
import { isPostgres } from '../dialect';
import type { Database } from '../schema';

/** A stored template and its bookkeeping. */
export interface StoredTemplate {
  template: CatalogTemplate;
  revision: number;
  createdAt: string;
  updatedAt: string;
}

/** The template catalog. Documents are stored whole; `enabled` and `name` are copied out for listing. */
export class TemplateRepository {
  constructor(private readonly db: Kysely<Database>) {}

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

  /** Creates or replaces the template whose `templateConfiguration.id` is set; says which happened. */
  async put(
    template: CatalogTemplate,
    now: string,
    trx: Kysely<Database> | Transaction<Database> = this.db,
  ): Promise<{ created: boolean; stored: StoredTemplate }> {
    const id = template.templateConfiguration.id;
    if (!id) throw new Error('a stored template needs templateConfiguration.id');
    const values = {
      name: template.templateConfiguration.name,
      enabled: template.templateConfiguration.enabled ? 1 : 0,
      document: JSON.stringify(template),
      updated_at: now,
    };
    // One statement, so concurrent writers of the same id serialise in the database.
    const row = await trx
      .insertInto('catalog_templates')
      .values({ id, ...values, revision: 1, created_at: now })
      .onConflict((oc) =>
        oc
          .column('id')
          .doUpdateSet((eb) => ({ ...values, revision: eb('catalog_templates.revision', '+', 1) })),
      )
      .returning(['revision', 'created_at'])
      .executeTakeFirstOrThrow();
    const revision = Number(row.revision);
    return {
      created: revision === 1,
      stored: { template, revision, createdAt: row.created_at, updatedAt: now },
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
  ): Promise<CatalogTemplate | undefined> {
    const work = async (trx: Transaction<Database>) => {
      let query = trx.selectFrom('catalog_templates').select(['document', 'revision']).where('id', '=', id);
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
        })
        .where('id', '=', id)
        .execute();
      return template;
    };
    return outer ? work(outer) : this.db.transaction().execute(work);
  }
}

function toStored(row: Database['catalog_templates']): StoredTemplate {
  return {
    template: JSON.parse(row.document) as CatalogTemplate,
    revision: Number(row.revision),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
