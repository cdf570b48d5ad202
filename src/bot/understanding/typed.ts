import type { TurnContext } from 'botbuilder';
import type { StewardClient } from '../../client';
import { asCaller, type Failure, readerOfTurn, type Reply, setReaderOfTurn } from '../conversations/reply';
import { readerIn } from '../i18n/catalog';
import { myTemplates } from '../shared/myTemplates';
import type { VerbDependencies } from '../verbs';
import { helpReply } from '../shared/help';
import { INTENT_ANSWERS } from '../intentAnswers';
import { answerUnderstanding } from './answers';
import { resolvePeople } from './directoryLookup';
import { directoryQueries, matchPeople } from './people';
import type {
  DirectoryPerson,
  Intent,
  PersonMatch,
  PersonMention,
  TemplateChoice,
  Understanding,
} from './types';
import { understand } from './understand';
import { inTurn, patientDeps } from './patience';
import { type NamedRequest, requestNamedIn } from './requestNamed';
import { summarizeJob } from '../shared/jobSummary';
import { unavailableTemplates, withNotOffered } from './notOffered';

/** The intents whose answer depends on the templates offered to the person. */
const NEEDS_TEMPLATES: ReadonlySet<Intent> = new Set(
  (Object.keys(INTENT_ANSWERS) as Intent[]).filter((intent) => INTENT_ANSWERS[intent].readsTemplates),
);

const LIST_TEMPLATES: Failure = { subject: 'templates', doing: 'listTemplates' };
const FIND_REQUEST: Failure = { subject: 'request', doing: 'showRequest' };

/**
 * What a question about one of the person's requests, named by part of its team's name, may read
 * as before their requests are looked at: anything but a request for a team, a greeting or thanks.
 */
const MAY_NAME_A_REQUEST: ReadonlySet<Intent> = new Set([
  'none',
  'askRequestStatus',
  'withdrawRequest',
  'askMyApprovals',
  'askApprovers',
  'askTemplates',
  'askCapabilities',
]);

/** A question about a request is short: a longer message is not looked up against the person's requests. */
const MAX_QUESTION_CHARS = 200;

/** The person's requests a message is compared with: the most recent (the API's most per page). */
const FIND_TOP = 50;

/**
 * How sure the engine must be of an intent that nothing else in the message supports (no template,
 * name or person): "make me a sandwich" reads a little like a request (0.54), and is not one.
 */
const UNSURE_BELOW = 0.6;

/** Whether an understanding is enough to act on: a sure intent, or one with something to show for it. */
const actionable = (understood: Understanding): boolean =>
  understood.intent !== 'none' &&
  (understood.confidence >= UNSURE_BELOW ||
    understood.templates.length > 0 ||
    understood.notOffered !== undefined ||
    understood.teamName !== null ||
    understood.people.length > 0);

/** The engine's matcher, one mention at a time, as the directory look-up asks it. */
function matchOne(mention: PersonMention, candidates: readonly DirectoryPerson[]): PersonMatch {
  return matchPeople([mention], candidates)[0] ?? { mention, matches: [], ambiguous: false };
}

/** Who the people a message names are, searched in the directory as the person behind `api`. */
const lookUpPeople = (api: StewardClient, mentions: readonly PersonMention[]): Promise<PersonMatch[]> =>
  resolvePeople(api, mentions, matchOne, directoryQueries);

/**
 * The answer to a message that is none of the exact commands: what the local engine understood
 * of it (`understand.ts`), answered by `answers.ts`. A message that asks for a team or about a
 * template is read a second time against the templates offered to the person (after audience
 * targeting), so its template is one they may use. The answer is in the message's language (a
 * French message in an English client is answered in French). Nothing understood: the help card,
 * quoting the message, in the reader's language.
 */
export function answerTyped(
  context: TurnContext,
  deps: VerbDependencies,
  text: string,
  later = false,
): Promise<Reply> {
  // Never lost to the rate limit: answered when the person's budget allows, one message at a time
  // (`later`: in a turn of the bot's own, after the message's own turn ended with `AnswerLater`).
  return inTurn(context, () => answerNow(context, patientDeps(context, deps, later), text));
}

async function answerNow(context: TurnContext, deps: VerbDependencies, text: string): Promise<Reply> {
  const first = understand(text, []);
  const reader = readerOfTurn(context);
  const notUnderstood = helpReply(reader, text || null, false, first.offTopic === true);
  if (MAY_NAME_A_REQUEST.has(first.intent) && !first.decideAll && text.length <= MAX_QUESTION_CHARS)
    return asCaller(context, deps, FIND_REQUEST, async (api) => {
      const asked = requestNamedIn(text, await myRequestNames(api), first.requestName);
      if (!asked) return answerRead(context, deps, text, first, notUnderstood);
      if (first.language !== reader.language) setReaderOfTurn(context, readerIn(reader, first.language));
      const intent =
        asked.withdraw || first.intent === 'withdrawRequest' ? 'withdrawRequest' : 'askRequestStatus';
      const understood = { ...first, intent, requestName: asked.name, requestFilter: null } as const;
      return answerUnderstanding(context, deps, understood, lookUpPeople);
    });
  return answerRead(context, deps, text, first, notUnderstood);
}

/** The person's recent requests by their teams' names; none when they cannot be read. */
async function myRequestNames(api: StewardClient): Promise<NamedRequest[]> {
  try {
    return (await api.getMyJobs({ top: FIND_TOP })).value.map(summarizeJob);
  } catch {
    return [];
  }
}

/** The answer to what the engine read, once no request of the person's was named in it. */
function answerRead(
  context: TurnContext,
  deps: VerbDependencies,
  text: string,
  first: Understanding,
  notUnderstood: Reply,
): Promise<Reply> | Reply {
  const reader = readerOfTurn(context);
  // Not understood without the person's templates: a request only if it names one of them.
  const unsure = first.intent === 'none' || (!NEEDS_TEMPLATES.has(first.intent) && !actionable(first));
  if (unsure && (first.offTopic === true || text.length > MAX_QUESTION_CHARS)) return notUnderstood;
  // A person who writes in French is answered in French this turn, whatever their client's language.
  if (first.language !== reader.language) setReaderOfTurn(context, readerIn(reader, first.language));
  if (!unsure && !NEEDS_TEMPLATES.has(first.intent))
    return answerUnderstanding(context, deps, first, lookUpPeople);
  return asCaller(context, deps, LIST_TEMPLATES, async (api) => {
    const [mine, unavailable] = await Promise.all([myTemplates(api), unavailableTemplates(api)]);
    const offered: TemplateChoice[] = mine.map((template) => ({
      id: template.templateConfiguration.id ?? '',
      name: template.templateConfiguration.name,
      description: template.templateConfiguration.description,
    }));
    const all = unavailable.length > 0 ? [...offered, ...unavailable] : offered;
    const understood = withNotOffered(understand(text, all, unsure), unavailable);
    if (understood.intent === 'none') {
      setReaderOfTurn(context, reader);
      return notUnderstood;
    }
    return actionable(understood)
      ? answerUnderstanding(context, deps, understood, lookUpPeople)
      : notUnderstood;
  });
}
