/**
 * The words of the welcome, help and language commands in English, part of the English catalog.
 */
export const welcomeEn = {
  'welcome.fallback':
    'Steward creates Teams teams from your organisation’s templates. Type "new team", "my requests" or "help".',
  'welcome.greeting': 'Hi {name}, I am Steward',
  'welcome.greetingNoName': 'Hi, I am Steward',
  'welcome.what':
    'I create Teams teams from your organisation’s templates: pick a template, fill in a short form, and I set the team up with its channels, tabs and people — after approval when the template asks for it.',
  'welcome.commands':
    'You can also write in plain words, as you would to a colleague ("a project team called Mercury with Megan as owner", "who approves a client team?"), or type **new team**, **my requests**, **my approvals** (the requests waiting for your decision), **status** followed by a team name, **language** followed by en, fr or auto, or **help**.',
  'talk.thanks': 'You are welcome! Type "new team" whenever you need one.',
  'help.notUnderstood': 'I did not understand "{text}".',
  'help.offTopic':
    'Steward looks after your teams (requests, approvals, teams that expire), so it cannot help with "{text}". Here is what it can do.',
  'help.title': 'What I understand',
  'help.newTeam': 'Choose a template and request a team (also: request).',
  'help.myRequests': 'Your recent requests and where they stand.',
  'help.status': 'The progress of one request, by its team name.',
  'help.help': 'This list.',
  'help.approvers': 'Approvers get a card for each request that needs them, with Approve and Reject buttons.',
  'help.fallback':
    'Type "new team" to request a team, "my requests" to see your requests, "status <team name>" for one request, or "help".',
  'doing.showHelp': 'show what I can do',
  'doing.chooseLanguage': 'change your language',
  'language.set':
    'From now on I speak English with you. Type "language auto" to follow your Teams language again.',
  'language.auto': 'From now on I speak the language of your Teams client.',
  'language.usage':
    'Type "language en" for English, "language fr" for French, or "language auto" to follow your Teams language.',
  'help.statusCommand': 'status <team name>',
  'help.command.newTeam': 'new team',
  'help.command.myRequests': 'my requests',
  'help.command.language': 'language en | fr | auto',
  'help.command.help': 'help',
  'help.language': 'Choose my language: en, fr, or auto (your Teams language).',
  'action.myApprovals': 'My approvals',
  'help.myApprovals': 'The requests waiting for your decision, each with its card to approve or reject.',
  'help.withdraw': 'Withdraw one of your requests while it waits for approval.',
  'help.myApprovalsCommand': 'my approvals',
  'help.withdrawCommand': 'withdraw',
};
