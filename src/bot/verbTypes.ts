import type { TurnContext } from 'botbuilder';
import type { z } from 'zod';
import type { StewardClient } from '../client';
import type { CardVerb } from './cards/cardVerbs';
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

/** A verb's turn with its data as the verb's schema read it. */
export type ReadTurn<Data> = Omit<VerbTurn, 'data'> & { data: Data };

/**
 * A verb as its feature declares it: the schema of its card's data, the label of its failures,
 * what its answer may show (`access`, checked before the handler runs: see verbAccess.ts), and its
 * handler. `asPerson` runs with a client acting as the person behind the turn (`asCaller`); `asBot`
 * needs no call as them, unless its access is checked through the API. Either way a failure
 * becomes the error card its label describes.
 */
export type VerbSpec<Data> = { data: z.ZodType<Data>; failure: FailureLabel; access: VerbAccess } & (
  | { asPerson: (api: StewardClient, turn: ReadTurn<Data>) => Promise<Reply> }
  | { asBot: (turn: ReadTurn<Data>) => Promise<Reply> | Reply }
);

/** A verb's handler bound to the data of one turn. */
export type BoundVerb =
  | { asPerson: (api: StewardClient) => Promise<Reply> }
  | { asBot: () => Promise<Reply> | Reply };

/** A verb as the table holds it: its label and access, and its handler for a turn's data. */
export interface Verb {
  failure: FailureLabel;
  access: VerbAccess;
  /** The handler bound to the turn's data as the verb's schema reads it; undefined when it cannot. */
  read(turn: VerbTurn): BoundVerb | undefined;
}

/** A verb of the table from its feature's declaration (see {@link VerbSpec}). */
export function verb<Data>(spec: VerbSpec<Data>): Verb {
  return {
    failure: spec.failure,
    access: spec.access,
    read(turn) {
      const parsed = spec.data.safeParse(turn.data);
      if (!parsed.success) return undefined;
      const read: ReadTurn<Data> = { ...turn, data: parsed.data };
      return 'asPerson' in spec
        ? { asPerson: (api) => spec.asPerson(api, read) }
        : { asBot: () => spec.asBot(read) };
    },
  };
}

/** The verbs one feature answers, by name (the whole table, merged in verbs.ts, has every verb). */
export type FeatureVerbs = Partial<Record<CardVerb, Verb>>;
