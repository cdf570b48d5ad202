import type { joiningEn } from './joiningEn';

/** Les mots pour rejoindre des équipes existantes (équipes semblables, demandes pour rejoindre), en français. */
export const joiningFr: Record<keyof typeof joiningEn, string> = {
  'joining.similarTitle': 'Des équipes comme celle-ci existent déjà',
  'joining.similarIntro.one':
    'Avant que je crée « {name} », jetez un œil à cette équipe : vous pourriez la rejoindre plutôt que d’en créer une autre.',
  'joining.similarIntro.other':
    'Avant que je crée « {name} », jetez un œil à ces {count} équipes : vous pourriez en rejoindre une plutôt que d’en créer une autre.',
  'joining.similarIntroMember.one':
    'Avant que je crée « {name} », jetez un œil à cette équipe : vous en faites déjà partie et pourriez l’utiliser plutôt que d’en créer une autre.',
  'joining.similarIntroMember.other':
    'Avant que je crée « {name} », jetez un œil à ces {count} équipes : vous en faites déjà partie et pourriez utiliser l’une d’elles plutôt que d’en créer une autre.',
  'joining.owners': 'Propriétaires : {names}',
  'joining.noOwners': 'Cette équipe n’a pas de propriétaire.',
  'joining.members.one': '{count} membre',
  'joining.members.other': '{count} membres',
  'joining.youAreMember': 'Vous faites déjà partie de cette équipe.',
  'joining.open': 'Ouvrir',
  'joining.askToJoin': 'Demander à rejoindre',
  'joining.join': 'Rejoindre',
  'joining.messageLabel': 'Quelques mots pour les propriétaires (facultatif)',
  'joining.messagePlaceholder': 'Pourquoi vous aimeriez la rejoindre',
  'joining.send': 'Envoyer la demande',
  'joining.createAnyway': 'Créer quand même',
  'joining.fallback':
    'Des équipes comme celle que vous demandez existent déjà. Ouvrez-en une, demandez à la rejoindre ou créez la vôtre quand même.',
  'joining.requestSent':
    'J’ai demandé aux propriétaires de « {team} » de vous accueillir. Je vous dirai ce qu’ils décident.',
  'joining.joinedDirectly':
    '« {team} » est ouverte à tous : je vous y ajoute maintenant et je vous préviendrai dès que ce sera fait.',
  'joining.alreadyAsked':
    'Vous ne pouvez pas demander à rejoindre « {team} » maintenant : vous en faites déjà partie, ou votre demande attend ses propriétaires.',
  'doing.askToJoin': 'demander à rejoindre cette équipe',
  'doing.decideJoin': 'décider de cette demande pour rejoindre l’équipe',
  'join.cardTitle': '{person} demande à rejoindre {team}',
  'join.theirWords': 'Ses mots :',
  'join.commentLabel': 'Un commentaire pour cette personne (facultatif)',
  'join.approve': 'Approuver',
  'join.decline': 'Refuser',
  'join.openTeam': 'Ouvrir l’équipe',
  'join.approvedBy': 'Approuvée par {name}.',
  'join.declinedBy': 'Refusée par {name}.',
  'join.approvedByWithComment': 'Approuvée par {name} : « {comment} »',
  'join.declinedByWithComment': 'Refusée par {name} : « {comment} »',
  'join.gone': 'Je n’ai plus cette demande pour rejoindre l’équipe.',
  'join.told.approved': '{name} a accepté votre demande pour rejoindre {team}',
  'join.told.approvedDetail': 'Je vous y ajoute maintenant et je vous préviendrai dès que ce sera fait.',
  'join.told.declined': '{name} a refusé votre demande pour rejoindre {team}',
  'join.told.comment': 'Son commentaire : « {comment} »',
  'join.told.joined': 'Vous êtes maintenant membre de {team}',
};
