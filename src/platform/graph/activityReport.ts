import { createInterface } from 'node:readline';
import { type Dispatcher, request } from 'undici';
import { PlatformError } from '../../domain/errors';
import type { TeamActivity } from '../port';
import type { GraphClient } from './client';

/**
 * The report's period: the longest Graph offers (`D7`, `D30`, `D90`, `D180`). A team with no
 * activity in it has an empty "Last Activity Date"; Steward keeps the last day an earlier report gave.
 */
const PERIOD = 'D180';

/**
 * Graph's Teams activity report by team (`reportRoot: getTeamsTeamActivityDetail`, v1.0): the call
 * answers 302 with a pre-authenticated download URL (valid a few minutes, no Authorization header:
 * our token is never sent there), which serves a CSV whose columns include "Team Id" and "Last
 * Activity Date". The CSV is read line by line, so a tenant's report is never held in memory.
 * Needs the application permission Reports.Read.All; with the tenant's report privacy setting on,
 * team ids are concealed and no team matches.
 */
export async function* teamActivityReport(
  client: GraphClient,
  dispatcher: Dispatcher,
): AsyncIterable<TeamActivity> {
  const redirect = await client.send({
    method: 'GET',
    path: `/reports/getTeamsTeamActivityDetail(period='${PERIOD}')`,
  });
  const location = redirect.headers.location;
  if (redirect.status !== 302 || !location) {
    throw new PlatformError(
      `Microsoft Graph's Teams activity report answered ${redirect.status} without a download URL.`,
      redirect.status,
      false,
    );
  }
  const download = await request(location, { method: 'GET', dispatcher });
  if (download.statusCode !== 200) {
    await download.body.dump();
    throw new PlatformError(
      `The Teams activity report's download answered ${download.statusCode}.`,
      download.statusCode,
      download.statusCode >= 500,
    );
  }
  const lines = createInterface({ input: download.body, crlfDelay: Infinity });
  let idColumn = -1;
  let dateColumn = -1;
  for await (const raw of lines) {
    const line = raw.replace(/^\uFEFF/, '');
    if (line.trim() === '') continue;
    const fields = csvFields(line);
    if (idColumn < 0) {
      const names = fields.map((f) => f.trim().toLowerCase());
      idColumn = names.indexOf('team id');
      dateColumn = names.indexOf('last activity date');
      if (idColumn < 0 || dateColumn < 0) {
        lines.close();
        throw new PlatformError(
          'The Teams activity report has no "Team Id" or "Last Activity Date" column.',
          0,
          false,
        );
      }
      continue;
    }
    const teamId = fields[idColumn]?.trim();
    if (!teamId) continue;
    const date = fields[dateColumn]?.trim() ?? '';
    yield { teamId, lastActivityDate: /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : null };
  }
}

/** The fields of one CSV line (RFC 4180: quoted fields may hold commas and doubled quotes). */
export function csvFields(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      fields.push(field);
      field = '';
    } else field += char;
  }
  fields.push(field);
  return fields;
}
