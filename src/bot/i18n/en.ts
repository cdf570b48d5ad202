import { approvalsEn } from '../approvals/approvalsEn';
import { driftEn } from '../drift/driftEn';
import { lifecycleEn } from '../lifecycle/lifecycleEn';
import { requestsEn } from '../requests/requestsEn';
import { understandingEn } from '../understanding/understandingEn';
import { welcomeEn } from '../welcome/welcomeEn';
import { joiningEn } from '../joining/joiningEn';

/** The words several features share (buttons, facts, errors, what a failure was about). */
const sharedEn = {
  'action.openTeam': 'Open team',
  'action.refresh': 'Refresh',
  'action.requestTeam': 'Request a team',
  'action.myRequests': 'My requests',
  'action.help': 'Help',
  'talk.approveOnCard':
    'To approve or reject a request, press Approve or Reject on its approval card. I post one to each approver.',
  'action.checkName': 'Check name',
  'fact.teamName': 'Team name',
  'fact.privacy': 'Privacy',
  'fact.owners': 'Owners',
  'fact.members': 'Members',
  'privacy.public': 'Public',
  'privacy.private': 'Private',
  'problem.badName': 'The team name is not valid.',
  'problem.invalid': 'The request is not valid.',
  'approval.teamRequest': 'Team request',
  'error.title': 'Sorry, that did not work',
  'error.requestId': 'If you contact support, give them this request id: {id}',
  'error.notAllowed': 'Not allowed',
  'error.notAllowedMessage': 'You are not allowed to {action}.',
  'error.notFound': 'Not found',
  'error.notFoundMessage': 'Sorry, {subject} no longer exists.',
  'error.busy': 'Steward is busy',
  'error.busyMessage': 'Steward is busy right now. Please try again in about {seconds} seconds.',
  'talk.workingOnIt': 'Working on it: I will answer in about {seconds} seconds.',
  'error.didNotWork': 'That did not work',
  'error.couldNot': 'Sorry, I could not {action}.',
  'error.unreachable': 'Sorry, I could not reach Steward to {action}. Please try again in a few minutes.',
  'error.serverProblem':
    'Sorry, Steward had a problem and could not {action}. Please try again in a few minutes.',
  'error.unexpected': 'Sorry, something went wrong and I could not {action}. Please try again.',
  'error.turn': 'Sorry, something went wrong on my side. If it happens again, quote {id}.',
  'error.generic': 'Something went wrong.',
  'error.unknownPerson':
    'Sorry, I do not know you yet: Steward works for the people of your organisation’s directory. If you think you should have access, ask your Teams administrator.',
  'error.signIn': 'Please sign in with the card I just sent, then try again.',
  'subject.requests': 'your requests',
  'doing.checkName': 'check the name',
  'doing.anything': 'do that',
  'talk.done': 'Done.',
  quoted: '“{text}”',
  'subject.team': 'that team',
  'action.cancel': 'Cancel',
};

/**
 * The keys two of the catalogs define: none may be, since merging them keeps only the last one's
 * sentence. The compiler names any such key here.
 */
type KeysDefinedTwice =
  | Extract<
      keyof typeof sharedEn,
      | keyof typeof welcomeEn
      | keyof typeof requestsEn
      | keyof typeof approvalsEn
      | keyof typeof lifecycleEn
      | keyof typeof understandingEn
    >
  | Extract<
      keyof typeof welcomeEn,
      | keyof typeof requestsEn
      | keyof typeof approvalsEn
      | keyof typeof lifecycleEn
      | keyof typeof understandingEn
    >
  | Extract<
      keyof typeof requestsEn,
      keyof typeof approvalsEn | keyof typeof lifecycleEn | keyof typeof understandingEn
    >
  | Extract<keyof typeof approvalsEn, keyof typeof lifecycleEn | keyof typeof understandingEn>
  | Extract<keyof typeof lifecycleEn, keyof typeof understandingEn>
  | Extract<
      keyof typeof joiningEn,
      | keyof typeof sharedEn
      | keyof typeof welcomeEn
      | keyof typeof requestsEn
      | keyof typeof approvalsEn
      | keyof typeof lifecycleEn
      | keyof typeof understandingEn
    >
  | Extract<
      keyof typeof driftEn,
      | keyof typeof sharedEn
      | keyof typeof welcomeEn
      | keyof typeof requestsEn
      | keyof typeof approvalsEn
      | keyof typeof lifecycleEn
      | keyof typeof understandingEn
      | keyof typeof joiningEn
    >;
const _eachKeyOnce: [KeysDefinedTwice] extends [never] ? true : KeysDefinedTwice = true;

/**
 * Steward's words in English: the reference catalog, and the fallback for any other language. Each
 * feature's words are beside it (`welcome/welcomeEn.ts`, `requests/requestsEn.ts`,
 * `approvals/approvalsEn.ts`, `lifecycle/lifecycleEn.ts`, `understanding/understandingEn.ts`,
 * `joining/joiningEn.ts`, `drift/driftEn.ts`); the words they share are above.
 */
export const en = {
  ...sharedEn,
  ...welcomeEn,
  ...requestsEn,
  ...approvalsEn,
  ...lifecycleEn,
  ...understandingEn,
  ...joiningEn,
  ...driftEn,
};

/** A key of the catalog. */
export type MessageKey = keyof typeof en;
