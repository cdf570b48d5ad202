import { seedUsers } from './directory';

/** Helpers of the demo catalog's data. */

/** A `{id, name}` reference to a seed person, by display name; a typo fails at load time. */
export function personRef(displayName: string): { id: string; name: string } {
  const user = seedUsers.find((u) => u.displayName === displayName);
  if (!user) throw new Error(`seed templates reference an unknown person: ${displayName}`);
  return { id: user.id, name: user.displayName };
}

/** A square badge with a short caption, as an inline SVG data URI (works offline, well under 1 kB). */
export function badge(caption: string, color: string): string {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96">' +
    `<rect width="96" height="96" rx="16" fill="${color}"/>` +
    '<text x="48" y="58" font-family="Segoe UI,Arial,sans-serif" font-size="28" font-weight="600" ' +
    `fill="#FFFFFF" text-anchor="middle">${caption}</text></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

export const webTab = (channel: string, displayName: string, path: string) => ({
  channel,
  displayName,
  teamsAppId: 'com.microsoft.teamspace.tab.web',
  configuration: {
    entityId: path.replace(/\W+/g, '-'),
    contentUrl: `https://example.com/${path}`,
    websiteUrl: `https://example.com/${path}`,
  },
});
