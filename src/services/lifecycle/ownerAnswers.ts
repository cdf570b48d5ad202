import type { Kysely } from 'kysely';
import { callerRecord } from '../../domain/audit';
import type { Caller } from '../../domain/caller';
import { dayOf } from '../../domain/lifecycle/dates';
import type { LifecycleActivity, LifecycleNotice, NotRightPersonAnswer } from '../../contract';
import type { TeamsPlatform } from '../../platform/port';
import type { LifecycleRepository } from '../../store/lifecycle/lifecycle';
import type { Database } from '../../store/schema';
import type { AuditLog } from '../audit/audit';
import type { EventBus } from '../webhooks/events';
import { requireActive, TeamAccess } from '../access/teamAccess';

/**
 * What an owner answers on a lifecycle notice besides renewing or archiving: "Keep it" (the team is
 * in use: it counts as activity today) and "I'm not the right person". Both are the team's owners'
 * (or governance managers' and admins'), and both are audited in the `lifecycle` trail.
 */
export class LifecycleOwnerAnswers {
  private readonly access: TeamAccess;

  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      store: LifecycleRepository;
      teams: TeamsPlatform;
      audit: AuditLog;
      events: EventBus;
      now: () => Date;
    },
  ) {
    this.access = new TeamAccess(deps.teams);
  }

  /** Records activity in the team today, so the next evaluation sees it active. */
  async keep(caller: Caller, teamId: string): Promise<LifecycleActivity> {
    const team = await this.access.require(teamId);
    await this.access.requireRelation(caller, teamId, 'owner');
    requireActive(team);
    const now = this.deps.now();
    const today = dayOf(now);
    const target = { id: team.id, displayName: team.displayName };
    const events = await this.deps.db.transaction().execute(async (trx) => {
      await this.deps.store.recordActivity(teamId, today, now, trx);
      await this.deps.audit.record(
        trx,
        callerRecord(caller, {
          trail: 'lifecycle',
          action: 'team_kept_active',
          target: { type: 'team', ...target },
          details: { lastActivityDate: today },
        }),
        now,
      );
      // Told like a renewal: who kept the team, and the activity day it now counts from.
      const keptBy = { id: caller.id, displayName: caller.name ?? caller.id };
      const payload = { team: target, requester: keptBy, lifecycle: { lastActivityDate: today } };
      return [await this.deps.events.record(trx, 'team_kept_active', payload, now)];
    });
    this.deps.events.publish(events);
    return { teamId, lastActivityDate: today };
  }

  /** Records that the caller, an owner, is not the one to answer `notice` for the team. */
  async notRightPerson(
    caller: Caller,
    teamId: string,
    notice: LifecycleNotice,
  ): Promise<NotRightPersonAnswer> {
    const team = await this.access.require(teamId);
    await this.access.requireRelation(caller, teamId, 'owner');
    const members = await this.access.membersOf(teamId);
    const otherOwnerCount = members.filter((m) => m.roles.includes('owner') && m.userId !== caller.id).length;
    const now = this.deps.now();
    await this.deps.audit.record(
      this.deps.db,
      callerRecord(caller, {
        trail: 'lifecycle',
        action: 'owner_not_right_person',
        target: { type: 'team', id: team.id, displayName: team.displayName },
        details: { notice, otherOwnerCount },
      }),
      now,
    );
    return { teamId, notice, recordedDateTime: now.toISOString(), otherOwnerCount };
  }
}
