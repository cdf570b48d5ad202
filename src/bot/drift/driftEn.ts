/**
 * The words of the owners' card about a template's new version, in English, part of the English
 * catalog: what the template now has, "Add them" and "Not now", and what was answered.
 */
export const driftEn = {
  'doing.answerDrift': 'answer for that team',
  'drift.title': 'The {template} template has changed',
  'drift.ask.one': 'The **{template}** template now has {parts}. Add it to **{team}**?',
  'drift.ask.other': 'The **{template}** template now has {parts}. Add them to **{team}**?',
  'drift.part.channel': 'a channel named **{name}**',
  'drift.part.tab': 'a tab named **{name}**',
  'drift.part.permanentOwner': '**{name}** as a permanent owner',
  'drift.part.permanentMember': '**{name}** as a permanent member',
  'drift.part.sensitivityLabel': 'a sensitivity label',
  'drift.part.channelFile': 'folders and files in the **{name}** channel',
  'drift.part.planBucket': 'a **{name}** plan bucket',
  'drift.part.tag': 'a **{name}** tag',
  'drift.part.app': 'the **{name}** app',
  'drift.part.teamSetting': 'the team setting **{name}**',
  'drift.part.other': '**{name}**',
  'drift.more.one': '1 more change',
  'drift.more.other': '{count} more changes',
  'drift.add.one': 'Add it',
  'drift.add.other': 'Add them',
  'drift.notNow': 'Not now',
  'drift.addedTitle': '{team} is being brought in line',
  'drift.added.one': '{name} chose to add it: Steward is adding {parts} to **{team}**.',
  'drift.added.other': '{name} chose to add them: Steward is adding {parts} to **{team}**.',
  'drift.youAdded': 'Steward is adding {parts} to **{team}**.',
  'drift.appliedTitle': '{team} is in line with its template',
  'drift.applied.one': '{name} chose to add it: Steward added {parts} to **{team}**.',
  'drift.applied.other': '{name} chose to add them: Steward added {parts} to **{team}**.',
  'drift.youApplied': 'Steward added {parts} to **{team}**.',
  'drift.failedTitle': 'Steward could not bring {team} in line',
  'drift.failed':
    'Steward could not add {parts} to **{team}**. The owners will be asked again when the **{template}** template changes.',
  'drift.declinedTitle': 'Nothing added to {team} for now',
  'drift.declined.one':
    '{name} chose not to add it for now. The owners will be asked again when the **{template}** template changes.',
  'drift.declined.other':
    '{name} chose not to add them for now. The owners will be asked again when the **{template}** template changes.',
  'drift.youDeclined':
    'Nothing was added to **{team}**. You will be asked again when the **{template}** template changes.',
  'drift.anotherOwner': 'Another owner',
  'drift.fallback': 'The {template} template has changed.',
};
