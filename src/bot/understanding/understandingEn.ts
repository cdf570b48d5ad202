/**
 * The words of the bot's answers to what it understood of a message typed in the person's own
 * words, in English, part of the English catalog.
 */
export const understandingEn = {
  'understood.placed': 'Under {field}: {names}.',
  'understood.because': '{template}, because you said *{words}*.',
  'understood.choosePerson': '{name} may be {people}: choose the right person under {field}.',
  'understood.unknownPerson':
    'I found nobody called {name} in the directory, so they are not on the form: add them under {field} if you need them.',
  'understood.tooManyPeople.one':
    'I looked up only the first person you named: add the others under Owners or Members.',
  'understood.tooManyPeople.other':
    'I looked up only the first {count} people you named: add the others under Owners or Members.',
  'understood.notOffered':
    'The templates that fit *{words}* are not offered to you. Here are the templates you can use.',
  'understood.unavailable': '{template} is not offered to you. The catalog offers it to: {audience}.',
  'understood.unavailable.unsaid': '{template} is not offered to you: its audience rules leave you out.',
  'understood.unavailable.instead':
    'You can choose one of your templates below, or ask your catalog manager if you need this one.',
  'understood.unavailable.other':
    'Of your templates, {other} fits what you asked: choose it below, or ask your catalog manager if you need {template}.',
  'understood.unavailable.approvers': 'You cannot request it; ask your catalog manager if you need it.',
  'understood.notOffered.plain':
    'The template you asked for is not offered to you. Here are the templates you can use.',
  'understood.approvers.notOffered.plain':
    'The template you asked about is not offered to you, so you cannot request it.',
  'understood.templates.noneFits.plain':
    'None of your templates fits. Here are all the templates you can use.',
  'understood.templates.titlePlain': 'Templates that fit',
  'understood.noTemplate': 'I could not tell which template fits. Choose one below.',
  'understood.kept': 'The form will keep what you told me ({kept}).',
  'understood.noTemplate.kept':
    'I could not tell which template fits. Choose one below: the form will keep what you told me ({kept}).',
  'understood.decideAll':
    'I never approve or reject requests in bulk or by message: to decide one, press Approve or Reject on its approval card, after reading it. Type **my approvals** to see those waiting for you.',
  'understood.approvers.none': '{template} needs no approval: the team is created as soon as you request it.',
  'understood.approvers.One': 'A request for {template} is approved by {names}.',
  'understood.approvers.Any': 'A request for {template} is approved by any one of {names}.',
  'understood.approvers.All': 'A request for {template} must be approved by each of {names}.',
  'understood.approvers.unnamed':
    'A request for {template} needs an approval, but the template names no approver yet. Your catalog manager can tell you more.',
  'understood.approvers.stages.one': 'A request for {template} goes through {count} approval stage:',
  'understood.approvers.stages.other':
    'A request for {template} goes through {count} approval stages, one after the other:',
  'understood.stage.One': 'Stage {number}, {stage}: {names} decides.',
  'understood.stage.Any': 'Stage {number}, {stage}: any one of {names} decides.',
  'understood.stage.All': 'Stage {number}, {stage}: each of {names} must approve.',
  'understood.stage.manager': 'Stage {number}, {stage}: your manager decides.',
  'understood.stage.rule':
    'Stage {number}, {stage}: the people a rule of the template chooses for your request decide.',
  'understood.stage.nobody': 'Stage {number}, {stage}: the template names nobody yet.',
  'understood.approvers.notOffered':
    'The templates that fit *{words}* are not offered to you, so you cannot request them.',
  'understood.approvers.which': 'Which template do you mean? Ask me, for example: who approves {template}?',
  'understood.templates.title': 'Templates for *{words}*',
  'understood.templates.fallback': 'The templates that fit what you asked for.',
  'understood.templates.noneFits':
    'None of your templates fits *{words}*. Here are all the templates you can use.',
  'understood.templates.all': 'Here are the templates you can use.',
  'understood.request': 'Request',
  'understood.expiring.title': 'Your teams that expire or are inactive soon',
  'understood.expiring.fallback': 'Your teams that expire or are inactive soon, with what you can do.',
  'understood.expiring.none': 'None of the teams you requested expires or is inactive soon.',
  'understood.expiring.scope': 'I look at the teams you requested through Steward and still own.',
  'understood.expiring.expiresOn': 'Expires on {date}.',
  'understood.expiring.expiredOn': 'Expired on {date}: renew it before it is archived or deleted.',
  'understood.expiring.inactiveSince': 'No activity since {date}.',
  'understood.expiring.inactive': 'Nobody has worked in it for a while.',
  'understood.can.title': 'What I can do',
  'understood.can.fallback':
    'Ask me for a team in your own words, who approves a template, how your requests are doing, which of your teams expire soon, or which template suits a purpose.',
  'understood.can.request':
    'Ask me for a team in your own words, for example: I need a project team called Mercury with Megan as owner. I prepare the form; nothing is created until you press Request the team.',
  'understood.can.approvers': 'Ask who approves a template: who approves a client engagement?',
  'understood.can.requests':
    'Ask about your requests: all of them, those still waiting, or one by its name (how is my Mercury request?).',
  'understood.can.expiring':
    'Ask which of your teams expire or are inactive soon, then renew, keep or archive them.',
  'understood.can.templates': 'Ask which template suits a purpose: which template for a client project?',
  'doing.listTeams': 'list your teams',
};
