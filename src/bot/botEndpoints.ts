import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Activity } from 'botbuilder';
import { activityProblem } from './activityRules';
import type { StewardBotOptions } from './botOptions';
import { answer, answerTimeout, BodyTimeout, BodyTooLarge, errorBody, readRawBody } from './httpEndpoints';
import type { Notifications } from './notifications';
import type { StewardAdapter } from './stewardAdapter';
import type { StewardBot } from './stewardBot';

type Endpoint = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/**
 * `POST /api/messages`: reads and checks the activity (JSON, its fields, its service URL), then has
 * the adapter authenticate it and `bot` run its turn; an invoke's answer is the HTTP answer.
 */
export function messagesEndpoint(
  options: Pick<StewardBotOptions, 'bodyTimeoutMs' | 'acceptsServiceUrl' | 'log'>,
  adapter: StewardAdapter,
  bot: StewardBot,
): Endpoint {
  const { log } = options;
  return async (req, res) => {
    let activity: Activity;
    try {
      const parsed: unknown = JSON.parse((await readRawBody(req, options.bodyTimeoutMs)).toString('utf8'));
      const problem = activityProblem(parsed);
      if (problem) {
        answer(res, 400, errorBody('invalidActivity', problem));
        return;
      }
      activity = parsed as Activity;
    } catch (error) {
      if (error instanceof BodyTooLarge)
        answer(res, 413, errorBody('payloadTooLarge', 'The body is too large.'));
      else if (error instanceof BodyTimeout) answerTimeout(res, error);
      else answer(res, 400, errorBody('invalidJson', 'The body is not JSON.'));
      return;
    }
    if (options.acceptsServiceUrl && !options.acceptsServiceUrl(activity.serviceUrl)) {
      log.warn({ activity: activity.type }, 'an activity named a service URL the bot does not answer to');
      answer(
        res,
        400,
        errorBody(
          'untrustedServiceUrl',
          "The activity's serviceUrl is not a Bot Connector this bot answers to.",
        ),
      );
      return;
    }
    try {
      const authorization = String(req.headers.authorization ?? '');
      const invoke = await adapter.handle(authorization, activity, (context) => bot.run(context));
      answer(res, invoke?.status ?? 200, invoke?.body);
    } catch (error) {
      const status = (error as { statusCode?: number }).statusCode === 401 ? 401 : 400;
      if (status !== 401) log.warn({ err: error }, 'an activity could not be processed');
      answer(res, status, errorBody(status === 401 ? 'unauthorized' : 'invalidActivity', 'Not processed.'));
    }
  };
}

/** `POST /api/notifications`: Steward's webhook deliveries, their signature checked by `notifications`. */
export function notificationsEndpoint(
  options: Pick<StewardBotOptions, 'bodyTimeoutMs'>,
  notifications: Notifications,
): Endpoint {
  return async (req, res) => {
    let body: Buffer;
    try {
      body = await readRawBody(req, options.bodyTimeoutMs);
    } catch (error) {
      if (error instanceof BodyTimeout) answerTimeout(res, error);
      else answer(res, 413, errorBody('payloadTooLarge', 'The body is too large.'));
      return;
    }
    const header = (name: string) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const status = await notifications.receive({
      body,
      signature: header('x-steward-signature'),
      event: header('x-steward-event'),
      deliveryId: header('x-steward-delivery'),
    });
    answer(
      res,
      status,
      status === 401 ? errorBody('invalidSignature', 'The signature does not match.') : undefined,
    );
  };
}
