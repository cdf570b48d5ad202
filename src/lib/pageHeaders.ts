/**
 * The response headers of every HTML page Steward serves, in one place so that no page forgets
 * one: the content policy forbids scripts, and `frame-ancestors` says who may frame the page.
 */

/**
 * The hosts Microsoft 365 runs Teams tabs in (Teams, the Microsoft 365 app, Outlook, and the
 * `*.cloud.microsoft` domain they are moving to), as the Teams tab requirements list them.
 */
export const TEAMS_TAB_HOSTS: readonly string[] = [
  'https://teams.microsoft.com',
  'https://*.teams.microsoft.com',
  'https://*.cloud.microsoft',
  'https://*.microsoft365.com',
  'https://*.office.com',
  'https://outlook.office.com',
  'https://outlook.office365.com',
];

/** Who may show a page in a frame: nobody, or Teams tabs (and the page's own origin). */
export type Framing = 'none' | 'teams-tab';

/**
 * Headers for an HTML page whose content policy is `policy` (without `frame-ancestors`, added here).
 * A page nobody may frame also carries `X-Frame-Options: DENY` for browsers older than CSP 2; a
 * page Teams may frame carries none, because `X-Frame-Options` cannot name several origins and
 * browsers that read `frame-ancestors` ignore it.
 */
export function htmlPageHeaders(policy: string, framing: Framing): Record<string, string> {
  const ancestors = framing === 'none' ? "'none'" : ["'self'", ...TEAMS_TAB_HOSTS].join(' ');
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': `${policy}; frame-ancestors ${ancestors}`,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
    ...(framing === 'none' ? { 'X-Frame-Options': 'DENY' } : {}),
  };
}
