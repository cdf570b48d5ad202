import { type CatalogTemplate, type DriftDifference } from '../../contract';
import type { DriftComparer } from './teamState';

/** The groups of settings a template may set, as Graph's team resource names them. */
const SETTING_GROUPS = ['memberSettings', 'guestSettings', 'messagingSettings', 'funSettings'] as const;

export const settings: DriftComparer = {
  kind: 'teamSetting',
  reads: [],
  appliesTo: (template) =>
    SETTING_GROUPS.some((g) => Object.keys(template.newTeam.settings?.[g] ?? {}).length > 0),
  compare(template, team) {
    const out: DriftDifference[] = [];
    if (!team.settings) return out;
    for (const group of SETTING_GROUPS) {
      const wanted: Record<string, unknown> = template.newTeam.settings?.[group] ?? {};
      const have: Record<string, unknown> = team.settings[group] ?? {};
      for (const [name, value] of Object.entries(wanted)) {
        if (value === undefined || have[name] === value) continue;
        out.push({
          id: `teamSetting:${group}.${name}`,
          kind: 'teamSetting',
          name: settingName(group, name),
          detail: `The template sets ${group}.${name} to ${String(value)}; the team has ${have[name] === undefined ? 'no value' : String(have[name])}.`,
          applicable: true,
        });
      }
    }
    return out;
  },
};

/** A setting as people read it: "Allow delete channels (member settings)". */
function settingName(group: string, name: string): string {
  const words = (camel: string) =>
    camel
      .replace(/([A-Z])/g, ' $1')
      .toLowerCase()
      .trim();
  const said = words(name);
  return `${said.charAt(0).toUpperCase()}${said.slice(1)} (${words(group)})`;
}

/** A team setting's change: only that setting of its group, as a PATCH of the team carries it. */
export function settingChange(
  template: CatalogTemplate,
  id: string,
): Partial<Record<(typeof SETTING_GROUPS)[number], Record<string, unknown>>> | undefined {
  const [group, name] = id.slice('teamSetting:'.length).split('.') as [string, string | undefined];
  const g = SETTING_GROUPS.find((x) => x === group);
  if (!g || !name) return undefined;
  const value = (template.newTeam.settings?.[g] as Record<string, unknown> | undefined)?.[name];
  return value === undefined ? undefined : { [g]: { [name]: value } };
}
