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
