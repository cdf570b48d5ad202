import type { StewardClient, TeamLifecycle } from '../../client';
import { isStatus } from '../apiFailures';
import { asCaller, cardReply, type Failure, type Reply } from '../conversations/reply';
import { type Reader, say } from '../i18n/catalog';
import { summarizeJob } from '../shared/jobSummary';
import type { FeatureIntents } from '../understanding/answerParts';
import { EXPIRING_TEAMS_SHOWN, type ExpiringTeam, renderExpiringTeamsCard } from './expiringTeamsCard';

const LIST_TEAMS: Failure = { subject: 'team', doing: 'listTeams' };

/**
 * The person's requests looked through for their teams; the teams whose lifecycle is read at most
 * (one call each, within the person's 60 calls a minute), newest first; and reads at once.
 */
const TEAMS_FROM_REQUESTS = 50;
const TEAMS_CHECKED = 20;
const LIFECYCLE_READS_AT_ONCE = 4;

/** The intents of teams' lifecycle: which of one's teams expire or are inactive. */
export const lifecycleIntents = {
  askExpiringTeams: {
    answer: ({ context, deps, reader }) =>
      asCaller(context, deps, LIST_TEAMS, (api) => expiringTeams(api, reader)),
  },
} satisfies FeatureIntents;

/**
 * `askExpiringTeams`: of the teams the person's requests made (the API has no list of a person's
 * teams), those that expire, expired or are inactive by their lifecycle (`GET
 * /teams/{id}/lifecycle`, owners only: a team they no longer own is left out), with the
 * lifecycle cards' buttons.
 */
async function expiringTeams(api: StewardClient, reader: Reader): Promise<Reply> {
  const jobs = (await api.getMyJobs({ top: TEAMS_FROM_REQUESTS })).value;
  const newestFirst = [...jobs].sort((a, b) => b.createdDateTime.localeCompare(a.createdDateTime));
  const teamIds = [
    ...new Set(
      newestFirst.flatMap((job) => {
        const summary = summarizeJob(job);
        const team = job.data.team;
        const id = team && typeof team === 'object' ? (team as { id?: unknown }).id : undefined;
        return summary.kind === 'provisioning' &&
          summary.status === 'completed' &&
          typeof id === 'string' &&
          id
          ? [id]
          : [];
      }),
    ),
  ].slice(0, TEAMS_CHECKED);
  const teams: ExpiringTeam[] = [];
  for (let start = 0; start < teamIds.length; start += LIFECYCLE_READS_AT_ONCE) {
    const read = await Promise.all(
      teamIds.slice(start, start + LIFECYCLE_READS_AT_ONCE).map((id) => lifecycleOf(api, id)),
    );
    for (const lifecycle of read) {
      const team = lifecycle && expiring(lifecycle);
      if (team) teams.push(team);
    }
    if (teams.length >= EXPIRING_TEAMS_SHOWN) break;
  }
  if (teams.length === 0) return { kind: 'text', text: say(reader, 'understood.expiring.none') };
  return cardReply(renderExpiringTeamsCard(teams, reader));
}

/** A team's lifecycle, or null when the person may not read it (not an owner) or it is gone. */
async function lifecycleOf(api: StewardClient, teamId: string): Promise<TeamLifecycle | null> {
  try {
    return await api.getTeamLifecycle(teamId);
  } catch (error) {
    if (isStatus(error, 403) || isStatus(error, 404)) return null;
    throw error;
  }
}

/** The team as the answer lists it when it expires, expired or is inactive; null otherwise. */
function expiring(lifecycle: TeamLifecycle): ExpiringTeam | null {
  // A team short of owners is `ownerless` first: what the next evaluation would do still says it.
  const due = new Set(lifecycle.pendingActions.map((action) => action.action));
  const state: ExpiringTeam['state'] | null =
    lifecycle.state === 'expired' || due.has('expire')
      ? 'expired'
      : lifecycle.state === 'expiring' || due.has('renewalNotice')
        ? 'expiring'
        : lifecycle.state === 'inactive' || due.has('inactivityNotice') || due.has('inactivityArchive')
          ? 'inactive'
          : null;
  if (state === null) return null;
  return {
    teamId: lifecycle.teamId,
    name: lifecycle.displayName,
    state,
    expiresOn: lifecycle.expiresOn,
    renewDays: lifecycle.policy.expiration.days,
    lastActivityDate: lifecycle.lastActivityDateTime?.slice(0, 10) ?? null,
  };
}
