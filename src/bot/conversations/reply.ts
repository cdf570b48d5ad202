import { randomUUID } from 'node:crypto';
import type { TurnContext } from 'botbuilder';
import type { Job, StewardClient } from '../../client';
import { StewardApiError, StewardClientError } from '../../client';
import { plainFailure, type Subject } from '../apiFailures';
import type { BotLog } from '../botLog';
import { type Reader, readerOf } from '../i18n/catalog';
import { type AdaptiveCardAttachment, renderErrorCard } from '../cards';
import type { BotIdentity } from '../identity/botIdentity';

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
    }
  | { kind: 'text'; text: string };

/** Who reads the answers of a turn: the activity's `locale` and `localTimezone`. */
export function readerOfTurn(context: TurnContext): Reader {
  return readerOf(context.activity.locale, context.activity.localTimezone);
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

export const UNKNOWN_PERSON =
  'Sorry, I do not know you yet: Steward works for the people of your organisation’s directory. ' +
  'If you think you should have access, ask your Teams administrator.';

/**
 * Runs `work` with a client acting as the person behind the turn, and turns every failure into a
 * friendly reply: a refusal for someone the directory does not know, a plain sentence with the
 * request id for an API failure, an apology with an id that is in the logs for anything else.
 */
export async function asCaller(
  context: TurnContext,
  deps: CallerDependencies,
  failure: { subject: Subject; action: string },
  work: (api: StewardClient) => Promise<Reply>,
): Promise<Reply> {
  try {
    const caller = await deps.identity.userToken(context);
    if (caller.kind === 'unknownPerson') return { kind: 'text', text: UNKNOWN_PERSON };
    if (caller.kind === 'signInSent')
      return { kind: 'text', text: 'Please sign in with the card I just sent, then try again.' };
    return await work(deps.client.as(caller.token));
  } catch (error) {
    return failureReply(error, failure, deps.log);
  }
}

/** The error card for a failure; unexpected ones are logged under an id the person can quote. */
export function failureReply(
  error: unknown,
  failure: { subject: Subject; action: string },
  log: BotLog,
): Reply {
  if (!(error instanceof StewardClientError)) {
    const incident = randomUUID();
    log.error({ err: error, incident }, 'a conversation failed');
    return cardReply(
      renderErrorCard({
        message: `Sorry, something went wrong and I could not ${failure.action}. Please try again.`,
        requestId: incident,
      }),
    );
  }
  const plain = plainFailure(error, failure.subject, failure.action);
  if (!(error instanceof StewardApiError) || error.status >= 500)
    log.warn({ err: error }, 'the API call of a conversation failed');
  return cardReply(renderErrorCard(plain));
}
