import type { Job } from '../../client';

type Json = Record<string, unknown>;

const object = (value: unknown): Json =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const list = (value: unknown): Json[] => (Array.isArray(value) ? value.map(object) : []);

/** Who ends up owner and member of a requested team, by display name. */
export interface TeamPeople {
  owners: string[];
  members: string[];
}

/**
 * The owners and members of a request's plan by display name, as the server counts them (the
 * requester and the template's permanent people included). The plan names each person; for jobs
 * from before it did, the requester, permanent people and approvers the job names are used.
 */
export function teamPeople(job: Job): TeamPeople {
  const data = object(job.data);
  const names = new Map<string, string>();
  const know = (person: Json) => {
    const id = text(person.id);
    const name = text(person.displayName) || text(person.name);
    if (id && name) names.set(id, name);
  };
  const template = object(data.template);
  const permanent = object(template.permanentMembership);
  const plan = list(object(data.plan).members);
  [object(data.requester), ...list(permanent.owners), ...list(permanent.members), ...list(template.approvers)]
    .concat(plan)
    .forEach(know);
  const withRole = (role: string) =>
    plan
      .filter((member) => member.role === role)
      .map((member) => names.get(text(member.id)) ?? 'someone from the directory');
  return { owners: withRole('owner'), members: withRole('member') };
}
