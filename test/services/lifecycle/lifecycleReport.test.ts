import { request } from 'undici';
import type { LifecycleRenewal, ReportUrl } from '../../../src/contract';
import { databaseKinds } from '../../support/databases';
import { DAY, evaluate, lifecycleTemplate, provisionTeam } from '../../support/lifecycle';
import { stewardOnMovedClock } from '../../support/movedClock';
import { figure, table } from '../../support/reportPages';
import { PEOPLE, type TestSteward } from '../../support/steward';

const day = (at: number) => new Date(at).toISOString().slice(0, 10);

/**
 * The lifecycle dashboard beside the other reports, over HTTP with Steward's clock moved 340 days
 * on: a team of each kind lands in its list with the date that put it there, a renewal takes its
 * team off "expiring" at once, and renewals are counted per month from the audit trail.
 */
describe.each(databaseKinds)('lifecycle dashboard on %s', (kind) => {
  const steward = stewardOnMovedClock(kind, { STEWARD_LIFECYCLE_EVALUATION_AT: 'off' });

  const dashboard = async (app: TestSteward, query = '') => {
    const lynne = await app.userToken(PEOPLE.lynne, ['GOVERNANCE_MANAGER']);
    const res = await app.call<ReportUrl>('GET', `/api/v1.0/reports/dashboard/lifecycle-overview${query}`, {
      token: lynne,
    });
    expect(res.status).toBe(200);
    const page = await request(res.body.url);
    expect(page.statusCode).toBe(200);
    return page.body.text();
  };
  const renew = async (app: TestSteward, teamId: string) => {
    const alex = await app.userToken(PEOPLE.alex);
    const res = await app.call<LifecycleRenewal>('POST', `/api/v1.0/teams/${teamId}/lifecycle/renew`, {
      token: alex,
    });
    expect(res.status).toBe(200);
    return res.body;
  };

  test('expiring, expired, inactive, short of owners, guest reviews overdue, renewals per month', async () => {
    const app = await steward.start();
    const expiring = { enabled: true, days: 365, onExpiry: 'none' as const };
    await lifecycleTemplate(app, 'yearly', { expiration: expiring });
    await lifecycleTemplate(app, 'short', { expiration: { ...expiring, days: 100 } });
    await lifecycleTemplate(app, 'quiet', { inactivity: { enabled: true, days: 30 } });
    await lifecycleTemplate(app, 'asking', { ownership: { minimumOwners: 1, onOwnerless: 'askMembers' } });
    await lifecycleTemplate(app, 'guests', { guestReview: { enabled: true, everyDays: 30 } });
    const created = day(steward.clock());
    const renewedLater = await provisionTeam(app, 'yearly', 'Renewed later');
    const renewedFirst = await provisionTeam(app, 'yearly', 'Renewed first');
    const expired = await provisionTeam(app, 'short', 'Expired');
    const quiet = await provisionTeam(app, 'quiet', 'Quiet');
    const orphan = await provisionTeam(app, 'asking', 'Orphan');
    const guests = await provisionTeam(app, 'guests', 'Guests');
    const db = app.steward.store.db;
    await db
      .deleteFrom('platform_members')
      .where('team_id', '=', orphan)
      .where('role', '=', 'owner')
      .execute();
    await db
      .insertInto('platform_members')
      .values({
        id: `${guests}-guest`,
        team_id: guests,
        user_id: 'guest-1',
        role: 'guest',
        created_at: created,
      })
      .execute();
    const firstRenewal = await renew(app, renewedFirst);

    // 340 days on (at noon, so no step falls on either side of a midnight), the nightly evaluation.
    steward.moveTo(Date.parse(`${created}T12:00:00Z`) + 340 * DAY);
    const today = day(steward.clock());
    await evaluate(app);
    const secondRenewal = await renew(app, renewedLater);
    expect(secondRenewal.expiresOn).toBe(day(steward.clock() + 365 * DAY));

    const html = await dashboard(app);
    const mine = new Set([renewedLater, renewedFirst, expired, quiet, orphan, guests]);
    const listed = (id: string) => table(html, id).filter(([, teamId]) => mine.has(teamId!));
    // Renewed on the first day, it expires 25 days from now; the other renewal took its team off.
    expect(listed('expiring-soon')).toEqual([['Renewed first', renewedFirst, firstRenewal.expiresOn]]);
    expect(listed('expired')).toEqual([['Expired', expired, day(Date.parse(created) + 100 * DAY)]]);
    expect(listed('inactive')).toEqual([['Quiet', quiet, day(Date.parse(created) + 30 * DAY)]]);
    expect(listed('ownerless')).toEqual([['Orphan', orphan, today]]);
    expect(listed('guest-reviews-overdue')).toEqual([
      ['Guests', guests, day(Date.parse(created) + 30 * DAY)],
    ]);
    // Every figure counts its whole list (the seeded tenant's teams follow the tenant default).
    for (const id of ['expiring-soon', 'expired', 'inactive', 'ownerless', 'guest-reviews-overdue'])
      expect([id, figure(html, id)]).toEqual([id, String(table(html, id).length)]);
    const months = [created.slice(0, 7), today.slice(0, 7)];
    expect(table(html, 'renewals-per-month')).toEqual(months.map((m) => [m, '1']));
    expect(figure(html, 'renewals')).toBe('2');
    const teams = await db.selectFrom('platform_teams').select('id').execute();
    expect(figure(html, 'teams-evaluated')).toBe(String(teams.length));

    // `from` and `to` choose the months of renewals.
    const lastMonth = await dashboard(app, `?from=${today.slice(0, 7)}-01`);
    expect(table(lastMonth, 'renewals-per-month')).toEqual([[today.slice(0, 7), '1']]);

    // An archived team leaves every list once an evaluation has seen it archived.
    await db.updateTable('platform_teams').set({ is_archived: 1 }).where('id', '=', quiet).execute();
    await evaluate(app);
    expect(table(await dashboard(app), 'inactive').map(([, teamId]) => teamId)).not.toContain(quiet);
  });
});
