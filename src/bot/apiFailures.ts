import { StewardApiError, StewardClientError, StewardNetworkError } from '../client';
import type { ApiErrorDetail } from '../client';

/** What a request was about, so a failure can name it: "that template", "that request". */
export type Subject = 'template' | 'request' | 'approval' | 'requests' | 'templates';

/** A failure as the person sees it: a plain sentence, and the id to quote to support. */
export interface PlainFailure {
  title: string;
  message: string;
  requestId: string | null;
}

/** A throttling wait beyond this is told to the person instead of waited out silently. */
export const LONG_WAIT_MS = 5_000;

const NOUN: Record<Subject, string> = {
  template: 'that template',
  request: 'that request',
  approval: 'that approval request',
  requests: 'your requests',
  templates: 'the templates',
};

/**
 * Turns any failure of an API call into a sentence: 403 "you are not allowed", 404 "no longer
 * exists", 429 "busy, try again in…", 5xx and network errors an apology with the request id. Never
 * the raw error, a stack trace or a token.
 */
export function plainFailure(error: unknown, subject: Subject, action: string): PlainFailure {
  if (error instanceof StewardApiError) {
    const requestId = error.requestId ?? error.clientRequestId;
    if (error.status === 403)
      return { title: 'Not allowed', message: `You are not allowed to ${action}.`, requestId };
    if (error.status === 404)
      return { title: 'Not found', message: `Sorry, ${NOUN[subject]} no longer exists.`, requestId };
    if (error.status === 429) {
      const seconds = Math.max(1, Math.ceil((error.retryAfterMs ?? LONG_WAIT_MS) / 1000));
      return {
        title: 'Steward is busy',
        message: `Steward is busy right now. Please try again in about ${seconds} seconds.`,
        requestId,
      };
    }
    if (error.status === 400)
      return { title: 'That did not work', message: detailsSentence(error.details), requestId };
    if (error.status < 500)
      return { title: 'That did not work', message: `Sorry, I could not ${action}.`, requestId };
  }
  const requestId =
    error instanceof StewardApiError
      ? (error.requestId ?? error.clientRequestId)
      : error instanceof StewardClientError
        ? error.clientRequestId
        : null;
  const unreachable = error instanceof StewardNetworkError;
  return {
    title: 'Sorry, that did not work',
    message: unreachable
      ? `Sorry, I could not reach Steward to ${action}. Please try again in a few minutes.`
      : `Sorry, Steward had a problem and could not ${action}. Please try again in a few minutes.`,
    requestId,
  };
}

/** The API's validation details as sentences, for the form card. */
export function detailMessages(details: readonly ApiErrorDetail[]): string[] {
  return details.map((detail) => detail.message).filter((message) => message.trim() !== '');
}

function detailsSentence(details: readonly ApiErrorDetail[]): string {
  return detailMessages(details)[0] ?? 'The request is not valid.';
}

/** Whether `error` says the thing asked about is gone (or not visible to the caller). */
export function isStatus(error: unknown, status: number): error is StewardApiError {
  return error instanceof StewardApiError && error.status === status;
}
