import type { Kysely } from 'kysely';
import { comparersFor, compareTeam } from '../../domain/drift/comparers';
import type { DirectoryReader } from '../../domain/directory';
import type { CatalogTemplate, DriftDifference, Team } from '../../contract';
import type { TeamsPlatform } from '../../platform/port';
import type { TeamTemplate, TeamTemplateRepository } from '../../store/drift/teamTemplates';
import type { SensitivityLabelRepository } from '../../store/labels/sensitivityLabels';
import type { Database } from '../../store/schema';
import { recordedTranslations } from '../jobData/templateName';
import type { EventBus, StewardEvent } from '../webhooks/events';
import { readTeamState } from './teamState';

/** Teams compared at once when a template's teams are read (each comparison is a few platform reads). */
const COMPARE_CONCURRENCY = 4;

/** What comparing teams with their template reads. */
export interface ComparisonDeps {
  teams: TeamsPlatform;
  directory: DirectoryReader;
  labelStore: SensitivityLabelRepository;
  teamTemplates: TeamTemplateRepository;
}

/** A team's differences from `template`, read now. */
export async function teamDifferences(
  deps: ComparisonDeps,
  team: Team,
  template: CatalogTemplate,
): Promise<DriftDifference[]> {
  const { comparers, reads } = comparersFor(template);
  const state = await readTeamState(
    { teams: deps.teams, labels: deps.labelStore, directory: deps.directory },
    team,
    template,
    reads,
  );
  return compareTeam(template, state, comparers);
}

/**
 * Compares each team (a few at a time), remembering each comparison for the lifecycle report; a
 * team gone from the platform has no differences listed.
 */
export async function compareAll(
  deps: ComparisonDeps,
  made: readonly TeamTemplate[],
  template: CatalogTemplate,
  version: number,
  checkedAt: string,
): Promise<Array<{ made: TeamTemplate; differences?: DriftDifference[] }>> {
  const out: Array<{ made: TeamTemplate; differences?: DriftDifference[] }> = made.map((m) => ({
    made: m,
  }));
  let next = 0;
  const worker = async () => {
    while (next < out.length) {
      const entry = out[next++]!;
      const team = await deps.teams.getTeam(entry.made.teamId);
      if (!team) continue;
      entry.differences = await teamDifferences(deps, team, template);
      await deps.teamTemplates.noteDrift(entry.made.teamId, {
        version,
        count: entry.differences.length,
        checkedAt,
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(COMPARE_CONCURRENCY, out.length) }, worker));
  return out;
}

/** Asks a team's owners, through the bot's card, whether to add what the template now has. */
export async function askOwners(
  deps: {
    db: Kysely<Database>;
    teams: TeamsPlatform;
    teamTemplates: TeamTemplateRepository;
    events: EventBus;
  },
  asked: { made: TeamTemplate; template: CatalogTemplate; version: number },
  applicable: readonly DriftDifference[],
  now: Date,
): Promise<void> {
  const { made, template, version } = asked;
  // Asked about this version already (answered or not): the owners are asked again at the next one.
  if (made.owners?.version === version) return;
  const owners = (await deps.teams.listMembers(made.teamId)).filter((m) => m.roles.includes('owner'));
  const events: StewardEvent[] = await deps.db.transaction().execute(async (trx) => {
    await deps.teamTemplates.asked(made.teamId, version, trx);
    return [
      await deps.events.record(
        trx,
        'team_drift_owners_asked',
        {
          team: { id: made.teamId, displayName: made.displayName },
          template: {
            id: template.templateConfiguration.id,
            name: template.templateConfiguration.name,
            ...recordedTranslations(template.templateConfiguration),
            version,
          },
          owners: owners.map((o) => ({ id: o.userId, displayName: o.displayName })),
          differences: applicable.map((d) => ({ id: d.id, kind: d.kind, name: d.name })),
        },
        now,
      ),
    ];
  });
  deps.events.publish(events);
}
