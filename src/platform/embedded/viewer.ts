import type { TeamChannelTab } from '../../contract';
import type { TeamView, TeamViewSource } from './teams';
import type { ChannelItem } from './files';
import { counted } from '../../lib/counted';
import { labelFullName, type NamedLabel } from '../../domain/labels';
import { escapeMarkup } from '../../lib/markup';
import { htmlPageHeaders } from '../../lib/pageHeaders';
import { workspaceSections } from './teamToolsViewer';

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

/** `text` safe to place in HTML content or a quoted attribute. */
export const escapeHtml = escapeMarkup;

/** Plain text of a message's HTML: line breaks kept, tags dropped, common entities decoded (and re-escaped on output). */
export function htmlToText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h[1-6])\s*>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();
}

/** `url` when it is an absolute http(s) URL, so a tab can never link to `javascript:` or `data:`. */
export function httpUrlOrUndefined(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

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

/** A label by name ("Confidential / All Employees"); its id only when the tenant has no such label. */
function labelText(labelId: string, labels: readonly NamedLabel[]): string {
  const label = labels.find((candidate) => candidate.id === labelId);
  return escapeHtml(label ? labelFullName(label, labels) : labelId);
}

/**
 * Where the viewer's "Mark as active" posts: the simulated tenant's stand-in for people working in
 * the team, which lifecycle governance reads as the team's last activity.
 */
export function activityPath(teamId: string): string {
  return `/platform/teams/${encodeURIComponent(teamId)}/activity`;
}

/**
 * How far "Make it older" moves a team's creation back: a team of a one-year policy is then 29
 * days from expiry, inside the usual 30-day renewal notice.
 */
export const BACKDATE_DAYS = 336;

/** Where the viewer's "Make it older" posts (a simulated tenant's shortcut through time, for demos). */
export function backdatePath(teamId: string): string {
  return `/platform/teams/${encodeURIComponent(teamId)}/backdate`;
}

/** The answer to a form that did not come from the viewer's own pages. */
export function renderViewerForeignFormPage(): string {
  return page(
    'Not from this page',
    "<section><p>Only the viewer's own pages may change a team.</p></section>",
  );
}

/** The page answered for an unknown team (sent with status 404). */
/** The answer to a browser on another machine: the embedded tenant is only shown to this one. */
export function renderViewerLoopbackOnlyPage(): string {
  return page(
    'Only on this machine',
    "<section><p>The embedded tenant's pages list every team, private ones included, with the " +
      'people in them, and have no sign-in: they are served only to browsers on the machine ' +
      'Steward runs on (a loopback address).</p></section>',
  );
}

export function renderTeamNotFoundPage(teamId: string): string {
  return page(
    'Team not found',
    `<section><p>The embedded tenant has no team <code>${escapeHtml(teamId)}</code>.</p>` +
      '<p><a href="/platform/teams">All teams</a></p></section>',
  );
}

function overview(
  { team, sensitivityLabelId, siteReadOnlyForMembers, lastActivityAt }: TeamView,
  labels: readonly NamedLabel[],
): string {
  const rows: Array<[string, string]> = [
    ['Description', team.description ? escapeHtml(team.description) : '<span class="muted">none</span>'],
    ['Visibility', escapeHtml(team.visibility)],
    [
      'Archived',
      team.isArchived
        ? `<span class="badge archived">archived</span>${siteReadOnlyForMembers ? ' site read-only for members' : ''}`
        : 'no',
    ],
    [
      'Sensitivity label',
      sensitivityLabelId ? labelText(sensitivityLabelId, labels) : '<span class="muted">none</span>',
    ],
    ['Team id', escapeHtml(team.id)],
    [
      'Created',
      `${escapeHtml(team.createdDateTime)} <form method="post" action="${backdatePath(team.id)}">` +
        `<button type="submit">Make it ${BACKDATE_DAYS} days older</button></form>`,
    ],
    [
      'Last activity',
      `${escapeHtml(lastActivityAt)} <form method="post" action="${activityPath(team.id)}">` +
        '<button type="submit">Mark as active</button></form>',
    ],
  ];
  const list = rows.map(([term, value]) => `<dt>${term}</dt><dd>${value}</dd>`).join('');
  return `<section><h2>Overview</h2><dl>${list}</dl></section>`;
}

function members({ members }: TeamView): string {
  const items = members.map(
    (member) =>
      `<li>${escapeHtml(member.displayName)}` +
      (member.email ? ` <span class="muted">${escapeHtml(member.email)}</span>` : '') +
      (member.roles.includes('owner') ? '<span class="badge">owner</span>' : '') +
      '</li>',
  );
  return `<section><h2>Members (${members.length})</h2><ul>${items.join('\n')}</ul></section>`;
}

function channels({ channels }: TeamView): string {
  const blocks = channels.map(({ channel, tabs, items }) => {
    const type =
      channel.membershipType === 'standard'
        ? ''
        : `<span class="badge">${escapeHtml(channel.membershipType)}</span>`;
    const description = channel.description ? `<p class="muted">${escapeHtml(channel.description)}</p>` : '';
    const tabList =
      tabs.length > 0 ? `<ul>${tabs.map(tabItem).join('\n')}</ul>` : '<p class="muted">No tab.</p>';
    return `<h3>${escapeHtml(channel.displayName)}${type}</h3>${description}${tabList}${channelItems(items ?? [])}`;
  });
  return `<section><h2>Channels (${channels.length})</h2>${blocks.join('\n')}</section>`;
}

/** A channel's folders and files, as a tree of paths (nothing when it has none). */
function channelItems(items: readonly ChannelItem[]): string {
  if (items.length === 0) return '';
  const lines = items.map((item) => {
    const depth = item.path.split('/').length - 1;
    const name = escapeHtml(item.path.split('/').pop() ?? item.path);
    const what =
      item.kind === 'folder'
        ? '<span class="badge">folder</span>'
        : `<span class="muted">${counted(item.bytes ?? 0, 'byte')}</span>`;
    return `<li style="margin-left:${depth * 1.5}em">${name} ${what}</li>`;
  });
  return `<p>Files</p><ul class="files">${lines.join('\n')}</ul>`;
}

/** The team's member, guest, messaging and fun settings, each switch in words. */
function settings({ team }: TeamView): string {
  const groups: Array<[string, Record<string, unknown>]> = [
    ['Members', team.memberSettings],
    ['Guests', team.guestSettings],
    ['Messaging', team.messagingSettings],
    ['Fun', team.funSettings],
  ];
  const blocks = groups.map(([title, values]) => {
    const rows = Object.entries(values).map(
      ([name, value]) =>
        `<dt>${escapeHtml(settingName(name))}</dt><dd>${escapeHtml(typeof value === 'boolean' ? (value ? 'yes' : 'no') : String(value))}</dd>`,
    );
    return `<h3>${title}</h3><dl>${rows.join('')}</dl>`;
  });
  return `<section><h2>Settings</h2>${blocks.join('\n')}</section>`;
}

/** `allowCreatePrivateChannels` as "Allow create private channels". */
function settingName(name: string): string {
  const words = name
    .replace(/([A-Z])/g, ' $1')
    .toLowerCase()
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function tabItem(tab: TeamChannelTab): string {
  const url = httpUrlOrUndefined(tab.configuration.websiteUrl);
  const name = escapeHtml(tab.displayName);
  const label = url ? `<a href="${escapeHtml(url)}" rel="noopener noreferrer">${name}</a>` : name;
  return `<li>${label}<span class="badge">${escapeHtml(tab.teamsApp.displayName)}</span></li>`;
}

function welcome({ generalMessages }: TeamView): string {
  const messages = generalMessages.map(
    (message) =>
      `<div class="message">${escapeHtml(htmlToText(message.body))}</div>` +
      `<p class="muted">${escapeHtml(message.createdDateTime)}</p>`,
  );
  const body = messages.length > 0 ? messages.join('\n') : '<p class="muted">No message yet.</p>';
  return `<section><h2>General channel posts</h2>${body}</section>`;
}
