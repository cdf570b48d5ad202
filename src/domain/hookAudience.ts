import type { AppRole } from '../contract/roles';
import { HOOK_ROLES } from './rbac';

/** What decides whether a hook receives an event (`contract/hooks.ts`, `HookScope`). */
export interface HookAudience {
  scope: 'mine' | 'template' | 'tenant';
  templateId: string | null;
  /** Who made the hook: the person a `mine` hook delivers for. */
  createdBy: string;
}

type Payload = Record<string, unknown>;

const record = (value: unknown): Payload | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Payload) : undefined;
const idOf = (value: unknown): string | undefined => {
  const id = record(value)?.id;
  return typeof id === 'string' ? id : undefined;
};
const ids = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.flatMap((v) => (typeof v === 'string' ? [v] : (idOf(v) ?? [])) as string[])
    : [];

/**
 * The people an event's payload names, each of whom can read what it says through the API: the
 * requester (their request, `getJob`; their join request), the approvers of the stage it names and
 * the one who decided (`getMyApprovals`), the team's owners it lists (their team, and the requests
 * to join it), and whoever decided a join request.
 */
export function namedPeople(payload: Payload): Set<string> {
  const approval = record(payload.approval);
  const lifecycle = record(payload.lifecycle);
  return new Set<string>([
    ...ids([payload.requester, payload.decidedBy, record(approval?.approver)]),
    ...ids(record(approval?.stage)?.approvers),
    ...ids(payload.owners),
    ...ids(lifecycle?.ownerIds),
  ]);
}

/**
 * Whether a hook receives an event: a `tenant` hook every one; a `template` hook those whose
 * payload names its template; a `mine` hook those that name its creator (`namedPeople`), so a
 * delivery never tells a person what the API would not show them.
 */
export function reaches(hook: HookAudience, payload: Payload): boolean {
  if (hook.scope === 'tenant') return true;
  if (hook.scope === 'template') return idOf(payload.template) === hook.templateId;
  return namedPeople(payload).has(hook.createdBy);
}

/**
 * What the directory says of a hook's maker when a delivery's turn comes: whether they are still a
 * person of it (the API refuses the token of anyone who is not) and, where the directory records
 * app roles (the embedded one), which they hold; `roles` is undefined where it cannot tell.
 */
export interface SubscriberStanding {
  person: boolean;
  roles: readonly AppRole[] | undefined;
}

/**
 * Why a delivery must not be sent to a hook, or undefined when it may: the maker of a hook must
 * still be able to read its events through the API. A person removed from the directory receives
 * nothing; a `template` or `tenant` hook needs its maker to still hold a role that may subscribe
 * to them (`HOOK_ROLES`: those roles read every template, whatever its audience, and every
 * request and team). A hook made by an application is left to its token, as the API leaves it;
 * `creatorKind` is null for a hook whose maker's kind is unknown (made before it was kept, its
 * audit record gone): a person then if the directory has them, else taken for an application.
 */
export function deliveryRefusal(
  hook: HookAudience & { creatorKind: 'user' | 'app' | null },
  standing: SubscriberStanding,
): string | undefined {
  if (hook.creatorKind === 'app') return undefined;
  if (!standing.person) {
    if (hook.creatorKind === null && hook.scope !== 'mine') return undefined;
    return 'The subscriber is no longer a person of the directory.';
  }
  if (hook.scope === 'mine' || standing.roles === undefined) return undefined;
  if (standing.roles.some((role) => (HOOK_ROLES as readonly AppRole[]).includes(role))) return undefined;
  return (
    `The subscriber no longer holds a role that receives ${hook.scope === 'template' ? 'a template’s' : 'the tenant’s'} ` +
    'events (integration manager, Teams or global admin).'
  );
}
