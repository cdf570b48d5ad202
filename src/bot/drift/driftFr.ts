import type { driftEn } from './driftEn';

/** The words of `driftEn.ts` in French; the compiler checks that none is missing. */
export const driftFr: Record<keyof typeof driftEn, string> = {
  'doing.answerDrift': 'répondre pour cette équipe',
  'drift.title': 'Le modèle {template} a changé',
  'drift.ask.one': 'Le modèle **{template}** comporte désormais {parts}. L’ajouter à **{team}** ?',
  'drift.ask.other': 'Le modèle **{template}** comporte désormais {parts}. Les ajouter à **{team}** ?',
  'drift.part.channel': 'un canal **{name}**',
  'drift.part.tab': 'un onglet **{name}**',
  'drift.part.permanentOwner': '**{name}** parmi les propriétaires permanents',
  'drift.part.permanentMember': '**{name}** parmi les membres permanents',
  'drift.part.sensitivityLabel': 'une étiquette de confidentialité',
  'drift.part.channelFile': 'des dossiers et fichiers dans le canal **{name}**',
  'drift.part.planBucket': 'un compartiment **{name}** du plan',
  'drift.part.tag': 'une balise **{name}**',
  'drift.part.app': 'l’application **{name}**',
  'drift.part.teamSetting': 'le paramètre d’équipe **{name}**',
  'drift.part.other': '**{name}**',
  'drift.more.one': '1 autre changement',
  'drift.more.other': '{count} autres changements',
  'drift.add.one': 'L’ajouter',
  'drift.add.other': 'Les ajouter',
  'drift.notNow': 'Pas maintenant',
  'drift.addedTitle': 'L’équipe {team} est mise en conformité',
  'drift.added.one': '{name} a choisi de l’ajouter : Steward ajoute {parts} à **{team}**.',
  'drift.added.other': '{name} a choisi de les ajouter : Steward ajoute {parts} à **{team}**.',
  'drift.youAdded': 'Steward ajoute {parts} à **{team}**.',
  'drift.appliedTitle': 'L’équipe {team} est conforme à son modèle',
  'drift.applied.one': '{name} a choisi de l’ajouter : Steward a ajouté {parts} à **{team}**.',
  'drift.applied.other': '{name} a choisi de les ajouter : Steward a ajouté {parts} à **{team}**.',
  'drift.youApplied': 'Steward a ajouté {parts} à **{team}**.',
  'drift.failedTitle': 'Steward n’a pas pu mettre {team} en conformité',
  'drift.failed':
    'Steward n’a pas pu ajouter {parts} à **{team}**. La question sera reposée aux propriétaires au prochain changement du modèle **{template}**.',
  'drift.declinedTitle': 'Rien d’ajouté à {team} pour l’instant',
  'drift.declined.one':
    '{name} a choisi de ne pas l’ajouter pour l’instant. La question sera reposée aux propriétaires au prochain changement du modèle **{template}**.',
  'drift.declined.other':
    '{name} a choisi de ne pas les ajouter pour l’instant. La question sera reposée aux propriétaires au prochain changement du modèle **{template}**.',
  'drift.youDeclined':
    'Rien n’a été ajouté à **{team}**. La question vous sera reposée au prochain changement du modèle **{template}**.',
  'drift.anotherOwner': 'Un autre propriétaire',
  'drift.fallback': 'Le modèle {template} a changé.',
};
