/** A lifecycle webhook's payload as the bot reads it (`team` and `lifecycle`, see the API's `actions.ts`). */
export interface TeamLifecycleEvent {
  team: { id: string; displayName: string };
  /** The decision's due day (YYYY-MM-DD): for an ownerless team the day it was found so. */
  dueOn: string;
  outcome: string;
  ownerIds: string[];
  guestIds: string[];
}

type Json = Record<string, unknown>;
const object = (value: unknown): Json =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const ids = (value: unknown): string[] =>
  (Array.isArray(value) ? value : []).filter((id): id is string => typeof id === 'string' && id !== '');

/** The event's team and decision, or undefined when the payload lacks the team or its day. */
export function teamLifecycleEvent(payload: Json): TeamLifecycleEvent | undefined {
  const team = object(payload.team);
  const lifecycle = object(payload.lifecycle);
  const id = text(team.id);
  const dueOn = text(lifecycle.dueOn);
  // A day only: it becomes part of the bot state's keys.
  if (!id || !/^\d{4}-\d{2}-\d{2}$/.test(dueOn)) return undefined;
  return {
    team: { id, displayName: text(team.displayName) || id },
    dueOn,
    outcome: text(lifecycle.outcome),
    ownerIds: ids(lifecycle.ownerIds),
    guestIds: ids(lifecycle.guestIds),
  };
}
