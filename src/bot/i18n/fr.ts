import type { MessageKey } from './en';
import { approvalsFr } from '../approvals/approvalsFr';
import { driftFr } from '../drift/driftFr';
import { lifecycleFr } from '../lifecycle/lifecycleFr';
import { requestsFr } from '../requests/requestsFr';
import { understandingFr } from '../understanding/understandingFr';
import { welcomeFr } from '../welcome/welcomeFr';
import { joiningFr } from '../joining/joiningFr';

/**
 * Steward's words in French; the compiler checks that every English key has its translation (each
 * feature's French catalog, beside its English one, has every key of it).
 */
export const fr: Record<MessageKey, string> = {
  'action.openTeam': 'Ouvrir l’équipe',
  'action.refresh': 'Actualiser',
  'action.requestTeam': 'Demander une équipe',
  'action.myRequests': 'Mes demandes',
  'action.help': 'Aide',
  'talk.approveOnCard':
    'Pour approuver ou refuser une demande, appuyez sur Approuver ou Refuser sur sa carte d’approbation. J’en envoie une à chaque approbateur.',
  'action.checkName': 'Vérifier le nom',
  'fact.teamName': 'Nom de l’équipe',
  'fact.privacy': 'Confidentialité',
  'fact.owners': 'Propriétaires',
  'fact.members': 'Membres',
  'privacy.public': 'Publique',
  'privacy.private': 'Privée',
  'problem.badName': 'Le nom de l’équipe n’est pas valide.',
  'problem.invalid': 'La demande n’est pas valide.',
  'approval.teamRequest': 'Demande d’équipe',
  'error.title': 'Désolé, cela n’a pas fonctionné',
  'error.requestId': 'Si vous contactez le support, donnez-lui cet identifiant de requête : {id}',
  'error.notAllowed': 'Non autorisé',
  'error.notAllowedMessage': 'Vous n’êtes pas autorisé à {action}.',
  'error.notFound': 'Introuvable',
  'error.notFoundMessage': 'Désolé, {subject} n’existe plus.',
  'error.busy': 'Steward est occupé',
  'error.busyMessage': 'Steward est occupé pour le moment. Réessayez dans {seconds} secondes environ.',
  'talk.workingOnIt': 'Je m’en occupe : je vous réponds dans {seconds} secondes environ.',
  'error.didNotWork': 'Cela n’a pas fonctionné',
  'error.couldNot': 'Désolé, je n’ai pas pu {action}.',
  'error.unreachable':
    'Désolé, je n’ai pas pu joindre Steward pour {action}. Réessayez dans quelques minutes.',
  'error.serverProblem':
    'Désolé, Steward a rencontré un problème et n’a pas pu {action}. Réessayez dans quelques minutes.',
  'error.unexpected': 'Désolé, une erreur s’est produite et je n’ai pas pu {action}. Réessayez.',
  'error.turn': 'Désolé, une erreur s’est produite de mon côté. Si cela se reproduit, citez {id}.',
  'error.generic': 'Une erreur s’est produite.',
  'error.unknownPerson':
    'Désolé, je ne vous connais pas encore : Steward travaille pour les personnes de l’annuaire de votre organisation. Si vous pensez devoir y avoir accès, demandez à votre administrateur Teams.',
  'error.signIn': 'Connectez-vous avec la carte que je viens d’envoyer, puis réessayez.',
  'subject.requests': 'la liste de vos demandes',
  'doing.checkName': 'vérifier le nom',
  'doing.anything': 'faire cela',
  'talk.done': 'C’est fait.',
  quoted: '« {text} »',
  'subject.team': 'cette équipe',
  'action.cancel': 'Annuler',
  ...welcomeFr,
  ...requestsFr,
  ...approvalsFr,
  ...lifecycleFr,
  ...understandingFr,
  ...joiningFr,
  ...driftFr,
};

/** The catalog's nouns that are feminine in French: what is said of them agrees ("Approbation : terminée"). */
export const FRENCH_FEMININE: ReadonlySet<MessageKey> = new Set<MessageKey>([
  'step.approval',
  'step.create',
  'step.settings',
  'step.channels',
  'step.welcome',
  'step.finish',
  'step.channelsOnly',
  'step.tabs',
  'step.files',
  'step.planner',
  'step.tags',
  'step.apps',
]);
