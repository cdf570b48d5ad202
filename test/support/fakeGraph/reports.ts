import { randomUUID } from 'node:crypto';
import { fail, type Reply } from './protocol';
import type { GroupRecord, TeamRecord } from './records';

/**
 * Graph's Teams activity report by team (`api/reportroot-getteamsteamactivitydetail.md`, v1.0):
 * `GET /reports/getTeamsTeamActivityDetail(period='D7'|'D30'|'D90'|'D180')` answers 302 with a
 * pre-authenticated download URL in `Location` (valid a few minutes, no Authorization header), which
 * serves the CSV: a header line, then one line per team, "Last Activity Date" empty when the team
 * had no activity in the period. The real file starts with a UTF-8 byte order mark; so does this one.
 */
export class ActivityReports {
  private readonly downloads = new Map<string, { csv: string; expiresAt: number }>();

  constructor(private readonly origin: () => string) {}

  /** The 302 to a new download of the report over `teams` (team names are quoted, as they may hold commas). */
  redirect(period: string, teams: Iterable<TeamRecord>, groups: ReadonlyMap<string, GroupRecord>): Reply {
    const days = /^D(7|30|90|180)$/.exec(period)?.[1];
    if (!days) return fail(400, 'BadRequest', `Invalid period '${period}'.`);
    const refresh = new Date().toISOString().slice(0, 10);
    const since = new Date(Date.now() - Number(days) * 86_400_000).toISOString().slice(0, 10);
    const lines = [
      'Report Refresh Date,Team Name,Team Id,Team Type,Last Activity Date,Report Period,Active Users,Active Channels,Guests,Reactions,Meetings Organized,Post Messages,Reply Messages,Channel Messages,Urgent Messages,Mentions,Active Shared Channels,Active External Users',
    ];
    for (const team of teams) {
      const group = groups.get(team.id);
      const name = `"${(group?.displayName ?? '').replace(/"/g, '""')}"`;
      const type = group?.visibility ?? 'Private';
      const last = team.lastActivityDate && team.lastActivityDate >= since ? team.lastActivityDate : '';
      const guests = team.members.filter((m) => m.roles.includes('guest')).length;
      lines.push(`${refresh},${name},${team.id},${type},${last},${days},0,0,${guests},0,0,0,0,0,0,0,0,0`);
    }
    const token = randomUUID();
    this.downloads.set(token, { csv: `\uFEFF${lines.join('\r\n')}\r\n`, expiresAt: Date.now() + 5 * 60_000 });
    return { status: 302, headers: { location: `${this.origin()}/reports-download/${token}` } };
  }

  /** The download: the CSV, or 404 once the URL expired or for one never issued. */
  download(token: string): { status: number; csv?: string } {
    const found = this.downloads.get(token);
    if (!found || found.expiresAt < Date.now()) return { status: 404 };
    return { status: 200, csv: found.csv };
  }
}
