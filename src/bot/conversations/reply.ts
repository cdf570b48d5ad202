import { randomUUID } from 'node:crypto';
import { AnswerLater } from './answerLater';
import type { TurnContext } from 'botbuilder';
import type { Job, StewardClient } from '../../client';
import { StewardApiError, StewardClientError } from '../../client';
import { type Doing, plainFailure, type Subject } from '../apiFailures';
import type { BotLog } from '../botLog';
import { type Reader, readerOf, say } from '../i18n/catalog';
import type { AdaptiveCardAttachment } from '../cards/adaptiveCard';
import { renderErrorCard } from '../cards/errorCard';
import type { BotIdentity } from '../shared/botIdentity';

/**
 * What a conversation answers. A card `inPlace` replaces the card whose button was pressed (the
 * Universal Actions way); otherwise it is posted as a new message. A typed command always gets a
 * new message.
 */
export type Reply =
  | {
      kind: 'card';
      card: AdaptiveCardAttachment;
      inPlace: boolean;
      /** The request this card shows: the card is kept up to date with it wherever it lands. */
      shows?: Job;
      /**
       * An earlier message of the conversation already showing this (a Status pressed again on the
       * same list): that message is updated rather than a copy of it posted.
       */
      onMessage?: string;
    }
  | { kind: 'text'; text: string };

/** Where a turn keeps its reader once the person's language preference is known. */
const READER = Symbol('steward.reader');

/**
 * Who reads the answers of a turn: the language the person chose (`language fr`), else the
 * activity's `locale`; their `localTimezone` for times.
 */
export function readerOfTurn(context: TurnContext): Reader {
  const chosen = context.turnState.get(READER) as Reader | undefined;
  return chosen ?? readerOf(context.activity.locale, context.activity.localTimezone);
}

/** Sets the turn's reader (from the person's language preference), read by {@link readerOfTurn}. */
export function setReaderOfTurn(context: TurnContext, reader: Reader): void {
  context.turnState.set(READER, reader);
}

/** A card reply. */
export function cardReply(card: AdaptiveCardAttachment, inPlace = false): Reply {
  return { kind: 'card', card, inPlace };
}

/** What a conversation needs to act as the person behind the turn. */
export interface CallerDependencies {
  client: StewardClient;
  identity: BotIdentity;
  log: BotLog;
}

/**
 * Runs `work` with a client acting as the person behind the turn, and turns every failure into a
 * friendly reply: a refusal for someone the directory does not know, a plain sentence with the
 * request id for an API failure, an apology with an id that is in the logs for anything else.
 */
export async function asCaller(
  context: TurnContext,
  deps: CallerDependencies,
  failure: Failure,
  work: (api: StewardClient) => Promise<Reply>,
): Promise<Reply> {
  const reader = readerOfTurn(context);
  try {
    const caller = await deps.identity.userToken(context);
    if (caller.kind === 'unknownPerson') return { kind: 'text', text: say(reader, 'error.unknownPerson') };
    if (caller.kind === 'signInSent') return { kind: 'text', text: say(reader, 'error.signIn') };
    return await work(deps.client.as(caller.token));
  } catch (error) {
    if (error instanceof AnswerLater) throw error;
    return failureReply(error, failure, deps.log, reader);
  }
}

/** What a conversation was about and doing, so that its failure can say so. */
export interface Failure {
  subject: Subject;
  doing: Doing;
}

/** The error card for a failure; unexpected ones are logged under an id the person can quote. */
export function failureReply(error: unknown, failure: Failure, log: BotLog, reader: Reader): Reply {
  if (!(error instanceof StewardClientError)) {
    const incident = randomUUID();
    log.error({ err: error, incident }, 'a conversation failed');
    const action = say(reader, `doing.${failure.doing}`);
    return cardReply(
      renderErrorCard({ message: say(reader, 'error.unexpected', { action }), requestId: incident }, reader),
    );
  }
  const plain = plainFailure(error, failure.subject, failure.doing, reader);
  if (!(error instanceof StewardApiError) || error.status >= 500)
    log.warn({ err: error }, 'the API call of a conversation failed');
  return cardReply(renderErrorCard(plain, reader));
}
