import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema';
import type { AppInstallation } from '../teamTools';
import type { Stamp } from './teamCreation';
import { lockTeam } from './teamRecords';
import { requireTeam } from './teamRows';

/**
 * The embedded tenant's app catalog: Microsoft's built-in apps by the ids Graph documents
 * (`concepts/teams-configuring-builtin-tabs.md`); an id outside it is an app the organisation does
 * not have, as Graph answers 404 for it.
 */
export const EMBEDDED_APP_CATALOG: ReadonlyMap<string, string> = new Map([
  ['com.microsoft.teamspace.tab.planner', 'Tasks by Planner and To Do'],
  ['com.microsoft.teamspace.tab.web', 'Website'],
  ['com.microsoft.teamspace.tab.wiki', 'Wiki'],
  ['com.microsoft.teamspace.tab.files.sharepoint', 'Document Library'],
  ['com.microsoft.teamspace.tab.powerbi', 'Power BI'],
  ['81fef3a6-72aa-4648-a763-de824aeafb7d', 'Forms'],
  ['0d820ecd-def2-4297-adad-78056cde7c78', 'OneNote'],
  ['2a527703-1f6f-4559-a332-d8a7d288cd88', 'SharePoint'],
]);

/** The apps installed in a team of the embedded tenant: only from the catalog (Graph answers 404). */
export class EmbeddedApps {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: { stamp: Stamp },
    private readonly call: <T>(operation: () => Promise<T>) => Promise<T>,
  ) {}

  listInstalledApps(teamId: string): Promise<string[]> {
    return this.call(async () => {
      await requireTeam(this.db, teamId);
      const rows = await this.db
        .selectFrom('platform_installed_apps')
        .select('teams_app_id')
        .where('team_id', '=', teamId)
        .orderBy('created_at')
        .execute();
      return rows.map((r) => r.teams_app_id);
    });
  }

  installApp(teamId: string, teamsAppId: string): Promise<AppInstallation> {
    return this.call(() =>
      this.db.transaction().execute(async (trx) => {
        await lockTeam(trx, teamId);
        if (!EMBEDDED_APP_CATALOG.has(teamsAppId)) return 'notInCatalog' as const;
        const there = await trx
          .selectFrom('platform_installed_apps')
          .select('teams_app_id')
          .where('team_id', '=', teamId)
          .where('teams_app_id', '=', teamsAppId)
          .executeTakeFirst();
        if (there) return 'alreadyInstalled' as const;
        await trx
          .insertInto('platform_installed_apps')
          .values({ team_id: teamId, teams_app_id: teamsAppId, created_at: this.options.stamp() })
          .execute();
        return 'installed' as const;
      }),
    );
  }
}
