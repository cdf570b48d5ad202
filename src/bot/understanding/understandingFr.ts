import type { understandingEn } from './understandingEn';

/** The words of `understandingEn.ts` in French; the compiler checks that none is missing. */
export const understandingFr: Record<keyof typeof understandingEn, string> = {
  'understood.placed': 'Dans {field} : {names}.',
  'understood.because': '{template}, parce que vous avez écrit *{words}*.',
  'understood.choosePerson': '{name} peut être {people} : choisissez la bonne personne dans {field}.',
  'understood.unknownPerson':
    'Je n’ai trouvé personne du nom de {name} dans l’annuaire ; cette personne n’est donc pas sur le formulaire : ajoutez-la dans {field} si besoin.',
  'understood.tooManyPeople.one':
    'Je n’ai cherché que la première personne nommée : ajoutez les autres dans Propriétaires ou Membres.',
  'understood.tooManyPeople.other':
    'Je n’ai cherché que les {count} premières personnes nommées : ajoutez les autres dans Propriétaires ou Membres.',
  'understood.notOffered':
    'Les modèles qui correspondent à *{words}* ne vous sont pas proposés. Voici les modèles que vous pouvez utiliser.',
  'understood.unavailable':
    '{template} n’est pas disponible pour vous. Le catalogue le réserve à : {audience}.',
  'understood.unavailable.unsaid':
    '{template} n’est pas disponible pour vous : ses règles d’audience ne vous incluent pas.',
  'understood.unavailable.instead':
    'Vous pouvez choisir un de vos modèles ci-dessous, ou demander à votre gestionnaire de catalogue si vous avez besoin de celui-ci.',
  'understood.unavailable.other':
    'Parmi vos modèles, {other} correspond à votre demande : choisissez-le ci-dessous, ou demandez {template} à votre gestionnaire de catalogue si vous en avez besoin.',
  'understood.unavailable.approvers':
    'Vous ne pouvez pas le demander ; adressez-vous à votre gestionnaire de catalogue si vous en avez besoin.',
  'understood.notOffered.plain':
    'Le modèle demandé ne vous est pas proposé. Voici les modèles que vous pouvez utiliser.',
  'understood.approvers.notOffered.plain':
    'Le modèle dont vous parlez ne vous est pas proposé : vous ne pouvez pas le demander.',
  'understood.templates.noneFits.plain':
    'Aucun de vos modèles ne convient. Voici tous les modèles que vous pouvez utiliser.',
  'understood.templates.titlePlain': 'Modèles qui conviennent',
  'understood.kept': 'Le formulaire reprendra ce que vous m’avez dit ({kept}).',
  'understood.noTemplate.kept':
    'Je n’ai pas su quel modèle convient. Choisissez-en un ci-dessous : le formulaire reprendra ce que vous m’avez dit ({kept}).',
  'understood.decideAll':
    'Je n’approuve ni ne refuse jamais de demandes en bloc ou par message : pour en décider une, appuyez sur Approuver ou Refuser sur sa carte d’approbation, après l’avoir lue. Tapez **mes approbations** pour voir celles qui vous attendent.',
  'understood.noTemplate': 'Je n’ai pas pu dire quel modèle convient. Choisissez-en un ci-dessous.',
  'understood.approvers.none':
    '{template} ne demande aucune approbation : l’équipe est créée dès que vous la demandez.',
  'understood.approvers.One': 'Une demande avec le modèle {template} est approuvée par {names}.',
  'understood.approvers.Any':
    'Une demande avec le modèle {template} est approuvée par l’une des personnes suivantes : {names}.',
  'understood.approvers.All':
    'Une demande avec le modèle {template} doit être approuvée par chacune de ces personnes : {names}.',
  'understood.approvers.unnamed':
    'Une demande avec le modèle {template} doit être approuvée, mais le modèle ne nomme encore aucun approbateur. Votre gestionnaire de catalogue peut vous en dire plus.',
  'understood.approvers.stages.one':
    'Une demande avec le modèle {template} passe par {count} étape d’approbation :',
  'understood.approvers.stages.other':
    'Une demande avec le modèle {template} passe par {count} étapes d’approbation, l’une après l’autre :',
  'understood.stage.One': 'Étape {number}, {stage} : {names} décide.',
  'understood.stage.Any': 'Étape {number}, {stage} : l’une de ces personnes décide : {names}.',
  'understood.stage.All': 'Étape {number}, {stage} : chacune de ces personnes doit approuver : {names}.',
  'understood.stage.manager': 'Étape {number}, {stage} : votre responsable décide.',
  'understood.stage.rule':
    'Étape {number}, {stage} : les personnes qu’une règle du modèle choisit pour votre demande décident.',
  'understood.stage.nobody': 'Étape {number}, {stage} : le modèle ne nomme encore personne.',
  'understood.approvers.notOffered':
    'Les modèles qui correspondent à *{words}* ne vous sont pas proposés : vous ne pouvez pas les demander.',
  'understood.approvers.which':
    'De quel modèle parlez-vous ? Demandez-moi par exemple : qui approuve {template} ?',
  'understood.templates.title': 'Modèles pour *{words}*',
  'understood.templates.fallback': 'Les modèles qui correspondent à votre demande.',
  'understood.templates.noneFits':
    'Aucun de vos modèles ne correspond à *{words}*. Voici tous les modèles que vous pouvez utiliser.',
  'understood.templates.all': 'Voici les modèles que vous pouvez utiliser.',
  'understood.request': 'Demander',
  'understood.expiring.title': 'Vos équipes qui expirent ou sont inactives bientôt',
  'understood.expiring.fallback':
    'Vos équipes qui expirent ou sont inactives bientôt, et ce que vous pouvez faire.',
  'understood.expiring.none':
    'Aucune des équipes que vous avez demandées n’expire ni n’est inactive bientôt.',
  'understood.expiring.scope':
    'Je regarde les équipes que vous avez demandées avec Steward et dont vous êtes toujours propriétaire.',
  'understood.expiring.expiresOn': 'Expire le {date}.',
  'understood.expiring.expiredOn':
    'A expiré le {date} : renouvelez-la avant qu’elle soit archivée ou supprimée.',
  'understood.expiring.inactiveSince': 'Aucune activité depuis le {date}.',
  'understood.expiring.inactive': 'Personne n’y a travaillé depuis un moment.',
  'understood.can.title': 'Ce que je sais faire',
  'understood.can.fallback':
    'Demandez-moi une équipe avec vos mots, qui approuve un modèle, où en sont vos demandes, lesquelles de vos équipes expirent bientôt, ou quel modèle convient à un besoin.',
  'understood.can.request':
    'Demandez-moi une équipe avec vos mots, par exemple : il me faut une équipe projet Mercure avec Megan comme propriétaire. Je prépare le formulaire ; rien n’est créé avant que vous appuyiez sur Demander l’équipe.',
  'understood.can.approvers': 'Demandez qui approuve un modèle : qui approuve un engagement client ?',
  'understood.can.requests':
    'Demandez où en sont vos demandes : toutes, celles encore en attente, ou l’une d’elles par son nom (où en est ma demande Mercure ?).',
  'understood.can.expiring':
    'Demandez lesquelles de vos équipes expirent ou sont inactives bientôt, puis renouvelez-les, gardez-les ou archivez-les.',
  'understood.can.templates':
    'Demandez quel modèle convient à un besoin : quel modèle pour un projet client ?',
  'doing.listTeams': 'lister vos équipes',
};
