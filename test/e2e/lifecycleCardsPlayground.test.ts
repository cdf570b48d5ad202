import path from 'node:path';
import type { Browser } from 'playwright-core';
import type { TeamLifecycle, TeamMember } from '../../src/contract';
import { until } from '../support/deploymentChecks';
import { GUESTS, inviteGuests } from '../support/guests';
import {
  DAY,
  dayAfter,
  evaluate,
  lifecycleTemplate,
  longDay,
  provisionTeam,
  demoteEveryOwner,
} from '../support/lifecycle';
import { PEOPLE } from '../support/steward';
import { Artifacts } from './support/cards';
import { ChatPage } from './support/chatPage';
import { launchChromium } from './support/chromium';
import { describeWithPlayground, type E2eStack, startE2eStack } from './support/stack';
import { STEP_MS } from './support/steps';

/**
 * The ownerless, guest review and inactivity cards walked as people would: Steward all-in-one on a
 * moved clock, the lifecycle evaluation run on request, and the Microsoft 365 Agents Playgrounds of
 * Alex Wilber and Adele Vance, each page open in headless Chromium. Each person reads
 * the cards as the page draws them and clicks their buttons; what changed is then read back
 * through the API. Screenshots of each step are left in `artifacts/lifecycle-cards`.
 */
describeWithPlayground({ chromium: true })('lifecycle cards, clicked in the Agents Playground', () => {
  let stack: E2eStack;
  let browser: Browser;
  const pages: Partial<Record<'alex' | 'adele', ChatPage>> = {};
  let offset = 0;
  const artifacts = new Artifacts(path.join(__dirname, 'artifacts', 'lifecycle-cards'));

  beforeAll(async () => {
    stack = await startE2eStack(undefined, {
      env: { STEWARD_LIFECYCLE_EVALUATION_AT: 'off' },
      overrides: { clock: () => Date.now() + offset },
    });
    browser = await launchChromium();
    [pages.alex, pages.adele] = await Promise.all([
      ChatPage.open(browser, stack.alex, artifacts),
      ChatPage.open(browser, stack.adele, artifacts),
    ]);
    const app = stack.steward;
    await lifecycleTemplate(app, 'ask-members', {
      ownership: { minimumOwners: 1, onOwnerless: 'askMembers' },
    });
    await lifecycleTemplate(app, 'guests', { guestReview: { enabled: true, everyDays: 90 } });
    await lifecycleTemplate(app, 'dormant', {
      inactivity: { enabled: true, days: 30, onInactive: 'notify' },
    });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close(artifacts.dir);
  }, 30_000);

  const page = (person: 'alex' | 'adele') => pages[person]!;
  const alexToken = () => stack.steward.userToken(PEOPLE.alex, [], { name: 'Alex Wilber' });
  /** A team Alex requests from `template`, with `people` added in their roles. */
  const team = async (
    template: string,
    name: string,
    people: Array<{ id: string; role: 'owner' | 'member' }>,
  ) => {
    const teamId = await provisionTeam(stack.steward, template, name);
    const token = await alexToken();
    for (const { id, role } of people) {
      const added = await stack.steward.call('POST', `/api/v1.0/teams/${teamId}/members`, {
        token,
        body: { user: { id }, role },
      });
      expect(added.status).toBe(201);
    }
    return teamId;
  };
  /** The team's members through the API, as a global admin reads them. */
  const members = async (teamId: string) => {
    const megan = await stack.steward.userToken(PEOPLE.megan, ['GLOBAL_ADMIN']);
    const res = await stack.steward.call<TeamMember[]>('GET', `/api/v1.0/teams/${teamId}/members`, {
      token: megan,
    });
    expect(res.status).toBe(200);
    return res.body;
  };

  it('an ownerless team: Adele clicks "Become an owner" and becomes one; Alex’s card says who stepped up', async () => {
    // Alex, who requested the team, makes himself a plain member in Teams: it has no owner left.
    const teamId = await team('ask-members', 'Orphan Works', [{ id: PEOPLE.adele, role: 'member' }]);
    await demoteEveryOwner(stack.steward, teamId);
    await evaluate(stack.steward);

    const adele = await page('adele').card(/Orphan Works has no owner/);
    const alex = await page('alex').card(/Orphan Works has no owner/);
    expect(await adele.text()).toContain(
      'As a member of Orphan Works, you can step up: the first member to accept becomes an owner.',
    );
    expect(await adele.buttons()).toContain('Become an owner');
    expect(await alex.buttons()).toContain('Become an owner');
    await page('adele').screenshotOf(adele, 'ownerless-asked');

    await adele.press('Become an owner');
    await adele.showing(/You stepped up as owner of Orphan Works/);
    expect(await adele.buttons()).not.toContain('Become an owner');
    await page('adele').screenshotOf(adele, 'ownerless-stepped-up');

    // Alex's card changes by itself on his page: who stepped up, and no button left to press.
    const told = await alex.showing(/Adele Vance stepped up as owner of Orphan Works\./);
    expect(told).toContain('Orphan Works has a new owner');
    expect(await alex.buttons()).not.toContain('Become an owner');
    await page('alex').screenshotOf(alex, 'ownerless-told');
    await page('alex').screenshot('ownerless-page');

    const roles = await until(
      'Adele to own Orphan Works',
      async () => {
        const list = await members(teamId);
        return list.find((m) => m.userId === PEOPLE.adele)?.roles.includes('owner') ? list : undefined;
      },
      STEP_MS,
    );
    expect(roles.find((m) => m.userId === PEOPLE.alex)?.roles).toEqual([]);
  }, 120_000);

  it('a guest review: Alex removes Zoé and keeps Jürgen; Zoé leaves the team and both owners’ cards say so', async () => {
    const teamId = await team('guests', 'Guest House', [{ id: PEOPLE.adele, role: 'owner' }]);
    await inviteGuests(stack.steward, teamId, [GUESTS.zoe.id, GUESTS.jurgen.id]);
    offset += 91 * DAY;
    await evaluate(stack.steward);

    const alex = await page('alex').card(/Review the guests of Guest House/);
    const adele = await page('adele').card(/Review the guests of Guest House/);
    const asked = await alex.text();
    expect(asked).toContain(
      'Guest House has 2 guests. Keep those who still need access and remove the others, then submit.',
    );
    expect(asked).toContain(GUESTS.zoe.displayName);
    expect(asked).toContain(GUESTS.jurgen.displayName);
    expect(asked).not.toContain(GUESTS.zoe.id);
    await page('alex').screenshotOf(alex, 'guest-review-asked');

    await alex.choose(GUESTS.zoe.displayName, 'Remove');
    await alex.choose(GUESTS.jurgen.displayName, 'Keep');
    await page('alex').screenshotOf(alex, 'guest-review-chosen');
    await alex.press('Submit the review');
    const reviewed = await alex.showing(/You reviewed the guests of Guest House on/);
    expect(reviewed).toMatch(new RegExp(`Removed\\s+${GUESTS.zoe.displayName}`));
    expect(reviewed).toMatch(new RegExp(`Kept\\s+${GUESTS.jurgen.displayName}`));
    expect(await alex.buttons()).not.toContain('Submit the review');
    await page('alex').screenshotOf(alex, 'guest-review-submitted');

    const told = await adele.showing(/Alex Wilber reviewed the guests of Guest House on/);
    expect(told).toMatch(new RegExp(`Removed\\s+${GUESTS.zoe.displayName}`));
    expect(await adele.buttons()).not.toContain('Submit the review');
    await page('adele').screenshotOf(adele, 'guest-review-told');

    // The removal runs as a job: Zoé leaves the team on the platform, Jürgen stays.
    const after = await until(
      'Zoé to leave Guest House',
      async () => {
        const list = await members(teamId);
        return list.some((m) => m.userId === GUESTS.zoe.id) ? undefined : list;
      },
      STEP_MS,
    );
    expect(after.map((m) => m.userId)).toContain(GUESTS.jurgen.id);
  }, 120_000);

  it('an inactivity card: Adele clicks "Keep it"; the team is active again and Alex’s card says who kept it', async () => {
    const teamId = await team('dormant', 'Quiet room', [{ id: PEOPLE.adele, role: 'owner' }]);
    const token = await alexToken();
    const lifecycle = async () =>
      (await stack.steward.call<TeamLifecycle>('GET', `/api/v1.0/teams/${teamId}/lifecycle`, { token })).body;
    offset += 31 * DAY;
    await evaluate(stack.steward);
    expect((await lifecycle()).state).toBe('inactive');

    const adele = await page('adele').card(/Nobody has worked in Quiet room since/);
    const alex = await page('alex').card(/Nobody has worked in Quiet room since/);
    expect(await adele.buttons()).toEqual(expect.arrayContaining(['Keep it', 'Archive']));
    await page('adele').screenshotOf(adele, 'inactivity-asked');

    await adele.press('Keep it');
    const kept = await adele.showing(/Adele Vance kept Quiet room: it counts as active since/);
    expect(await adele.buttons()).not.toContain('Keep it');
    await page('adele').screenshotOf(adele, 'inactivity-kept');
    expect(kept).toContain(`since ${longDay('en-US', offset / DAY)}`);
    await alex.showing(/Adele Vance kept Quiet room/);
    expect(await alex.buttons()).not.toContain('Keep it');
    await page('alex').screenshotOf(alex, 'inactivity-told');

    expect(await lifecycle()).toMatchObject({
      state: 'active',
      lastActivityDateTime: dayAfter(offset / DAY),
    });
  }, 120_000);
});
