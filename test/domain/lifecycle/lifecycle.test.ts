import {
  decideLifecycle,
  EMPTY_LIFECYCLE_RECORD,
  type LifecycleFacts,
  renewedRecord,
} from '../../../src/domain/lifecycle/decide';
import { addDays, daysBetween, isCalendarDate } from '../../../src/domain/lifecycle/dates';
import { LifecyclePolicy } from '../../../src/contract';

const TEAM: LifecycleFacts = {
  teamId: 't1',
  displayName: 'Sales',
  createdDateTime: '2025-01-01T09:30:00Z',
  isArchived: false,
  lastActivityDate: null,
  ownerIds: ['o1', 'o2'],
  guestIds: [],
};

/** The pure decisions the evaluator, its preview and a team's pending actions share. */
describe('lifecycle decisions', () => {
  test('calendar days', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2025-03-01', -1)).toBe('2025-02-28');
    expect(daysBetween('2025-01-01', '2026-01-01')).toBe(365);
    expect(isCalendarDate('2025-02-29')).toBe(false);
    expect(isCalendarDate('2025-2-1')).toBe(false);
    expect(isCalendarDate('2024-02-29')).toBe(true);
  });

  test('inactivity: a notice once per period of silence, and archive instead when the policy says so', () => {
    const policy = LifecyclePolicy.parse({ inactivity: { enabled: true, days: 90 } });
    const facts = { ...TEAM, lastActivityDate: '2025-03-01' };
    expect(decideLifecycle(policy, facts, EMPTY_LIFECYCLE_RECORD, '2025-05-29').decisions).toEqual([]);
    const due = decideLifecycle(policy, facts, EMPTY_LIFECYCLE_RECORD, '2025-05-30');
    expect(due.state).toBe('inactive');
    expect(due.decisions).toEqual([
      expect.objectContaining({ action: 'inactivityNotice', outcome: 'notify', dueOn: '2025-05-30' }),
    ]);
    expect(decideLifecycle(policy, facts, due.next, '2025-06-30').decisions).toEqual([]);
    // New activity, then silence again: a new notice.
    const later = { ...facts, lastActivityDate: '2025-07-01' };
    expect(decideLifecycle(policy, later, due.next, '2025-09-29').decisions).toHaveLength(1);
    const archiving = LifecyclePolicy.parse({
      inactivity: { enabled: true, days: 90, onInactive: 'archive' },
    });
    expect(decideLifecycle(archiving, facts, EMPTY_LIFECYCLE_RECORD, '2025-06-01').decisions[0]!.action).toBe(
      'inactivityArchive',
    );
  });

  test('guest reviews: due every N days from creation or the last review, announced once each', () => {
    const policy = LifecyclePolicy.parse({ guestReview: { enabled: true, everyDays: 90 } });
    const facts = { ...TEAM, guestIds: ['g1', 'g2'] };
    expect(decideLifecycle(policy, { ...TEAM }, EMPTY_LIFECYCLE_RECORD, '2026-01-01').decisions).toEqual([]);
    const due = decideLifecycle(policy, facts, EMPTY_LIFECYCLE_RECORD, '2025-04-01');
    expect(due.decisions).toEqual([expect.objectContaining({ action: 'guestReview', dueOn: '2025-04-01' })]);
    expect(decideLifecycle(policy, facts, due.next, '2025-04-02').decisions).toEqual([]);
    const reviewed = { ...due.next, guestReviewedOn: '2025-04-10' };
    expect(decideLifecycle(policy, facts, reviewed, '2025-07-09').decisions[0]?.dueOn).toBe('2025-07-09');
  });

  test('expiry: the most urgent notice only, then the expiry; a renewal starts over; archived teams are left alone', () => {
    const policy = LifecyclePolicy.parse({ expiration: { enabled: true, days: 365 } });
    // 2025-01-01 + 365 = 2026-01-01; 5 days left: the 30-day notice is moot, the 7-day one goes out.
    const late = decideLifecycle(policy, TEAM, EMPTY_LIFECYCLE_RECORD, '2025-12-27');
    expect(late.decisions).toEqual([expect.objectContaining({ action: 'renewalNotice', noticeDays: 7 })]);
    expect(late.next.noticesSent).toEqual(['2026-01-01:30', '2026-01-01:7']);
    const expired = decideLifecycle(policy, TEAM, late.next, '2026-01-01');
    expect(expired.decisions).toEqual([expect.objectContaining({ action: 'expire', outcome: 'archive' })]);
    const renewed = renewedRecord(expired.next, '2026-01-02');
    const after = decideLifecycle(policy, TEAM, renewed, '2026-01-02');
    expect(after).toMatchObject({ state: 'active', expiresOn: '2027-01-02', decisions: [] });
    expect(
      decideLifecycle(policy, { ...TEAM, isArchived: true }, EMPTY_LIFECYCLE_RECORD, '2027-01-01'),
    ).toMatchObject({
      state: 'archived',
      decisions: [],
    });
  });

  test('ownerless: members asked once, governance told once askMembersDays later, a new spell starts over', () => {
    const policy = LifecyclePolicy.parse({
      ownership: { minimumOwners: 1, onOwnerless: 'askMembers', askMembersDays: 7 },
    });
    expect(policy.ownership.askMembersDays).toBe(7);
    const orphan = { ...TEAM, ownerIds: [] };
    const asked = decideLifecycle(policy, orphan, EMPTY_LIFECYCLE_RECORD, '2025-03-01');
    expect(asked.state).toBe('ownerless');
    expect(asked.decisions).toEqual([
      expect.objectContaining({ action: 'ownerless', outcome: 'askMembers', dueOn: '2025-03-01' }),
    ]);
    expect(asked.next).toMatchObject({ ownerlessSince: '2025-03-01', ownerlessEscalatedOn: null });
    // Six days later nobody has stepped up, but the members still have a day.
    const waiting = decideLifecycle(policy, orphan, asked.next, '2025-03-07');
    expect(waiting.decisions).toEqual([]);
    const told = decideLifecycle(policy, orphan, waiting.next, '2025-03-08');
    expect(told.decisions).toEqual([
      expect.objectContaining({
        action: 'ownerless',
        outcome: 'notifyGovernance',
        dueOn: '2025-03-08',
        ownerlessSince: '2025-03-01',
      }),
    ]);
    expect(told.decisions[0]!.reason).toContain(
      'no member stepped up in the 7 days since they were asked on 2025-03-01',
    );
    expect(told.next).toMatchObject({ ownerlessSince: '2025-03-01', ownerlessEscalatedOn: '2025-03-08' });
    // Once per spell, however late the evaluations run.
    expect(decideLifecycle(policy, orphan, told.next, '2025-04-30').decisions).toEqual([]);
    // An evaluation that missed the day tells governance when it runs, with the day it was due.
    const late = decideLifecycle(policy, orphan, asked.next, '2025-03-20');
    expect(late.decisions).toEqual([
      expect.objectContaining({ outcome: 'notifyGovernance', dueOn: '2025-03-08' }),
    ]);
    // Someone became an owner: the spell ends; losing them again starts a new one.
    const owned = decideLifecycle(policy, { ...TEAM, ownerIds: ['o3'] }, told.next, '2025-05-01');
    expect(owned.next).toMatchObject({ ownerlessSince: null, ownerlessEscalatedOn: null });
    const again = decideLifecycle(policy, orphan, owned.next, '2025-06-01');
    expect(again.decisions).toEqual([
      expect.objectContaining({ outcome: 'askMembers', dueOn: '2025-06-01' }),
    ]);
    expect(decideLifecycle(policy, orphan, again.next, '2025-06-08').decisions).toEqual([
      expect.objectContaining({ outcome: 'notifyGovernance', dueOn: '2025-06-08' }),
    ]);
  });

  test('ownerless with notifyGovernance: governance told once, nothing more after askMembersDays', () => {
    const policy = LifecyclePolicy.parse({ ownership: { minimumOwners: 2 } });
    const short = { ...TEAM, ownerIds: ['o1'] };
    const told = decideLifecycle(policy, short, EMPTY_LIFECYCLE_RECORD, '2025-03-01');
    expect(told.state).toBe('active');
    expect(told.decisions).toEqual([expect.objectContaining({ outcome: 'notifyGovernance' })]);
    expect(decideLifecycle(policy, short, told.next, '2025-04-01').decisions).toEqual([]);
  });

  test('askMembersDays is validated like the other day counts', () => {
    for (const askMembersDays of [0, 1.5, 366, '7'])
      expect(LifecyclePolicy.safeParse({ ownership: { askMembersDays } }).success).toBe(false);
    expect(LifecyclePolicy.parse({ ownership: { askMembersDays: 365 } }).ownership.askMembersDays).toBe(365);
  });
});
