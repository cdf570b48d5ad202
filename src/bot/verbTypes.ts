import type { TurnContext } from 'botbuilder';
import type { StewardClient } from '../client';
import type { ApprovalConversation } from './approvals/approvals';
import type { CallerDependencies, Failure, Reply } from './conversations/reply';
import type { DriftConversation } from './drift/drift';
import type { JoiningConversation } from './joining/joining';
import type { GuestReviewConversation } from './lifecycle/guestReview';
import type { LifecycleAnswerDependencies } from './lifecycle/lifecycleAnswers';
import type { LifecycleCardState } from './lifecycle/lifecycleCardState';
import type { OwnerlessConversation } from './lifecycle/ownerless';
import type { ReachState } from './reachState';
import type { ProgressTracker } from './requests/progress';
import type { RequestState } from './requests/requestState';
import type { RequestSubmitter } from './requests/submitRequest';
import type { VerbAccess } from './verbAccess';
import type { WelcomeState } from './welcome/welcomeState';

/** What a failure of a verb is about and what could not be done: "You are not allowed to {action}". */
export type FailureLabel = Failure;

/** The parts of the bot a verb may use. */
export interface VerbDependencies extends CallerDependencies, LifecycleAnswerDependencies {
  approvals: ApprovalConversation;
  submitter: RequestSubmitter;
  progress: ProgressTracker;
  /** The bot's records the verbs read and write, each feature's own. */
  requestState: RequestState;
  welcomeState: WelcomeState;
  reachState: ReachState;
  lifecycleCardState: LifecycleCardState;
  /** Teams short of owners: "Become an owner". */
  ownerless: OwnerlessConversation;
  /** Owners' guest reviews. */
  guestReviews: GuestReviewConversation;
  /** Requests to join teams: the owners' decisions. */
  joining: JoiningConversation;
  /** Owners asked about their template's changes: "Add them", "Not now". */
  drift: DriftConversation;
}

/** One verb being run: its turn, the bot's parts, the verb's data, and how it was asked for. */
export interface VerbTurn {
  context: TurnContext;
  deps: VerbDependencies;
  /** The card's `data` (or what a typed command stands for): untrusted, read field by field. */
  data: Record<string, unknown>;
  /** Typed as a command (`status <id>`) rather than pressed on a card. */
  typed: boolean;
}

/**
 * A verb's handler, the label of its failures, and what its answer may show (`access`, checked
 * before the handler runs: see verbAccess.ts). `asPerson` runs with a client acting as the person
 * behind the turn (`asCaller`); `asBot` needs no call as them, unless its access is checked through
 * the API. Either way a failure becomes the error card its label describes.
 */
export type Verb = { failure: FailureLabel; access: VerbAccess } & (
  | { asPerson: (api: StewardClient, turn: VerbTurn) => Promise<Reply> }
  | { asBot: (turn: VerbTurn) => Promise<Reply> | Reply }
);
