import type { lifecycleEn } from './lifecycleEn';

/** The words of `lifecycleEn.ts` in French; the compiler checks that none is missing. */
export const lifecycleFr: Record<keyof typeof lifecycleEn, string> = {
  'doing.stepUp': 'vous rendre propriétaire de cette équipe',
  'doing.reviewGuests': 'revoir les invités de cette équipe',
  'ownerless.title': '{team} n’a pas de propriétaire',
  'ownerless.titleFew': '{team} a besoin d’un autre propriétaire',
  'ownerless.ask':
    'En tant que membre de **{team}**, vous pouvez vous proposer : le premier membre qui accepte en devient propriétaire.',
  'ownerless.askFew':
    '**{team}** a moins de propriétaires que sa stratégie n’en demande. En tant que membre, vous pouvez vous proposer : le premier membre qui accepte en devient propriétaire.',
  'ownerless.becomeOwner': 'Devenir propriétaire',
  'ownerless.steppedUpTitle': '{team} a un nouveau propriétaire',
  'ownerless.steppedUp': '{name} s’est proposé comme propriétaire de **{team}**.',
  'ownerless.youSteppedUp':
    'Vous vous êtes proposé comme propriétaire de **{team}** : Steward vous en rend propriétaire.',
  'ownerless.notNeeded': '**{team}** a désormais les propriétaires qu’il lui faut.',
  'ownerless.anotherMember': 'Un autre membre',
  'ownerless.governance':
    'Personne ne possède **{team}** et aucun membre ne s’est proposé. En tant que responsable de la gouvernance, trouvez-lui un propriétaire.',
  'ownerless.governanceFew':
    '**{team}** a moins de propriétaires que sa stratégie n’en demande et aucun membre ne s’est proposé. En tant que responsable de la gouvernance, trouvez-lui un propriétaire.',
  'ownerless.fallback': '{team} n’a pas de propriétaire.',
  'guestReview.title': 'Revoyez les invités de {team}',
  'guestReview.askOne':
    '**{team}** a 1 invité. Gardez-le s’il a encore besoin d’accès, ou retirez-le, puis envoyez.',
  'guestReview.askMany':
    '**{team}** a {count} invités. Gardez ceux qui ont encore besoin d’accès et retirez les autres, puis envoyez.',
  'guestReview.keep': 'Garder',
  'guestReview.remove': 'Retirer',
  'guestReview.submit': 'Envoyer la revue',
  'guestReview.reviewedTitle': 'Invités de {team} revus',
  'guestReview.reviewed': '{name} a revu les invités de **{team}** le {date}.',
  'guestReview.youReviewed': 'Vous avez revu les invités de **{team}** le {date}.',
  'guestReview.removed': 'Retirés',
  'guestReview.kept': 'Gardés',
  'guestReview.nobody': 'Personne',
  'guestReview.firstOnly': 'Seuls les {shown} premiers invités sont listés ; les autres sont gardés.',
  'guestReview.nextOn': 'La prochaine revue est due le {day}.',
  'guestReview.fallback': 'Revoyez les invités de {team}.',
  'guestReview.gone': 'Cette revue des invités n’est plus disponible.',
  'lifecycle.headingArchiving': '{team} est en cours d’archivage',
  'lifecycle.headingArchived': '{team} est archivée',
  'lifecycle.headingKept': '{team} est gardée',
  'lifecycle.headingRenewed': '{team} expire désormais le {date}',
  'lifecycle.confirmArchive':
    'Archiver **{team}** ? Ses membres pourront toujours tout y lire, mais plus personne ne pourra y publier ni rien y modifier. Un propriétaire pourra la désarchiver plus tard.',
  'action.confirmArchive': 'Oui, l’archiver',
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
  'lifecycle.archivedByOn': 'Archivée par {name} le {date}.',
  'lifecycle.archivedOn': 'Archivée le {date}.',
  'lifecycle.archivedBy': 'Archivée par {name}.',
  'lifecycle.archivedTitle': 'Archivée',
  'lifecycle.alreadyArchived': '**{team}** est déjà archivée.',
  'lifecycle.notOwner':
    'Seuls les propriétaires de **{team}** peuvent répondre, et vous n’en faites pas partie.',
  'lifecycle.notOwnerOfThis':
    'Seuls les propriétaires de cette équipe peuvent voir cette carte, et vous n’en faites pas partie.',
  'lifecycle.cardGone': 'Cette carte n’est plus disponible.',
  'lifecycle.someone': 'Un propriétaire',
  'doing.renewTeam': 'renouveler l’équipe',
  'doing.archiveTeam': 'archiver l’équipe',
  'doing.keepTeam': 'garder l’équipe',
  'doing.answerNotice': 'enregistrer votre réponse',
};
