import type { TeamChannelTab } from '../../contract';
import type { TeamView } from './teams';
import type { ChannelItem } from './files';
import { counted } from '../../lib/counted';
import { labelFullName, type NamedLabel } from '../../domain/labels';
import { escapeHtml, htmlToText, httpUrlOrUndefined } from './viewerText';

/**
 * The sections of a team's page in the viewer (overview, members, channels, settings, welcome),
 * and where its forms post. Every piece of text is escaped: it comes from requests.
 */

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
/** A label by name ("Confidential / All Employees"); its id only when the tenant has no such label. */
function labelText(labelId: string, labels: readonly NamedLabel[]): string {
  const label = labels.find((candidate) => candidate.id === labelId);
  return escapeHtml(label ? labelFullName(label, labels) : labelId);
}
export function overview(
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

export function members({ members }: TeamView): string {
  const items = members.map(
    (member) =>
      `<li>${escapeHtml(member.displayName)}` +
      (member.email ? ` <span class="muted">${escapeHtml(member.email)}</span>` : '') +
      (member.roles.includes('owner') ? '<span class="badge">owner</span>' : '') +
      '</li>',
  );
  return `<section><h2>Members (${members.length})</h2><ul>${items.join('\n')}</ul></section>`;
}

export function channels({ channels }: TeamView): string {
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
export function settings({ team }: TeamView): string {
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

export function welcome({ generalMessages }: TeamView): string {
  const messages = generalMessages.map(
    (message) =>
      `<div class="message">${escapeHtml(htmlToText(message.body))}</div>` +
      `<p class="muted">${escapeHtml(message.createdDateTime)}</p>`,
  );
  const body = messages.length > 0 ? messages.join('\n') : '<p class="muted">No message yet.</p>';
  return `<section><h2>General channel posts</h2>${body}</section>`;
}
