/**
 * The words of what people do with their requests besides making them, in English, part of the
 * English catalog: each job type's own words (an archive is not a new team), confirming an archive,
 * trying a request again once, withdrawing a request, and an approver's "my approvals".
 */
export const actionsEn = {
  // Each kind of request in its own words.
  'kind.archive': 'Archiving a team',
  'kind.unarchive': 'Unarchiving a team',
  'list.archived': 'Archived',
  'list.unarchived': 'Unarchived',
  'list.withdrawn': 'Withdrawn',
  'progress.archived': 'The team is archived',
  'progress.unarchived': 'The team is unarchived',
  'progress.archiving': 'Archiving the team',
  'progress.unarchiving': 'Unarchiving the team',
  'progress.archiveFailed': 'The team could not be archived',
  'progress.unarchiveFailed': 'The team could not be unarchived',
  'ended.archived': '{team} is archived.',
  'ended.unarchived': '{team} is unarchived.',
  'ended.archiveFailed': 'I could not archive {team}.',
  'ended.unarchiveFailed': 'I could not unarchive {team}.',
  // A lifecycle card once answered, and the archive asked for twice.
  'lifecycle.headingArchiving': '{team} is being archived',
  'lifecycle.headingArchived': '{team} is archived',
  'lifecycle.headingKept': '{team} is kept',
  'lifecycle.headingRenewed': '{team} now expires on {date}',
  'lifecycle.confirmArchive':
    'Archive **{team}**? Its members can still read everything in it, but nobody can post or change anything any more. An owner can unarchive it later.',
  'action.confirmArchive': 'Yes, archive it',
  'action.cancel': 'Cancel',
  // The request's one card, and Try again pressed once.
  'confirmation.follow': 'I keep the request’s card below up to date.',
  'progress.retried': 'You asked to try again: the form is in a message below.',
  // Withdrawing a request that waits for approval.
  'action.withdraw': 'Withdraw',
  'action.confirmWithdraw': 'Yes, withdraw it',
  'progress.confirmWithdraw':
    'Withdraw your request for **{team}**? The approvers will not be asked any more, and no team is made.',
  'progress.withdrawn': 'You withdrew the request',
  'progress.withdrawnReason': 'You withdrew the request before it was decided.',
  'ended.withdrawn': 'You withdrew your request for {team}.',
  'withdraw.notWaiting':
    'The request for **{team}** is no longer waiting for approval, so it cannot be withdrawn.',
  'withdraw.notYours': 'Only the person who made a request can withdraw it.',
  'withdraw.title': 'Requests you can withdraw',
  'withdraw.none': 'None of your requests is waiting for approval.',
  'withdraw.fallback': 'Your requests that wait for approval.',
  'decided.withdrawn': 'Withdrawn',
  'decided.withdrawnFallback': 'Withdrawn: {team}, by {name}.',
  'decided.withdrawnLine':
    '{name} withdrew the request for **{team}** on {date} at {time}: nothing to decide.',
  'doing.withdraw': 'withdraw that request',
  // An approver's "my approvals".
  'approvals.title': 'Waiting for your decision',
  'approvals.none': 'No request is waiting for your decision.',
  'approvals.one': '1 request is waiting for your decision: its card is above.',
  'approvals.many': '{count} requests are waiting for your decision: their cards are above.',
  'approvals.more': 'I showed the {shown} oldest; decide on them and ask again for the others.',
  'approvals.row': '{requester} · waiting since {when}',
  'approvals.fallback': 'The requests waiting for your decision.',
  'action.myApprovals': 'My approvals',
  'doing.listApprovals': 'list the requests waiting for you',
  'subject.approvals': 'your approvals',
  'help.myApprovals': 'The requests waiting for your decision, each with its card to approve or reject.',
  'help.withdraw': 'Withdraw one of your requests while it waits for approval.',
  'help.myApprovalsCommand': 'my approvals',
  'help.withdrawCommand': 'withdraw',
};
