import {
  decideLifecycle,
  EMPTY_LIFECYCLE_RECORD,
  type LifecycleFacts,
  renewedRecord,
} from '../../src/domain/lifecycle/decide';
import { addDays, daysBetween, isCalendarDate } from '../../src/domain/lifecycle/dates';
import { LifecyclePolicy } from '../../src/domain/wire';

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
});
