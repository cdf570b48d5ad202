import type { NewTeamSpec, PlannedMember } from '../port';

/** Owners and members a group creation request may carry together (`api/group-post-groups.md`). */
export const GROUP_REQUEST_PEOPLE = 20;

/**
 * The owners and members the group request carries: the first owner always, then the other owners,
 * then members, as long as owners and members together stay within GROUP_REQUEST_PEOPLE (an owner
 * counts twice, being in both lists).
 */
export function groupPeople(spec: Pick<NewTeamSpec, 'ownerId' | 'members'>): {
  owners: string[];
  members: string[];
} {
  const planned: readonly PlannedMember[] = spec.members ?? [];
  const owners = [spec.ownerId];
  const members = [spec.ownerId];
  for (const person of planned.filter((p) => p.role === 'owner' && p.id !== spec.ownerId)) {
    if (owners.length + members.length + 2 > GROUP_REQUEST_PEOPLE) break;
    owners.push(person.id);
    members.push(person.id);
  }
  for (const person of planned.filter((p) => p.role === 'member' && !members.includes(p.id))) {
    if (owners.length + members.length + 1 > GROUP_REQUEST_PEOPLE) break;
    members.push(person.id);
  }
  return { owners, members };
}
