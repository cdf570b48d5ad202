import { type CatalogTemplate, tagPeople } from '../../contract';
import type { DriftComparer } from './teamState';

/** Drift of what a template builds inside a team: its plan's buckets, its tags, its apps. */

/** The title of the template's plan in a team: its own, or the team's name. */
export function planTitle(template: CatalogTemplate, teamName: string): string {
  return template.newTeam.planner?.title ?? teamName;
}

/** A bucket's key: Planner's names, compared regardless of case (as the provisioning step does). */
export const bucketKey = (name: string): string => name.toLowerCase();

export const planBuckets: DriftComparer = {
  kind: 'planBucket',
  reads: ['plan'],
  appliesTo: (template) => template.newTeam.planner !== undefined,
  compare(template, team) {
    const planner = template.newTeam.planner;
    if (!planner || team.plan === undefined) return [];
    const title = planTitle(template, team.displayName ?? '');
    if (team.plan === null)
      return [
        {
          id: 'plan',
          kind: 'planBucket',
          name: title,
          detail: `The template has a plan "${title}" with ${planner.buckets.length === 1 ? 'one bucket' : `${planner.buckets.length} buckets`}; the team has no plan of that name.`,
          applicable: true,
        },
      ];
    const have = new Set(team.plan.buckets.map(bucketKey));
    return planner.buckets
      .filter((b) => !have.has(bucketKey(b.name)))
      .map((b) => ({
        id: `planBucket:${bucketKey(b.name)}`,
        kind: 'planBucket' as const,
        name: b.name,
        detail:
          `The template's plan has a bucket "${b.name}" that the team's plan "${title}" lacks` +
          (b.tasks.length > 0
            ? `; its ${b.tasks.length === 1 ? 'task comes' : `${b.tasks.length} tasks come`} with it.`
            : '.'),
        applicable: true,
      }));
  },
};

export const tags: DriftComparer = {
  kind: 'tag',
  reads: ['tags', 'members'],
  appliesTo: (template) => (template.newTeam.tags?.length ?? 0) > 0,
  compare(template, team) {
    const have = new Set((team.tags ?? []).map((t) => t.toLowerCase()));
    const people = team.members.map((m) => ({ role: m.owner ? ('owner' as const) : ('member' as const) }));
    const whom = { owners: 'owners', members: 'members who are not owners', everyone: 'members' };
    return (template.newTeam.tags ?? [])
      .filter((t) => !have.has(t.displayName.toLowerCase()))
      .map((t) => {
        const nobody = tagPeople(people, t.members).length === 0;
        return {
          id: `tag:${t.displayName.toLowerCase()}`,
          kind: 'tag' as const,
          name: t.displayName,
          detail: `The template has a tag "${t.displayName}" for the team's ${whom[t.members]}; the team lacks it.`,
          applicable: !nobody,
          ...(nobody
            ? { reason: `A tag needs at least one person, and the team has no ${whom[t.members]}.` }
            : {}),
        };
      });
  },
};

export const apps: DriftComparer = {
  kind: 'app',
  reads: ['apps'],
  appliesTo: (template) => (template.newTeam.apps?.length ?? 0) > 0,
  compare(template, team) {
    const have = new Set(team.apps ?? []);
    return (template.newTeam.apps ?? [])
      .filter((a) => !have.has(a.teamsAppId))
      .map((a) => ({
        id: `app:${a.teamsAppId}`,
        kind: 'app' as const,
        name: a.displayName ?? a.teamsAppId,
        detail: `The template installs the app "${a.displayName ?? a.teamsAppId}"; the team does not have it.`,
        applicable: true,
      }));
  },
};
