import type { TurnContext } from 'botbuilder';
import type { StewardClient } from '../../client';
import { asCaller, type Failure, readerOfTurn, type Reply, setReaderOfTurn } from '../conversations/reply';
import { readerIn } from '../i18n/catalog';
import { myTemplates } from '../requests/requestTeam';
import type { VerbDependencies } from '../verbs';
import { helpReply } from '../welcome/help';
import { answerUnderstanding } from './answers';
import { resolvePeople } from './directoryLookup';
import { directoryQueries, matchPeople } from './people';
import type { DirectoryPerson, Intent, PersonMatch, PersonMention, TemplateChoice } from './types';
import { understand } from './understand';

/** The intents whose answer depends on the templates offered to the person. */
const NEEDS_TEMPLATES: ReadonlySet<Intent> = new Set(['requestTeam', 'askApprovers', 'askTemplates']);

const LIST_TEMPLATES: Failure = { subject: 'templates', doing: 'listTemplates' };

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
export async function answerTyped(
  context: TurnContext,
  deps: VerbDependencies,
  text: string,
): Promise<Reply> {
  const first = understand(text, []);
  const reader = readerOfTurn(context);
  if (first.intent === 'none') return helpReply(reader, text || null);
  // A person who writes in French is answered in French this turn, whatever their client's language.
  if (first.language !== reader.language) setReaderOfTurn(context, readerIn(reader, first.language));
  if (!NEEDS_TEMPLATES.has(first.intent)) return answerUnderstanding(context, deps, first, lookUpPeople);
  return asCaller(context, deps, LIST_TEMPLATES, async (api) => {
    const offered: TemplateChoice[] = (await myTemplates(api)).map((template) => ({
      id: template.templateConfiguration.id ?? '',
      name: template.templateConfiguration.name,
      description: template.templateConfiguration.description,
    }));
    return answerUnderstanding(context, deps, understand(text, offered), lookUpPeople);
  });
}
