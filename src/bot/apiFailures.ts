import { StewardApiError, StewardClientError, StewardNetworkError } from '../client';
import type { ApiErrorDetail } from '../client';
import type { MessageKey } from './i18n/en';
import { DEFAULT_READER, type Reader, say } from './i18n/catalog';

/** What a request was about, so a failure can name it: "that template", "that request". */
export type Subject = 'template' | 'request' | 'approval' | 'requests' | 'templates' | 'team' | 'approvals';

/** What the person was doing when a call failed, so the failure can say it: "list your templates". */
export type Doing =
  | 'listTemplates'
  | 'openTemplate'
  | 'checkName'
  | 'requestTeam'
  | 'retryRequest'
  | 'listRequests'
  | 'decide'
  | 'showRequest'
  | 'applyLabel'
  | 'searchPeople'
  | 'showApproval'
  | 'showHelp'
  | 'chooseLanguage'
  | 'renewTeam'
  | 'archiveTeam'
  | 'keepTeam'
  | 'answerNotice'
  | 'stepUp'
  | 'reviewGuests'
  | 'withdraw'
  | 'listApprovals'
  | 'listTeams'
  | 'askToJoin'
  | 'decideJoin'
  | 'answerDrift'
  | 'anything';

/** A failure as the person sees it: a plain sentence, and the id to quote to support. */
export interface PlainFailure {
  title: string;
  message: string;
  requestId: string | null;
}

/** A throttling wait beyond this is told to the person instead of waited out silently. */
export const LONG_WAIT_MS = 5_000;

/**
 * Turns any failure of an API call into a sentence: 403 "you are not allowed", 404 "no longer
 * exists", 429 "busy, try again in…", 5xx and network errors an apology with the request id. Never
 * the raw error, a stack trace or a token.
 */
export function plainFailure(
  error: unknown,
  subject: Subject,
  doing: Doing,
  reader: Reader = DEFAULT_READER,
): PlainFailure {
  const action = say(reader, `doing.${doing}`);
  if (error instanceof StewardApiError) {
    const requestId = error.requestId ?? error.clientRequestId;
    const failure = (title: MessageKey, message: string) => ({
      title: say(reader, title),
      message,
      requestId,
    });
    if (error.status === 403)
      return failure('error.notAllowed', say(reader, 'error.notAllowedMessage', { action }));
    if (error.status === 404)
      return failure(
        'error.notFound',
        say(reader, 'error.notFoundMessage', { subject: say(reader, `subject.${subject}`) }),
      );
    if (error.status === 429) {
      const seconds = Math.max(1, Math.ceil((error.retryAfterMs ?? LONG_WAIT_MS) / 1000));
      return failure('error.busy', say(reader, 'error.busyMessage', { seconds }));
    }
    if (error.status === 400)
      return failure(
        'error.didNotWork',
        detailMessages(error.details, reader)[0] ?? say(reader, 'problem.invalid'),
      );
    if (error.status < 500) return failure('error.didNotWork', say(reader, 'error.couldNot', { action }));
  }
  const requestId =
    error instanceof StewardApiError
      ? (error.requestId ?? error.clientRequestId)
      : error instanceof StewardClientError
        ? error.clientRequestId
        : null;
  const unreachable = error instanceof StewardNetworkError;
  return {
    title: say(reader, 'error.title'),
    message: say(reader, unreachable ? 'error.unreachable' : 'error.serverProblem', { action }),
    requestId,
  };
}

/**
 * The API's validation details as sentences, for the form and approval cards. The API writes them
 * in English: a reader of another language gets, for each field refused, a sentence of their own
 * language saying which (the bot checks names itself first, in their words, where it can).
 */
export function detailMessages(details: readonly ApiErrorDetail[], reader: Reader): string[] {
  const messages = details.map((detail) => detail.message).filter((message) => message.trim() !== '');
  if (reader.language === 'en' || messages.length === 0) return messages;
  const aboutName = (detail: ApiErrorDetail) => /(^|\.)(name|teamName|displayName)$/.test(detail.target);
  const names = details.some(aboutName);
  const others = details.some((detail) => !aboutName(detail));
  return [
    ...(names ? [say(reader, 'problem.badName')] : []),
    ...(others ? [say(reader, 'problem.invalid')] : []),
  ];
}

/** Whether `error` says the thing asked about is gone (or not visible to the caller). */
export function isStatus(error: unknown, status: number): error is StewardApiError {
  return error instanceof StewardApiError && error.status === status;
}
