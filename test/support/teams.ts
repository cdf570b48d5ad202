import { randomUUID } from 'node:crypto';
import type { NewTeamSpec } from '../../src/platform/port';

/** A new team's spec for platform tests: Alex Wilber owns it; each call gets its own provisioning key. */
export function newTeamSpec(overrides: Partial<NewTeamSpec> = {}): NewTeamSpec {
  return {
    displayName: 'Project Apollo',
    description: 'Going to the moon.',
    visibility: 'private',
    mailNickname: 'projectapollo',
    settings: {},
    ownerId: '00000000-0000-0000-0000-000000000020',
    provisioningKey: `job-${randomUUID()}`,
    ...overrides,
  };
}
