/** The words of the lifecycle cards (renewal, inactivity) in English, part of the English catalog. */
export const lifecycleEn = {
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
  'lifecycle.archived': '**{team}** is archived.',
  'lifecycle.archivedTitle': 'Archived',
  'lifecycle.alreadyArchived': '**{team}** is archived already.',
  'lifecycle.notOwner': 'Only the owners of **{team}** can answer this, and you are not one of them.',
  'lifecycle.cardGone': 'This card is no longer available.',
  'lifecycle.someone': 'An owner',
  'doing.renewTeam': 'renew the team',
  'doing.archiveTeam': 'archive the team',
  'doing.keepTeam': 'keep the team',
  'doing.answerNotice': 'record your answer',
};
