import type { ErrorDetail } from './errors';
import { refusedCharacterOf } from './controlCharacters';
import { compileConvention, RuleEvaluationError, RuleSyntaxError } from './rules';
import { validateTeamName } from './teamName';
import type { CatalogTemplate } from '../contract';

/** The names a request ends up with once the template's conventions are applied. */
export interface FinalNames {
  name: string;
  description: string;
  welcomeMessage: string;
  mailNickname: string;
}

/** What conventions see: the request, the template, the requester and the requester's attributes. */
export interface ConventionScope {
  request: {
    team: { name: string; description: string; welcomeMessage: string };
    template: { name: string };
    requester: { name: string; email: string };
  };
  user: Record<string, unknown>;
}

/**
 * Applies the template's naming, description, welcome-message and email conventions; problems are
 * added to `details` (a convention that fails, a final name that breaks the naming rules).
 */
export function applyConventions(
  template: CatalogTemplate,
  scope: ConventionScope,
  uniqueSuffix: string,
  details: ErrorDetail[],
): FinalNames {
  const t = template.newTeam;
  const render = (
    convention: string | undefined,
    fallback: string,
    target: string,
    singleLine = false,
  ): string => {
    if (!convention) return fallback;
    try {
      const text = compileConvention(convention).render(scope as unknown as Record<string, unknown>);
      // What a convention writes meets the rules of what a person types in the same field.
      const refused = refusedCharacterOf(text, singleLine);
      if (refused) {
        const code = `U+${refused.codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
        details.push({
          code:
            refused.kind === 'control'
              ? 'controlCharacter'
              : refused.kind === 'loneSurrogate'
                ? 'malformedText'
                : 'formatCharacter',
          target,
          message:
            refused.kind === 'loneSurrogate'
              ? `The template's convention made text that is not well-formed Unicode (a lone surrogate, ${code}).`
              : refused.kind === 'formatCharacter'
                ? `The template's convention made text with a direction or display control (${code}), which changes how it reads.`
                : `The template's convention made text with a control character (${code}), which this ${singleLine ? 'one-line ' : ''}field does not allow.`,
        });
        return fallback;
      }
      return text;
    } catch (error) {
      if (!(error instanceof RuleSyntaxError || error instanceof RuleEvaluationError)) throw error;
      details.push({
        code: 'conventionFailed',
        target,
        message: `The template's convention failed: ${error.message}`,
      });
      return fallback;
    }
  };
  const team = scope.request.team;
  const name = render(t.namingConvention, team.name, 'team.name', true).trim();
  const problem = validateTeamName(name);
  if (problem) details.push({ code: 'invalidName', target: 'team.name', message: `"${name}": ${problem}` });
  const email = render(t.emailConvention, name, 'team.name', true);
  return {
    name,
    description: render(t.descriptionConvention, team.description, 'team.description'),
    welcomeMessage: render(t.welcomeMessageConvention, team.welcomeMessage, 'team.welcomeMessage'),
    mailNickname: mailNickname(email, uniqueSuffix),
  };
}

/** A group mail alias from a name: ASCII letters and digits, made unique with a suffix. */
export function mailNickname(source: string, uniqueSuffix: string): string {
  const base = source
    .normalize('NFKD')
    .replace(/@.*$/, '')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, 48);
  return `${base || 'team'}${uniqueSuffix}`.slice(0, 64);
}

/** Who ends up in the team and with which role; an owner listed as a member too stays an owner. */
export function membershipRoles(parts: {
  requesterId: string;
  requesterAsOwner: boolean;
  owners: readonly string[];
  members: readonly string[];
  permanentOwners: readonly string[];
  permanentMembers: readonly string[];
}): Map<string, 'owner' | 'member'> {
  const roles = new Map<string, 'owner' | 'member'>();
  const add = (id: string, role: 'owner' | 'member') => {
    if (roles.get(id) !== 'owner') roles.set(id, role);
  };
  add(parts.requesterId, parts.requesterAsOwner ? 'owner' : 'member');
  for (const id of parts.owners) add(id, 'owner');
  for (const id of parts.members) add(id, 'member');
  for (const id of parts.permanentOwners) add(id, 'owner');
  for (const id of parts.permanentMembers) add(id, 'member');
  return roles;
}
