import type { welcomeEn } from './welcomeEn';

/** The words of `welcomeEn.ts` in French; the compiler checks that none is missing. */
export const welcomeFr: Record<keyof typeof welcomeEn, string> = {
  'welcome.fallback':
    'Steward crée des équipes Teams à partir des modèles de votre organisation. Tapez « nouvelle équipe », « mes demandes » ou « aide ».',
  'welcome.greeting': 'Bonjour {name}, je suis Steward',
  'welcome.greetingNoName': 'Bonjour, je suis Steward',
  'welcome.what':
    'Je crée des équipes Teams à partir des modèles de votre organisation : choisissez un modèle, remplissez un court formulaire, et je mets en place l’équipe avec ses canaux, ses onglets et ses membres — après approbation quand le modèle l’exige.',
  'welcome.commands':
    'Vous pouvez aussi m’écrire simplement, comme à un collègue (« une équipe projet Mercure avec Megan comme propriétaire », « qui valide une équipe client ? »), ou taper **nouvelle équipe**, **mes demandes**, **mes approbations** (les demandes qui attendent votre décision), **état** suivi du nom d’une équipe, **langue** suivi de fr, en ou auto, ou **aide**.',
  'talk.thanks': 'Avec plaisir ! Tapez « nouvelle équipe » dès que vous avez besoin d’une équipe.',
  'help.notUnderstood': 'Je n’ai pas compris « {text} ».',
  'help.offTopic':
    'Steward s’occupe de vos équipes (demandes, approbations, équipes qui expirent) : il ne peut pas vous aider pour « {text} ». Voici ce qu’il sait faire.',
  'help.title': 'Ce que je comprends',
  'help.newTeam': 'Choisir un modèle et demander une équipe (aussi : demander).',
  'help.myRequests': 'Vos demandes récentes et où elles en sont.',
  'help.status': 'L’avancement d’une demande, par le nom de son équipe.',
  'help.help': 'Cette liste.',
  'help.approvers':
    'Les approbateurs reçoivent une carte pour chaque demande qui les attend, avec les boutons Approuver et Refuser.',
  'help.fallback':
    'Tapez « nouvelle équipe » pour demander une équipe, « mes demandes » pour voir vos demandes, « état <nom de l’équipe> » pour une demande, ou « aide ».',
  'doing.showHelp': 'afficher ce que je sais faire',
  'doing.chooseLanguage': 'changer votre langue',
  'language.set':
    'Désormais, je vous parle en français. Tapez « langue auto » pour revenir à la langue de Teams.',
  'language.auto': 'Désormais, je vous parle dans la langue de votre client Teams.',
  'language.usage':
    'Tapez « langue en » pour l’anglais, « langue fr » pour le français, ou « langue auto » pour suivre la langue de Teams.',
  'help.statusCommand': 'état <nom de l’équipe>',
  'help.command.newTeam': 'nouvelle équipe',
  'help.command.myRequests': 'mes demandes',
  'help.command.language': 'langue fr | en | auto',
  'help.command.help': 'aide',
  'help.language': 'Choisir ma langue : en, fr, ou auto (la langue de Teams).',
  'action.myApprovals': 'Mes approbations',
  'help.myApprovals':
    'Les demandes qui attendent votre décision, chacune avec sa carte pour approuver ou refuser.',
  'help.withdraw': 'Retirer une de vos demandes tant qu’elle attend une approbation.',
  'help.myApprovalsCommand': 'mes approbations',
  'help.withdrawCommand': 'retirer',
};
