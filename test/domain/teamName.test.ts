import { TEAM_NAME_MAX_LENGTH, validateTeamName } from '../../src/domain/teamName';

describe('validateTeamName', () => {
  it('accepts ordinary names', () => {
    expect(validateTeamName('PRJ-Apollo')).toBeNull();
    expect(validateTeamName('Équipe marketing (FR) – 2026 🚀')).toBeNull();
    expect(validateTeamName('a')).toBeNull();
  });

  it("accepts 256 characters and refuses 257: Microsoft Graph's limit on a group's displayName", () => {
    expect(TEAM_NAME_MAX_LENGTH).toBe(256);
    expect(validateTeamName('x'.repeat(256))).toBeNull();
    expect(validateTeamName('x'.repeat(257))).toMatch(/at most 256 characters.*257/);
    expect(validateTeamName('x'.repeat(264))).toMatch(/at most 256 characters.*264/);
  });

  it('counts Unicode code points, not UTF-16 units', () => {
    expect(validateTeamName('🚀'.repeat(256))).toBeNull();
    expect(validateTeamName('🚀'.repeat(257))).toMatch(/at most 256/);
  });

  it('refuses empty and whitespace-only names', () => {
    expect(validateTeamName('')).toMatch(/empty/);
    expect(validateTeamName('   ')).toMatch(/whitespace/);
    expect(validateTeamName('\t\n\u00a0')).toMatch(/whitespace/);
  });

  it.each(['"', '*', ':', '<', '>', '?', '/', '\\'])('refuses %s and names it', (character) => {
    const message = validateTeamName(`PRJ${character}Apollo`);
    expect(message).toContain(`'${character}'`);
  });

  it('names the first forbidden character it meets', () => {
    expect(validateTeamName('a?b*c')).toContain("'?'");
  });
});
