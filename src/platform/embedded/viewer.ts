import type { TeamViewSource } from './teams';
import { type NamedLabel } from '../../domain/labels';
import { htmlPageHeaders } from '../../lib/pageHeaders';
import { workspaceSections } from './teamToolsViewer';
import { channels, members, overview, settings, welcome } from './teamPageSections';
import { escapeHtml } from './viewerText';

export { escapeHtml, htmlToText, httpUrlOrUndefined } from './viewerText';
export { activityPath, BACKDATE_DAYS, backdatePath } from './teamPageSections';

/**
 * The embedded tenant's read-only pages (`/platform/teams…`): what a person would see in Teams
 * after Steward provisioned a team. Static HTML with inline CSS and no script; every piece of text
 * comes from requests and is escaped, because team names and messages are user input.
 */

/** Headers for the viewer's pages: HTML, and a policy that forbids scripts should anything slip through. */
export const VIEWER_HEADERS: Readonly<Record<string, string>> = {
  ...htmlPageHeaders(
    "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'",
    'none',
  ),
  // Under `no-referrer` a browser posts the viewer's own forms with `Origin: null` (Fetch
  // standard), which the origin check must refuse; `same-origin` still sends no referrer elsewhere.
  'Referrer-Policy': 'same-origin',
};

const STYLE = `
body{font-family:"Segoe UI",system-ui,-apple-system,sans-serif;margin:0;background:#f5f5f5;color:#242424}
header{background:#5b5fc7;color:#fff;padding:16px 24px}
header a{color:#fff}
main{max-width:960px;margin:24px auto;padding:0 16px}
section{background:#fff;border-radius:8px;padding:16px 20px;margin-bottom:16px;box-shadow:0 1px 2px rgba(0,0,0,.1)}
h1{font-size:22px;margin:0}
h2{font-size:16px;margin:0 0 12px}
h3{font-size:14px;margin:12px 0 4px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:0}
dt{color:#616161}
dd{margin:0}
ul{margin:0;padding-left:20px}
li{margin:4px 0}
.badge{display:inline-block;font-size:11px;border-radius:4px;padding:1px 6px;margin-left:6px;background:#e8ebfa;color:#4f52b2}
.archived{background:#fde7e9;color:#a4262c}
.muted{color:#616161}
.message{white-space:pre-wrap;border-left:3px solid #5b5fc7;padding:4px 12px;margin:8px 0}
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Steward embedded tenant</title>
<style>${STYLE}</style>
</head>
<body>
<header><a href="/platform/teams">Steward embedded tenant</a><h1>${escapeHtml(title)}</h1></header>
<main>
${body}
</main>
</body>
</html>
`;
}

function teamLink(id: string): string {
  return `/platform/teams/${encodeURIComponent(id)}`;
}

/** The list of every team of the embedded tenant, each linking to its page. */
export async function renderTeamListPage(source: TeamViewSource): Promise<string> {
  const teams = await source.listTeamSummaries();
  const items = teams.map(
    (team) =>
      `<li><a href="${escapeHtml(teamLink(team.id))}">${escapeHtml(team.displayName)}</a>` +
      `<span class="badge">${escapeHtml(team.visibility)}</span>` +
      (team.isArchived ? '<span class="badge archived">archived</span>' : '') +
      '</li>',
  );
  const list = items.length > 0 ? `<ul>${items.join('\n')}</ul>` : '<p class="muted">No team yet.</p>';
  return page(
    'Teams',
    `<section><h2>${teams.length} team${teams.length === 1 ? '' : 's'}</h2>${list}</section>`,
  );
}

/**
 * The page of one team; undefined when the tenant has no such team. `labels` are the tenant's
 * sensitivity labels, so the team's label shows by name, under its parent, as Teams shows it.
 */
export async function renderTeamPage(
  source: TeamViewSource,
  teamId: string,
  labels: readonly NamedLabel[] = [],
): Promise<string | undefined> {
  const view = await source.viewTeam(teamId);
  if (!view) return undefined;
  return page(
    view.team.displayName,
    [
      overview(view, labels),
      members(view),
      channels(view),
      settings(view),
      ...workspaceSections(view.workspace),
      welcome(view),
    ].join('\n'),
  );
}

/** The answer to a form that did not come from the viewer's own pages. */
export function renderViewerForeignFormPage(): string {
  return page(
    'Not from this page',
    "<section><p>Only the viewer's own pages may change a team.</p></section>",
  );
}

/** The answer to a browser on another machine: the embedded tenant is only shown to this one. */
export function renderViewerLoopbackOnlyPage(): string {
  return page(
    'Only on this machine',
    "<section><p>The embedded tenant's pages list every team, private ones included, with the " +
      'people in them, and have no sign-in: they are served only to browsers on the machine ' +
      'Steward runs on (a loopback address).</p></section>',
  );
}

/** The page answered for an unknown team (sent with status 404). */
export function renderTeamNotFoundPage(teamId: string): string {
  return page(
    'Team not found',
    `<section><p>The embedded tenant has no team <code>${escapeHtml(teamId)}</code>.</p>` +
      '<p><a href="/platform/teams">All teams</a></p></section>',
  );
}
