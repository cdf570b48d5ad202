import { anyData } from '../cards/cardData';
import { CardVerb } from '../cards/cardVerbs';
import { POSTED_TO_THEM, TEAM_OWNER, THROUGH_API } from '../verbAccess';
import { type FeatureVerbs, verb } from '../verbTypes';
import { archiveTeamNow, keepTeam, notRightPerson, renewTeam } from './lifecycleAnswers';
import { refreshLifecycleCard } from './lifecycleRefresh';
import { lifecycleNoticeData, becomeOwnerData } from './lifecycleVerbData';

/** The verbs of teams' lifecycle: renewal and inactivity notices, teams short of owners, guest reviews. */
export const lifecycleVerbs = {
  [CardVerb.renewTeam]: verb({
    data: lifecycleNoticeData,
    access: TEAM_OWNER,
    failure: { subject: 'team', doing: 'renewTeam' },
    asPerson: (api, { context, data, deps }) => renewTeam(context, api, deps, data),
  }),
  [CardVerb.archiveTeamNow]: verb({
    data: lifecycleNoticeData,
    access: TEAM_OWNER,
    failure: { subject: 'team', doing: 'archiveTeam' },
    asPerson: (api, { context, data, deps }) => archiveTeamNow(context, api, deps, data),
  }),
  [CardVerb.keepTeam]: verb({
    data: lifecycleNoticeData,
    access: TEAM_OWNER,
    failure: { subject: 'team', doing: 'keepTeam' },
    asPerson: (api, { context, data, deps }) => keepTeam(context, api, deps, data),
  }),
  [CardVerb.notRightPerson]: verb({
    data: lifecycleNoticeData,
    access: TEAM_OWNER,
    failure: { subject: 'team', doing: 'answerNotice' },
    asPerson: (api, { context, data, deps }) => notRightPerson(context, api, deps, data),
  }),
  [CardVerb.becomeOwner]: verb({
    data: becomeOwnerData,
    access: THROUGH_API,
    failure: { subject: 'team', doing: 'stepUp' },
    asPerson: (api, { context, data, deps }) =>
      deps.ownerless.stepUp(context, api, { teamId: data.teamId, since: data.since }),
  }),
  [CardVerb.refreshLifecycleCard]: verb({
    // Which card about which team: read field by field (see `LifecycleRefreshData`).
    data: anyData,
    access: POSTED_TO_THEM,
    failure: { subject: 'team', doing: 'anything' },
    asBot: ({ context, data, deps }) => refreshLifecycleCard(context, deps, data),
  }),
  [CardVerb.submitGuestReview]: verb({
    // The team, the review's due day, and each guest's `keep` or `remove` (`guest0`…).
    data: anyData,
    access: POSTED_TO_THEM,
    failure: { subject: 'team', doing: 'reviewGuests' },
    asPerson: (api, { context, data, deps }) => deps.guestReviews.submit(context, api, data),
  }),
} satisfies FeatureVerbs;
