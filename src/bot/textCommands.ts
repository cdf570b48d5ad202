import type { TurnContext } from 'botbuilder';
import { CardVerb } from './cards';
import { smallTalk } from './conversations/greeting';
import { helpReply } from './conversations/help';
import { languageCommand } from './conversations/language';
import { isJobId, noSuchRequest } from './conversations/myRequests';
import { readerOfTurn, type Reply } from './conversations/reply';

/** Longest text command read; anything longer is not a command. */
export const MAX_COMMAND_LENGTH = 200;

/**
 * What a typed message asks for: a verb of the verb table with the data a card would send for it,
 * or an answer of its own (small talk, help for what Steward did not understand).
 */
export type TextCommand = { verb: CardVerb; data: Record<string, unknown> } | { reply: Reply };

const REQUEST_TEAM = new Set(['new team', 'request', 'request a team', 'new']);
const MY_REQUESTS = new Set(['my requests', 'requests', 'my request', 'status']);
const MY_APPROVALS = new Set(['my approvals', 'approvals', 'mes approbations', 'approbations']);
const WITHDRAW = new Set(['withdraw', 'withdraw a request', 'retirer', 'retirer une demande']);

/**
 * Reads a typed command: `new team`, `my requests`, `my approvals`, `withdraw`, `status <id>`,
 * `help`, `language fr`, or a greeting.
 */
export function textCommand(context: TurnContext, typed: string): TextCommand {
  const reader = readerOfTurn(context);
  const text = typed.slice(0, MAX_COMMAND_LENGTH + 1);
  if (text.length > MAX_COMMAND_LENGTH) return { reply: helpReply(reader, text) };
  const words = text.toLowerCase().replace(/\s+/g, ' ').trim();
  if (REQUEST_TEAM.has(words)) return { verb: CardVerb.requestTeam, data: {} };
  if (MY_REQUESTS.has(words)) return { verb: CardVerb.myRequests, data: {} };
  if (MY_APPROVALS.has(words)) return { verb: CardVerb.myApprovals, data: {} };
  if (WITHDRAW.has(words)) return { verb: CardVerb.withdrawRequest, data: {} };
  const status = /^status\s+(\S+)$/i.exec(text.trim());
  if (status) {
    const jobId = status[1]!;
    if (!isJobId(jobId)) return { reply: noSuchRequest(jobId, reader) };
    return { verb: CardVerb.showStatus, data: { jobId } };
  }
  if (words === 'help' || words === '?') return { verb: CardVerb.help, data: {} };
  const language = languageCommand(words);
  if (language !== null) return { verb: CardVerb.chooseLanguage, data: { language } };
  const friendly = smallTalk(words, context.activity.from?.name ?? null, reader);
  return { reply: friendly ?? helpReply(reader, text || null) };
}
