import { type DriftDifference } from '../../contract';
import type { DriftComparer } from './teamState';

/** Drift of who a team is for: its owners and members, its sensitivity label, its visibility. */

export function people(role: 'owners' | 'members'): DriftComparer {
  const kind = role === 'owners' ? 'permanentOwner' : 'permanentMember';
  return {
    kind,
    reads: ['members'],
    appliesTo: (template) => template.templateConfiguration.permanentMembership[role].length > 0,
    compare(template, team) {
      const byId = new Map(team.members.map((m) => [m.userId, m]));
      const out: DriftDifference[] = [];
      for (const person of template.templateConfiguration.permanentMembership[role]) {
        const member = byId.get(person.id);
        const name = person.name ?? member?.displayName ?? person.id;
        if (role === 'owners' && member && !member.owner) {
          out.push({
            id: `${kind}:${person.id}`,
            kind,
            name,
            detail: `${name} is a permanent owner of the template and only a member of the team.`,
            applicable: true,
          });
        } else if (!member) {
          out.push({
            id: `${kind}:${person.id}`,
            kind,
            name,
            detail: `${name} is a permanent ${role === 'owners' ? 'owner' : 'member'} of the template and not in the team.`,
            applicable: true,
          });
        }
      }
      return out;
    },
  };
}

export const label: DriftComparer = {
  kind: 'sensitivityLabel',
  reads: ['label'],
  appliesTo: (template) => template.templateConfiguration.sensitivityLabelId !== null,
  compare(template, team) {
    const wanted = template.templateConfiguration.sensitivityLabelId;
    if (!wanted || team.labelId === wanted) return [];
    return [
      {
        id: `sensitivityLabel:${wanted}`,
        kind: 'sensitivityLabel',
        // Its name where the directory gave it; never its id, which nobody reads.
        name: team.labelNames?.get(wanted) ?? "the template's sensitivity label",
        detail: team.labelId
          ? 'The team has another sensitivity label than the template asks for.'
          : 'The template asks for a sensitivity label the team does not have.',
        applicable: true,
      },
    ];
  },
};

export const visibility: DriftComparer = {
  kind: 'visibility',
  reads: [],
  appliesTo: () => true,
  compare(template, team) {
    const wanted = template.newTeam.teamPrivacy;
    if (template.clonedTeam || team.visibility === wanted) return [];
    return [
      {
        id: 'visibility',
        kind: 'visibility',
        name: wanted,
        detail: `The template makes ${wanted} teams; this one is ${team.visibility}.`,
        applicable: false,
        reason: "A team's privacy decides who may find and join it: its owners change it, not Steward.",
      },
    ];
  },
};
