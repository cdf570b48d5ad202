import type { ErrorDetail } from '../../domain/errors';
import type { CatalogTemplate } from '../../contract';
import { channelKey } from '../../domain/channelNames';

/**
 * What makes a template's plan, tags and apps unable to work (their shapes and Graph's limits were
 * checked by the schema): the plan's tab on a channel the team will not have, and names given twice
 * where a resumed job finds what it made by name (buckets of the plan, tasks of a bucket, tags) or
 * by id (apps), so that a job run again makes nothing twice.
 */
export function workspaceProblems(newTeam: CatalogTemplate['newTeam']): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const channels = new Set(['general', ...newTeam.channels.map((c) => channelKey(c.displayName))]);
  const planner = newTeam.planner;
  if (planner?.tab && !channels.has(channelKey(planner.tab.channel))) {
    details.push({
      code: 'unknownChannel',
      target: 'newTeam.planner.tab.channel',
      message: `The plan's tab is in "${planner.tab.channel}", which is neither General nor one of the template's channels.`,
    });
  }
  const twice = (
    names: readonly string[],
    target: (index: number) => string,
    what: (name: string) => string,
  ) => {
    const seen = new Set<string>();
    names.forEach((name, index) => {
      const key = name.toLowerCase();
      if (seen.has(key)) {
        details.push({
          code: 'duplicate',
          target: target(index),
          message: what(name),
        });
      }
      seen.add(key);
    });
  };
  if (planner) {
    twice(
      planner.buckets.map((b) => b.name),
      (i) => `newTeam.planner.buckets[${i}].name`,
      (name) => `Two buckets are named "${name}": each bucket needs its own name.`,
    );
    planner.buckets.forEach((bucket, b) =>
      twice(
        bucket.tasks.map((t) => t.title),
        (i) => `newTeam.planner.buckets[${b}].tasks[${i}].title`,
        (name) =>
          `Two tasks of the bucket "${bucket.name}" are named "${name}": each task of a bucket needs its own title.`,
      ),
    );
  }
  twice(
    (newTeam.tags ?? []).map((t) => t.displayName),
    (i) => `newTeam.tags[${i}].displayName`,
    (name) => `Two tags are named "${name}": each tag needs its own name.`,
  );
  twice(
    (newTeam.apps ?? []).map((a) => a.teamsAppId),
    (i) => `newTeam.apps[${i}].teamsAppId`,
    (id) => `The app ${id} is listed twice.`,
  );
  return details;
}
