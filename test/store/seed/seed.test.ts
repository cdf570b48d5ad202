import { APP_ROLES } from '../../../src/contract/roles';
import { CatalogTemplate } from '../../../src/contract/catalog';
import { Label, User } from '../../../src/contract/directory';
import {
  SEED_TENANT_ID,
  type SeedUser,
  seedApps,
  seedGroups,
  seedLabels,
  seedUsers,
} from '../../../src/store/seed/directory';
import { seedTemplates } from '../../../src/store/seed/templates';

/** A GUID: 8-4-4-4-12 hex digits, as Teams, Entra ID and the Agents Toolkit require. */
const GUID_LIKE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PLAYGROUND_ID = /^00000000-0000-0000-0000-\d{12}$/;

const parsedTemplates = seedTemplates.map((t) => CatalogTemplate.parse(t));
const userIds = new Set(seedUsers.map((u) => u.id));
const groupIds = new Set(seedGroups.map((g) => g.id));
const labelIds = new Set(seedLabels.map((l) => l.id));

function distinct<T>(values: readonly T[]): number {
  return new Set(values).size;
}

function userNamed(displayName: string): SeedUser {
  const user = seedUsers.find((u) => u.displayName === displayName);
  if (!user) throw new Error(`no seed user ${displayName}`);
  return user;
}

function template(id: string): CatalogTemplate {
  const found = parsedTemplates.find((t) => t.templateConfiguration.id === id);
  if (!found) throw new Error(`no seed template ${id}`);
  return found;
}

describe('seed directory', () => {
  it('has an org chart: managers are seeded people, in the same department or above it, with no cycle', () => {
    expect(userNamed('Alex Wilber').managerId).toBe(userNamed('Zoé Lefèvre').id);
    expect(userNamed('Isaiah Langer').managerId).toBe(userNamed('Oliver Bennett').id);
    expect(userNamed('Megan Bowen').managerId).toBeNull();
    const byId = new Map(seedUsers.map((u) => [u.id, u]));
    for (const user of seedUsers) {
      const seen = new Set([user.id]);
      for (let at = user.managerId; at !== null; at = byId.get(at)!.managerId) {
        expect(byId.has(at)).toBe(true);
        expect(seen.has(at)).toBe(false);
        seen.add(at);
      }
    }
    expect(seedUsers.filter((u) => u.managerId !== null).length).toBeGreaterThan(seedUsers.length / 2);
  });

  it('uses the Agents Playground tenant', () => {
    expect(SEED_TENANT_ID).toBe('00000000-0000-0000-0000-000000000001');
  });

  it('holds the six playground people exactly as the Agents Playground defines them', () => {
    const expected = [
      ['000000000020', 'Alex Wilber', 'alexw@example.com', 'alexw@example.com', []],
      ['000000000021', 'Megan Bowen', 'meganb@example.com', 'meganb@example.com', ['GLOBAL_ADMIN']],
      ['000000000022', 'Adele Vance', 'adelev@example.com', 'adelev@example.com', []],
      ['000000000023', 'Isaiah Langer', 'isaiah@example.com', 'isaiahl@example.com', []],
      ['000000000024', 'Patti Fernandez', 'pattif@example.com', 'pattif@example.com', ['CATALOG_MANAGER']],
      ['000000000025', 'Lynne Robbins', 'lynner@example.com', 'lynner@example.com', ['GOVERNANCE_MANAGER']],
    ] as const;
    for (const [suffix, displayName, upn, mail, roles] of expected) {
      const user = seedUsers.find((u) => u.id === `00000000-0000-0000-0000-${suffix}`);
      expect(user).toMatchObject({ displayName, userPrincipalName: upn, mail, appRoles: [...roles] });
    }
  });

  it('gives every person a valid User with every field filled', () => {
    for (const user of seedUsers) {
      const { appRoles: _roles, groupIds: _groups, managerId: _manager, ...wire } = user;
      expect(User.parse(wire)).toEqual(wire);
      const empty = Object.entries(wire).filter(
        ([, value]) => typeof value !== 'string' || value.trim() === '',
      );
      expect({ user: user.displayName, empty }).toEqual({ user: user.displayName, empty: [] });
      expect(user.usageLocation).toBe(user.country);
      expect(user.country).toMatch(/^[A-Z]{2}$/);
      expect(user.preferredLanguage).toMatch(/^[a-z]{2}-[A-Z]{2}$/);
      expect(user.mail).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
    }
  });

  it('uses unique, valid GUIDs for the tenant, people, groups, labels and apps', () => {
    expect(distinct(seedUsers.map((u) => u.id))).toBe(seedUsers.length);
    expect(distinct(seedUsers.map((u) => u.userPrincipalName.toLowerCase()))).toBe(seedUsers.length);
    expect(SEED_TENANT_ID).toMatch(GUID_LIKE);
    expect(SEED_TENANT_ID).toHaveLength(36);
    for (const user of seedUsers) {
      expect(user.id).toHaveLength(36);
      expect(user.id).toMatch(GUID_LIKE);
      expect(user.id).toMatch(PLAYGROUND_ID);
    }
    for (const id of [...groupIds, ...labelIds, ...seedApps.map((a) => a.id)]) expect(id).toMatch(GUID_LIKE);
    expect(groupIds.size).toBe(seedGroups.length);
    expect(labelIds.size).toBe(seedLabels.length);
    expect(distinct(seedApps.map((a) => a.id))).toBe(seedApps.length);
  });

  it('is diverse enough to make audience rules meaningful', () => {
    expect(seedUsers.length).toBeGreaterThanOrEqual(28);
    expect(distinct(seedUsers.map((u) => u.department))).toBeGreaterThanOrEqual(6);
    expect(distinct(seedUsers.map((u) => u.country))).toBeGreaterThanOrEqual(8);
    expect(distinct(seedUsers.map((u) => u.preferredLanguage))).toBeGreaterThanOrEqual(6);
    expect(seedUsers.some((u) => /[^\u0020-\u007e]/.test(u.displayName))).toBe(true);
    const contoso = seedUsers.filter((u) => /@contoso\.(com|fr)$/.test(u.mail ?? ''));
    expect(contoso.length).toBeGreaterThan(0);
    expect(contoso.length).toBeLessThan(seedUsers.length);
  });

  it('has groups that exist for every membership and a member for every group', () => {
    expect(seedGroups.length).toBeGreaterThanOrEqual(6);
    for (const user of seedUsers) {
      for (const id of user.groupIds) expect(groupIds).toContain(id);
      expect(distinct(user.groupIds)).toBe(user.groupIds.length);
    }
    for (const group of seedGroups) {
      expect(seedUsers.filter((u) => u.groupIds.includes(group.id)).length).toBeGreaterThan(0);
    }
  });

  it('assigns only assignable app roles', () => {
    for (const holder of [...seedUsers, ...seedApps]) {
      for (const role of holder.appRoles) {
        expect(APP_ROLES).toContain(role);
        expect(role).not.toBe('AUTHENTICATED_USER');
      }
    }
    expect(seedApps).toContainEqual(
      expect.objectContaining({ displayName: 'Steward bot', appRoles: ['INTEGRATION_MANAGER'] }),
    );
    expect(seedApps.some((a) => a.appRoles.includes('AUTHORIZED_APP'))).toBe(true);
  });

  it('has Purview-like labels with valid parents, scopes and ascending sensitivity', () => {
    expect(seedLabels.length).toBeGreaterThanOrEqual(5);
    const sensitivities = seedLabels.map((l) => l.sensitivity);
    expect(sensitivities).toEqual([...sensitivities].sort((a, b) => a - b));
    expect(distinct(sensitivities)).toBe(sensitivities.length);
    for (const label of seedLabels) {
      const { parentId, scopeGroupIds, ...rest } = label;
      expect(Label.parse({ ...rest, parent: null })).toBeTruthy();
      expect(label.color).toMatch(/^#[0-9A-Fa-f]{6}$/);
      if (parentId !== null) {
        expect(labelIds).toContain(parentId);
        expect(parentId).not.toBe(label.id);
      }
      for (const id of scopeGroupIds ?? []) expect(groupIds).toContain(id);
    }
    expect(seedLabels.some((l) => l.parentId !== null)).toBe(true);
    expect(seedLabels.some((l) => l.scopeGroupIds !== null && l.scopeGroupIds.length > 0)).toBe(true);
    expect(seedLabels.some((l) => !l.isActive)).toBe(true);
  });
});

describe('seed templates', () => {
  it('parses every template with the wire schema', () => {
    expect(parsedTemplates).toHaveLength(seedTemplates.length);
    expect(seedTemplates.length).toBeGreaterThanOrEqual(6);
  });

  it('gives every template a unique stable id, a small inline picture and naming defaults', () => {
    const ids = parsedTemplates.map((t) => t.templateConfiguration.id);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(distinct(ids)).toBe(ids.length);
    for (const { templateConfiguration: config, newTeam } of parsedTemplates) {
      expect(config.pictureUrl).toMatch(/^data:image\/svg\+xml;base64,/);
      expect(config.pictureUrl!.length).toBeLessThan(1024);
      expect(config.description.length).toBeGreaterThan(0);
      expect(newTeam.namingConvention ?? newTeam.defaultName).toBeTruthy();
    }
  });

  it('references only seed people, active-or-not seed labels and existing tab channels', () => {
    for (const { templateConfiguration: config, newTeam } of parsedTemplates) {
      const refs = [
        ...config.approval.approvalTeam,
        ...config.permanentMembership.owners,
        ...config.permanentMembership.members,
        ...(config.approval.stages ?? []).flatMap((s) =>
          s.approvers.kind === 'people' ? s.approvers.people : [],
        ),
      ];
      for (const ref of refs) {
        expect(userIds).toContain(ref.id);
        expect(seedUsers.find((u) => u.id === ref.id)?.displayName).toBe(ref.name);
      }
      if (config.sensitivityLabelId !== null) expect(labelIds).toContain(config.sensitivityLabelId);
      // A staged policy names its approvers in its stages; the older format in its approval team.
      if (config.approval.requireApproval)
        expect(config.approval.stages?.length ?? config.approval.approvalTeam.length).toBeGreaterThan(0);
      if (config.audienceTargeting.enabled) expect(config.audienceTargeting.rules.length).toBeGreaterThan(0);
      const channels = ['General', ...newTeam.channels.map((c) => c.displayName)];
      for (const tab of newTeam.tabs) expect(channels).toContain(tab.channel);
    }
  });

  it('covers every governance feature the demo shows', () => {
    const adele = userNamed('Adele Vance').id;
    expect(adele).toBe('00000000-0000-0000-0000-000000000022');
    const approval = parsedTemplates.filter((t) => t.templateConfiguration.approval.requireApproval);
    expect(
      approval.some((t) => t.templateConfiguration.approval.approvalTeam.some((m) => m.id === adele)),
    ).toBe(true);
    expect(parsedTemplates.some((t) => t.clonedTeam?.teamId === 'seed-team-onboarding-template')).toBe(true);
    const withPermanent = parsedTemplates.filter(
      (t) =>
        t.templateConfiguration.permanentMembership.owners.length +
          t.templateConfiguration.permanentMembership.members.length >
        0,
    );
    expect(withPermanent.length).toBeGreaterThanOrEqual(2);
    expect(parsedTemplates.some((t) => !t.templateConfiguration.enabled)).toBe(true);
    expect(parsedTemplates.some((t) => t.templateConfiguration.singleton)).toBe(true);
    expect(
      parsedTemplates.some(
        (t) => t.templateConfiguration.sensitivityLabelId && t.newTeam.teamPrivacy === 'private',
      ),
    ).toBe(true);
    const rules = parsedTemplates.map((t) => t.templateConfiguration.audienceTargeting.rules);
    expect(rules).toContain(
      "( user.country === 'FR' || user.country === 'BE' ) && user.department === 'Marketing'",
    );
    expect(rules).toContain("user.groups.direct.some(group => group.displayName.includes('Onboarding'))");
    expect(rules).toContain('/@contoso\\.(com|fr)$/.test(user.mail)');
  });

  it('keeps the open project template free of approval and audience rules', () => {
    const project = template('project');
    expect(project.templateConfiguration.approval.requireApproval).toBe(false);
    expect(project.templateConfiguration.audienceTargeting.enabled).toBe(false);
    expect(project.newTeam.namingConvention).toBe('PRJ-<%= request.team.name %>');
    expect(project.newTeam.tabs[0]?.teamsAppId).toBe('com.microsoft.teamspace.tab.web');
  });

  it("matches the facts Alex Wilber's audience rules depend on", () => {
    // Alex sees department-marketing and onboarding-buddy, not marketing-campaign-fr-be,
    // contoso-internal, legal-matter, communaute-francophone or it-announcements.
    const alex = userNamed('Alex Wilber');
    const alexGroups = seedGroups.filter((g) => alex.groupIds.includes(g.id)).map((g) => g.displayName);
    expect(alex.department).toBe('Marketing');
    expect(alex.country).toBe('US');
    expect(alexGroups.some((name) => name.includes('Onboarding'))).toBe(true);
    expect(alexGroups).not.toContain('IT Admins');
    expect(/@contoso\.(com|fr)$/.test(alex.mail ?? '')).toBe(false);
    expect(alex.preferredLanguage?.startsWith('fr-')).toBe(false);
  });
});
