import type { StreamMessage } from './chatStream';
import { type Artifacts, type Card, cardOf, cardShows, findAction } from './cards';
import type { InvokeAnswer, Playground } from './playground';

const ADAPTIVE_CARD = 'application/vnd.microsoft.card.adaptive';

/** How long one step of a conversation may take. */
export const STEP_MS = 20_000;

/** The newest card on `playground`'s page that has `verb` (with `data`), with its message. */
export function cardWith(playground: Playground, verb: string, data: Record<string, unknown> = {}) {
  return playground.stream.waitFor(
    `a card with ${verb} ${JSON.stringify(data)} in ${playground.user.name}'s chat`,
    (message) => {
      const card = cardOf(message);
      return card && findAction(card, verb, data) ? { message, card } : undefined;
    },
    STEP_MS,
  );
}

/** The card an `Action.Execute` answered with in place. */
export function cardInPlace(answer: InvokeAnswer): Card {
  if (answer.type !== ADAPTIVE_CARD)
    throw new Error(`expected a card in place, got ${JSON.stringify(answer)}`);
  return answer.value as Card;
}

/** What a step leaves behind: the card, where the page shows it, and the raw answer. */
export function view(card: Card, message: StreamMessage, answer?: InvokeAnswer) {
  const { attachments: _attachments, ...page } = message;
  return { card, page, ...(answer ? { invokeAnswer: answer } : {}) };
}

/** The URL of the card's "Open team" button (titled `title` in the reader's language), if it has one. */
export function findOpenTeam(card: Card, title = 'Open team'): string | undefined {
  const actions = (card.actions ?? []) as Array<{ type?: string; title?: string; url?: string }>;
  return actions.find((a) => a.type === 'Action.OpenUrl' && a.title === title)?.url;
}

/**
 * Sends the request form of message `formMessageId` with `answers`: the confirmation answers in
 * place of the form, and a progress card follows (showing `waitingFor`). Resolves to where each is and the request's id.
 */
export async function submitForm(
  playground: Playground,
  formMessageId: string,
  form: Card,
  answers: Record<string, unknown>,
  prefix: string,
  artifacts: Artifacts,
  waitingFor = /approv/i,
) {
  const submit = findAction(form, 'submitRequest')!;
  const sent = await playground.execute(
    formMessageId,
    'submitRequest',
    { ...submit.data, ...answers },
    submit.title,
  );
  const confirmation = cardInPlace(sent);
  expect(cardShows(confirmation, new RegExp(String(answers.name)))).toBe(true);
  const stream = playground.stream.message(formMessageId)!;
  artifacts.save(`${prefix}-confirmation`, view(confirmation, stream, sent));
  // The confirmation has no button: the request's one living card is the progress card below it.
  expect(findAction(confirmation, 'showStatus')).toBeUndefined();
  const waiting = await playground.stream.waitFor(
    'the progress card waiting for approval',
    (message) => {
      const card = cardOf(message);
      return card &&
        message.messageId !== formMessageId &&
        findAction(card, 'showStatus') &&
        cardShows(card, new RegExp(String(answers.name))) &&
        cardShows(card, waitingFor)
        ? { message, card }
        : undefined;
    },
    STEP_MS,
  );
  const jobId = String(findAction(waiting.card, 'showStatus')!.data!.jobId);
  artifacts.save(`${prefix}-progress-waiting`, view(waiting.card, waiting.message));
  return { confirmationId: formMessageId, waiting, jobId, confirmation };
}
