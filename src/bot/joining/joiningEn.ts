/** The words of joining existing teams (similar teams, requests to join) in English. */
export const joiningEn = {
  'joining.similarTitle': 'Teams like this already exist',
  'joining.similarIntro.one':
    'Before I make "{name}", have a look at this team: you may join it instead of starting another.',
  'joining.similarIntro.other':
    'Before I make "{name}", have a look at these {count} teams: you may join one instead of starting another.',
  'joining.similarIntroMember.one':
    'Before I make "{name}", have a look at this team: you are in it already, and may use it instead of starting another.',
  'joining.similarIntroMember.other':
    'Before I make "{name}", have a look at these {count} teams: you are in them already, and may use one instead of starting another.',
  'joining.owners': 'Owners: {names}',
  'joining.noOwners': 'This team has no owner.',
  'joining.members.one': '{count} member',
  'joining.members.other': '{count} members',
  'joining.youAreMember': 'You are in this team already.',
  'joining.open': 'Open',
  'joining.askToJoin': 'Ask to join',
  'joining.join': 'Join',
  'joining.messageLabel': 'A few words for the owners (optional)',
  'joining.messagePlaceholder': 'Why you would like to join',
  'joining.send': 'Send the request',
  'joining.createAnyway': 'Create anyway',
  'joining.fallback':
    'Teams like the one you asked for already exist. Open one, ask to join it, or create yours anyway.',
  'joining.requestSent': 'I asked the owners of "{team}" to let you in. I will tell you what they decide.',
  'joining.joinedDirectly':
    '"{team}" is open to everyone: I am adding you now, and I will tell you once you are in.',
  'joining.alreadyAsked':
    'You cannot ask to join "{team}" now: you are in it already, or your request is waiting for its owners.',
  'doing.askToJoin': 'ask to join this team',
  'doing.decideJoin': 'decide on this request to join',
  'join.cardTitle': '{person} asks to join {team}',
  'join.theirWords': 'In their words:',
  'join.commentLabel': 'A comment for them (optional)',
  'join.approve': 'Approve',
  'join.decline': 'Decline',
  'join.openTeam': 'Open the team',
  'join.approvedBy': 'Approved by {name}.',
  'join.declinedBy': 'Declined by {name}.',
  'join.approvedByWithComment': 'Approved by {name}: "{comment}"',
  'join.declinedByWithComment': 'Declined by {name}: "{comment}"',
  'join.gone': 'I no longer have this request to join.',
  'join.told.approved': '{name} accepted your request to join {team}',
  'join.told.approvedDetail': 'I am adding you now, and I will tell you once you are in.',
  'join.told.declined': '{name} declined your request to join {team}',
  'join.told.comment': 'Their comment: "{comment}"',
  'join.told.joined': 'You are now a member of {team}',
} as const;
