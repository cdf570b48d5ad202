/**
 * The words of the lifecycle cards in English, part of the English catalog: renewal and inactivity
 * notices and their answers, teams short of owners, and guest reviews.
 */
export const lifecycleEn = {
  'doing.stepUp': 'make you an owner of that team',
  'doing.reviewGuests': 'review the guests of that team',
  'ownerless.title': '{team} has no owner',
  'ownerless.titleFew': '{team} needs another owner',
  'ownerless.ask': 'As a member of **{team}**, you can step up: the first member to accept becomes an owner.',
  'ownerless.askFew':
    '**{team}** has fewer owners than its policy asks for. As a member, you can step up: the first member to accept becomes an owner.',
  'ownerless.becomeOwner': 'Become an owner',
  'ownerless.steppedUpTitle': '{team} has a new owner',
  'ownerless.steppedUp': '{name} stepped up as owner of **{team}**.',
  'ownerless.youSteppedUp': 'You stepped up as owner of **{team}**: Steward is making you an owner now.',
  'ownerless.notNeeded': '**{team}** has the owners it needs now.',
  'ownerless.anotherMember': 'Another member',
  'ownerless.governance':
    'Nobody owns **{team}** and no member has stepped up. As a governance manager, please find it an owner.',
  'ownerless.governanceFew':
    '**{team}** has fewer owners than its policy asks for and no member has stepped up. As a governance manager, please find it an owner.',
  'ownerless.fallback': '{team} has no owner.',
  'guestReview.title': 'Review the guests of {team}',
  'guestReview.askOne':
    '**{team}** has 1 guest. Keep them if they still need access, or remove them, then submit.',
  'guestReview.askMany':
    '**{team}** has {count} guests. Keep those who still need access and remove the others, then submit.',
  'guestReview.keep': 'Keep',
  'guestReview.remove': 'Remove',
  'guestReview.submit': 'Submit the review',
  'guestReview.reviewedTitle': 'Guests of {team} reviewed',
  'guestReview.reviewed': '{name} reviewed the guests of **{team}** on {date}.',
  'guestReview.youReviewed': 'You reviewed the guests of **{team}** on {date}.',
  'guestReview.removed': 'Removed',
  'guestReview.kept': 'Kept',
  'guestReview.nobody': 'Nobody',
  'guestReview.firstOnly': 'Only the first {shown} guests are listed; the others are kept.',
  'guestReview.nextOn': 'The next review is due on {day}.',
  'guestReview.fallback': 'Review the guests of {team}.',
  'guestReview.gone': 'This guest review is no longer available.',
  'lifecycle.headingArchiving': '{team} is being archived',
  'lifecycle.headingArchived': '{team} is archived',
  'lifecycle.headingKept': '{team} is kept',
  'lifecycle.headingRenewed': '{team} now expires on {date}',
  'lifecycle.confirmArchive':
    'Archive **{team}**? Its members can still read everything in it, but nobody can post or change anything any more. An owner can unarchive it later.',
  'action.confirmArchive': 'Yes, archive it',
  'renewal.title': '{team} expires on {date}',
  'renewal.fallback':
    'The team {team} expires on {date}. Renew it, archive it, or tell me you are not the right person.',
  'renewal.why': 'You get this because you are an owner of **{team}**.',
  'renewal.onExpiry.archive': 'If nobody renews it by then, Steward archives it: it becomes read-only.',
  'renewal.onExpiry.delete': 'If nobody renews it by then, Steward deletes it.',
  'renewal.onExpiry.none': 'If nobody renews it by then, it is marked as expired.',
  'renewal.renewed': '{name} renewed **{team}**: it now expires on {date}.',
  'renewal.renewedTitle': 'Renewed',
  'renewal.cannotRenew':
    '**{team}** cannot be renewed: it is archived, or its lifecycle policy no longer expires teams.',
  'renewal.notRightPerson':
    'You told me you are not the right person to answer for **{team}**. I recorded it in Steward’s lifecycle trail, which your governance managers review; the other owners still have this card.',
  'renewal.notRightPersonAlone':
    'You told me you are not the right person to answer for **{team}**. I recorded it in Steward’s lifecycle trail, which your governance managers review. The team has no other owner, so they will have to find one; until then it expires as planned.',
  'action.renewYear': 'Renew for a year',
  'action.renewDays': 'Renew for {days} days',
  'action.archiveNow': 'Archive now',
  'action.notRightPerson': 'I’m not the right person',
  'action.keepIt': 'Keep it',
  'action.archive': 'Archive',
  'inactivity.title': 'Nobody has worked in {team} since {date}',
  'inactivity.fallback': 'Nobody has worked in the team {team} since {date}. Keep it or archive it.',
  'inactivity.ask':
    'Is the team still in use? **Keep it** and it counts as active today; **Archive** makes it read-only (an owner can unarchive it later).',
  'inactivity.kept': '{name} kept **{team}**: it counts as active since {date}.',
  'inactivity.keptTitle': 'Kept',
  'inactivity.archivedMessage':
    'Steward is archiving {team}: nobody has worked in it since {date}, and your organisation’s lifecycle policy archives inactive teams. An owner can unarchive it if it is still needed.',
  'lifecycle.archiving': '{name} asked Steward to archive **{team}**.',
  'lifecycle.archivingTitle': 'Archiving',
  'lifecycle.archivedByOn': 'Archived by {name} on {date}.',
  'lifecycle.archivedOn': 'Archived on {date}.',
  'lifecycle.archivedBy': 'Archived by {name}.',
  'lifecycle.archivedTitle': 'Archived',
  'lifecycle.alreadyArchived': '**{team}** is archived already.',
  'lifecycle.notOwner': 'Only the owners of **{team}** can answer this, and you are not one of them.',
  'lifecycle.notOwnerOfThis': 'Only the owners of this team can see this card, and you are not one of them.',
  'lifecycle.cardGone': 'This card is no longer available.',
  'lifecycle.someone': 'An owner',
  'doing.renewTeam': 'renew the team',
  'doing.archiveTeam': 'archive the team',
  'doing.keepTeam': 'keep the team',
  'doing.answerNotice': 'record your answer',
};
