import type { TurnContext } from 'botbuilder';
import { CardVerb } from './cards/cardVerbs';
import { smallTalk } from './welcome/greeting';
import { helpReply } from './shared/help';
import { languageAskedFor, languageCommand } from './welcome/language';
import { readerOfTurn, type Reply } from './conversations/reply';
import { say } from './i18n/catalog';

/** Longest text command read; anything longer is not a command. */
export const MAX_COMMAND_LENGTH = 200;

/**
 * What a typed message asks for: a verb of the verb table with the data a card would send for it,
 * an answer of its own (small talk, a word on where to approve), or none of the commands: the
 * message in the person's own words, for the understanding engine (`understanding/typed.ts`).
 */
export type TextCommand =
  | { verb: CardVerb; data: Record<string, unknown> }
  | { reply: Reply }
  | { ownWords: string };

/**
 * The commands in English and in French, as typed without accents and in lower case: the help
 * card lists them in the reader's language, and a person may type either.
 */
const REQUEST_TEAM = new Set([
  'new team',
  'request',
  'request a team',
  'new',
  'nouvelle equipe',
  'nouvelle',
  'demander',
  'demander une equipe',
]);
const MY_REQUESTS = new Set([
  'my requests',
  'requests',
  'my request',
  'status',
  'mes demandes',
  'demandes',
  'etat',
]);
const MY_APPROVALS = new Set(['my approvals', 'approvals', 'mes approbations', 'approbations']);
const WITHDRAW = new Set(['withdraw', 'withdraw a request', 'retirer', 'retirer une demande']);
const HELP = new Set(['help', '?', 'aide']);
/** Approve and Reject are buttons of an approval card; typed, they get a word on where to find them. */
const DECIDE = new Set(['approve', 'reject', 'approuver', 'refuser', 'approbation']);
/** `status <team name>` (French `état`): one request, by its team's name. */
const STATUS = /^(?:status|etat|statut)\s+(.+)$/;

/** Words that open a sentence after "status", not a team's name: "of the …", "de ma demande …". */
const SENTENCE_AFTER_STATUS =
  /^(?:(?:of|for|on|about|the|my|our|de|du|des|la|le|les|pour|sur|ma|mon|mes|notre|nos)\s|[ld]')/;

/** `text` as commands are compared: lower case, accents and repeated spaces dropped. */
function plain(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * Reads a typed command: `new team`, `my requests`, `my approvals`, `withdraw`, `status <team>`,
 * `help`, `language fr`, or a greeting; anything else is the person's own words.
 */
export function textCommand(context: TurnContext, typed: string): TextCommand {
  const reader = readerOfTurn(context);
  if (typed.length > MAX_COMMAND_LENGTH) return { ownWords: typed };
  const text = typed;
  const words = plain(text);
  if (REQUEST_TEAM.has(words)) return { verb: CardVerb.requestTeam, data: {} };
  if (MY_REQUESTS.has(words)) return { verb: CardVerb.myRequests, data: {} };
  if (MY_APPROVALS.has(words)) return { verb: CardVerb.myApprovals, data: {} };
  if (WITHDRAW.has(words)) return { verb: CardVerb.withdrawRequest, data: {} };
  const status = STATUS.exec(words);
  if (status) {
    // The name as typed (its case and accents), after the command's word.
    const request = text.trim().replace(/^\S+\s+/, '');
    // "status of the Zephyr team?", "état de ma demande Atlas": a sentence, read as one's own words.
    if (SENTENCE_AFTER_STATUS.test(status[1]!)) return { ownWords: typed };
    return { verb: CardVerb.showStatus, data: { request } };
  }
  if (HELP.has(words)) return { verb: CardVerb.help, data: {} };
  if (DECIDE.has(words)) return { reply: { kind: 'text', text: say(reader, 'talk.approveOnCard') } };
  const language = languageCommand(words) ?? languageAskedFor(words);
  if (language !== null) return { verb: CardVerb.chooseLanguage, data: { language } };
  const friendly = smallTalk(words, context.activity.from?.name ?? null, reader);
  if (friendly) return { reply: friendly };
  return text ? { ownWords: text } : { reply: helpReply(reader, null) };
}
