/**
 * How Teams tells channels apart by name: a team's channel names are unique regardless of case
 * (Graph refuses `Contracts` where `contracts` is, with 409 `NameAlreadyExists`), and surrounding
 * spaces are not part of a name. Every place that
 * matches channels by name (template validation, provisioning's find-or-create, drift's comparers
 * and its apply) goes through this one key.
 *
 * `toLowerCase` is Unicode's default case mapping, the same whatever the process's locale
 * (`toLocaleLowerCase` would fold a Turkish `I` differently on a Turkish machine).
 */
export function channelKey(name: string): string {
  return name.trim().toLowerCase();
}

/** Whether two channel names name the same channel in a team. */
export function sameChannelName(a: string, b: string): boolean {
  return channelKey(a) === channelKey(b);
}
