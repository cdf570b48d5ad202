import type { CatalogTemplate, StewardClient, User } from '../../client';
import { applyConventions } from '../../domain/provisioningPlan';
import { TEAM_NAME_MAX_LENGTH } from '../../domain/teamName';
import type { ErrorDetail } from '../../domain/errors';

/** The person a request is for, as the bot knows them from the turn. */
export interface Requester {
  id: string;
  name: string;
}

/** What the template's conventions make of a request, before it is sent. */
export interface NamePreview {
  /** The final team name. */
  name: string;
  /** What is wrong with it, in the server's words (an empty list when nothing is). */
  problems: string[];
  /** Characters the convention adds around the typed name: the input's limit is the rest. */
  addedLength: number;
}

/**
 * The requester's directory entry (`GET /users?$search=` by name, matched on the id), whose
 * attributes the naming convention reads; a bare entry when the directory does not answer.
 */
export async function requesterEntry(api: StewardClient, requester: Requester): Promise<Partial<User>> {
  const bare = { id: requester.id, displayName: requester.name };
  if (!requester.name.trim()) return bare;
  try {
    const page = await api.getUsers({ search: requester.name.slice(0, 100), top: 25 });
    return page.value.find((user) => user.id === requester.id) ?? bare;
  } catch {
    return bare;
  }
}

/**
 * The final name of a request, computed with the same conventions and rules the server applies
 * (`applyConventions`) on the requester's directory attributes, so the form can show it before
 * it is sent. The server still decides: a convention reading groups sees none here.
 */
export function previewName(
  template: CatalogTemplate,
  user: Partial<User>,
  team: { name: string; description: string; welcomeMessage: string },
): NamePreview {
  const scope = (name: string) => ({
    request: {
      team: { ...team, name },
      template: { name: template.templateConfiguration.name },
      requester: { name: user.displayName ?? '', email: user.mail ?? user.userPrincipalName ?? '' },
    },
    user: user as Record<string, unknown>,
  });
  const details: ErrorDetail[] = [];
  const final = applyConventions(template, scope(team.name), '', details);
  const bare = applyConventions(template, scope(''), '', []).name;
  return {
    name: final.name,
    problems: team.name.trim() ? details.map((detail) => detail.message) : [],
    addedLength: Math.min(TEAM_NAME_MAX_LENGTH - 1, Array.from(bare).length),
  };
}
