import type { lifecycleEn } from './lifecycleEn';

/** The words of the lifecycle cards in French; the compiler checks that none is missing. */
export const lifecycleFr: Record<keyof typeof lifecycleEn, string> = {
  'renewal.title': '{team} expire le {date}',
  'renewal.fallback':
    'L’équipe {team} expire le {date}. Renouvelez-la, archivez-la, ou dites-moi que vous n’êtes pas la bonne personne.',
  'renewal.why': 'Vous recevez ce message parce que vous êtes propriétaire de **{team}**.',
  'renewal.onExpiry.archive':
    'Si personne ne la renouvelle d’ici là, Steward l’archive : elle passe en lecture seule.',
  'renewal.onExpiry.delete': 'Si personne ne la renouvelle d’ici là, Steward la supprime.',
  'renewal.onExpiry.none': 'Si personne ne la renouvelle d’ici là, elle est marquée comme expirée.',
  'renewal.renewed': '{name} a renouvelé **{team}** : elle expire désormais le {date}.',
  'renewal.renewedTitle': 'Renouvelée',
  'renewal.cannotRenew':
    '**{team}** ne peut pas être renouvelée : elle est archivée, ou sa stratégie de cycle de vie ne fait plus expirer les équipes.',
  'renewal.notRightPerson':
    'Vous m’avez indiqué ne pas être la bonne personne pour répondre au sujet de **{team}**. Je l’ai consigné dans le journal du cycle de vie de Steward, que vos responsables de la gouvernance consultent ; les autres propriétaires ont toujours cette carte.',
  'renewal.notRightPersonAlone':
    'Vous m’avez indiqué ne pas être la bonne personne pour répondre au sujet de **{team}**. Je l’ai consigné dans le journal du cycle de vie de Steward, que vos responsables de la gouvernance consultent. L’équipe n’a pas d’autre propriétaire : ils devront en trouver un ; d’ici là, elle expire comme prévu.',
  'action.renewYear': 'Renouveler pour un an',
  'action.renewDays': 'Renouveler pour {days} jours',
  'action.archiveNow': 'Archiver maintenant',
  'action.notRightPerson': 'Je ne suis pas la bonne personne',
  'action.keepIt': 'La garder',
  'action.archive': 'Archiver',
  'inactivity.title': 'Personne n’a travaillé dans {team} depuis le {date}',
  'inactivity.fallback':
    'Personne n’a travaillé dans l’équipe {team} depuis le {date}. Gardez-la ou archivez-la.',
  'inactivity.ask':
    'L’équipe sert-elle encore ? **La garder** la compte comme active aujourd’hui ; **Archiver** la passe en lecture seule (un propriétaire pourra la désarchiver).',
  'inactivity.kept': '{name} a gardé **{team}** : elle compte comme active depuis le {date}.',
  'inactivity.keptTitle': 'Gardée',
  'inactivity.archivedMessage':
    'Steward archive {team} : personne n’y a travaillé depuis le {date}, et la stratégie de cycle de vie de votre organisation archive les équipes inactives. Un propriétaire peut la désarchiver si elle sert encore.',
  'lifecycle.archiving': '{name} a demandé à Steward d’archiver **{team}**.',
  'lifecycle.archivingTitle': 'Archivage en cours',
  'lifecycle.archived': '**{team}** est archivée.',
  'lifecycle.archivedTitle': 'Archivée',
  'lifecycle.alreadyArchived': '**{team}** est déjà archivée.',
  'lifecycle.notOwner':
    'Seuls les propriétaires de **{team}** peuvent répondre, et vous n’en faites pas partie.',
  'lifecycle.cardGone': 'Cette carte n’est plus disponible.',
  'lifecycle.someone': 'Un propriétaire',
  'doing.renewTeam': 'renouveler l’équipe',
  'doing.archiveTeam': 'archiver l’équipe',
  'doing.keepTeam': 'garder l’équipe',
  'doing.answerNotice': 'enregistrer votre réponse',
};
