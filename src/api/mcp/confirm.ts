import {
  acceptedContent,
  CLIENT_CAPABILITIES_META_KEY,
  type CallToolResult,
  type InputRequiredResult,
  inputRequired,
  type ServerContext,
} from '@modelcontextprotocol/server';

/** The key of the confirmation asked through elicitation. */
const CONFIRM = 'confirm';

/** The tool's own argument carrying the person's answer when the client cannot elicit. */
export const CONFIRMATION_ARGUMENT = {
  confirmation: {
    type: 'string',
    minLength: 1,
    maxLength: 500,
    description:
      'Only when the client cannot ask the person itself: the person’s own answer agreeing to this action, ' +
      'in their words, after you asked them. Never fill it in without asking.',
  },
};

/**
 * Whether a tool that decides, withdraws, deletes or changes a team may run: undefined when the
 * person confirmed, otherwise what to answer instead.
 *
 * A client that declares elicitation, on the 2026-07-28 protocol, is asked to put `question` to the
 * person (an `input_required` result: no state is kept between the two calls, so any process of a
 * scaled-out deployment takes the retry); only their acceptance lets the operation run, and the
 * `confirmation` argument is ignored. Any other client gets a refusal telling the model to ask the
 * person and call again with their answer in `confirmation`.
 */
export function confirmationGate(
  question: string,
  args: Record<string, unknown>,
  ctx: ServerContext,
  era: 'legacy' | 'modern',
): CallToolResult | InputRequiredResult | undefined {
  const envelope = (ctx.mcpReq.envelope ?? {}) as Record<string, { elicitation?: unknown } | undefined>;
  if (era === 'modern' && envelope[CLIENT_CAPABILITIES_META_KEY]?.elicitation) {
    const responses = ctx.mcpReq.inputResponses;
    if (responses && Object.hasOwn(responses, CONFIRM)) {
      if (acceptedContent(responses, CONFIRM)?.confirm === true) return undefined;
      return refusal('declined', 'The person did not confirm: nothing was done.');
    }
    return inputRequired({
      inputRequests: {
        [CONFIRM]: inputRequired.elicit({
          mode: 'form',
          message: question,
          requestedSchema: {
            type: 'object',
            properties: { confirm: { type: 'boolean', title: 'Confirm', description: question } },
            required: ['confirm'],
          },
        }),
      },
    });
  }
  const said = args.confirmation;
  if (typeof said === 'string' && said.trim().length > 0) return undefined;
  return refusal(
    'confirmationRequired',
    `This needs the person’s confirmation and nothing was done. Ask them: “${question}” Only if they agree, ` +
      'call this tool again with the same arguments and `confirmation` set to their answer, in their words.',
  );
}

function refusal(code: string, message: string): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: message }],
    structuredContent: { error: { code, message } },
  };
}
