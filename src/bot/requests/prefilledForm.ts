import type { TurnContext } from 'botbuilder';
import { type CatalogTemplate, type StewardClient, TEAM_NAME_MAX_LENGTH } from '../../client';
import { clip } from '../cards/cardText';
import { cardReply, readerOfTurn, type Reply } from '../conversations/reply';
import { alternativesIn, namesIn, type Reader, say, sayCount } from '../i18n/catalog';
import { myTemplates } from '../shared/myTemplates';
import { teamNameProblem } from '../shared/nameProblems';
import { offered, type PeopleResolver, quotedName, withWords, wordsOf } from '../understanding/answerParts';
import { MAX_MENTIONS } from '../understanding/directoryLookup';
import type { PersonMatch, PersonMention, Understanding } from '../understanding/types';
import type { VerbDependencies } from '../verbTypes';
import type { PersonChoice, RequestFormValues } from './requestFormCard';
import { keepTyped } from './keptTyped';
import { notOfferedText } from './notOfferedReply';
import { templateTexts } from '../shared/templateTexts';
import { formCard, galleryOf, requesterOf } from './requestTeam';

/** The longest name put on the form (twice Graph's limit: enough to see it is too long) and description (the API's). */
const MAX_NAME_SHOWN = 2 * TEAM_NAME_MAX_LENGTH;
const DESCRIPTION_MAX_LENGTH = 1024;

/** Candidates of an ambiguous name offered first in the form's picker. */
const MAX_CANDIDATES = 5;

/**
 * `requestTeam`: the request form of the template that fits, among the person's own templates,
 * prefilled with the name, the description and the people understood, and one line saying why this
 * template. A name that fits several people lists them first in its picker and says so; a name the
 * directory does not know is named and left out. A template not offered to the person, or none
 * understood, shows the gallery with a sentence saying why.
 */
export async function prefilledForm(
  api: StewardClient,
  context: TurnContext,
  deps: VerbDependencies,
  understood: Understanding,
  resolvePeople: PeopleResolver,
): Promise<Reply> {
  const reader = readerOfTurn(context);
  const mine = await myTemplates(api);
  const { fits, pointed } = offered(understood, mine);
  if (!understood.notOffered && !fits[0] && pointed)
    return galleryOf(
      mine,
      0,
      reader,
      false,
      withWords(reader, 'understood.notOffered', 'understood.notOffered.plain', pointed),
    );
  // Each person named once (as an owner, if named both ways), and no more than the directory is asked about.
  const mentions = distinctPeople(understood.people);
  const looked = mentions.slice(0, MAX_MENTIONS);
  const people = looked.length > 0 ? await resolvePeople(api, looked) : [];
  const { values, known, notes } = peopleOnForm(people, reader);
  if (mentions.length > looked.length)
    notes.push(sayCount(reader, 'understood.tooManyPeople', looked.length));
  // Texts as long as the form can hold: a longer name is shown, and said to be too long.
  const name = clip(understood.teamName?.replace(/\s+/g, ' ').trim() ?? '', MAX_NAME_SHOWN);
  if (name) values.name = name;
  const description = clip(understood.description?.trim() ?? '', DESCRIPTION_MAX_LENGTH);
  if (description) values.description = description;
  // A template not offered: the gallery says so, and what was typed waits for the one picked.
  if (understood.notOffered) {
    const lead = notOfferedText(reader, understood.notOffered, fits[0]?.template);
    return keptForGallery(context, deps, mine, reader, { values, known, notes }, lead);
  }
  let chosen = fits[0];
  if (!chosen) {
    const only = mine.length === 1 ? mine[0] : undefined;
    if (!only) return keptForGallery(context, deps, mine, reader, { values, known, notes });
    chosen = { template: only, match: { id: only.templateConfiguration.id ?? '', because: '', score: 0 } };
  }
  // The template as the form always reads it (the gallery's Choose does the same).
  const template = await api.getPlatformTeamTemplate(chosen.template.templateConfiguration.id ?? '');
  const because = wordsOf(chosen.match)
    ? say(reader, 'understood.because', {
        template: clip(templateTexts(template.templateConfiguration, reader).name, 120),
        words: wordsOf(chosen.match),
      })
    : '';
  const nameProblem = name ? teamNameProblem(name, reader) : null;
  return cardReply(
    await formCard(
      api,
      template,
      {
        values,
        problems: nameProblem ? [nameProblem] : [],
        requester: requesterOf(context),
        reader,
        understood: { because, notes },
        people: known,
      },
      deps.log,
    ),
  );
}

/**
 * No template told from the message (or, with `lead`, one not offered to the person): the gallery,
 * with what the person typed (name, people) kept for the form of the template they pick
 * (`keptTyped.ts`), and said so.
 */
async function keptForGallery(
  context: TurnContext,
  deps: VerbDependencies,
  mine: readonly CatalogTemplate[],
  reader: Reader,
  form: { values: RequestFormValues; known: PersonChoice[]; notes: string[] },
  lead?: string,
): Promise<Reply> {
  const { values, known, notes } = form;
  const kept = [
    ...(values.name ? [quotedName(reader, values.name)] : []),
    ...known
      .filter((person) => [...(values.owners ?? []), ...(values.members ?? [])].includes(person.value))
      .map((person) => clip(person.title, 80)),
  ];
  if (kept.length === 0)
    return galleryOf(mine, 0, reader, false, lead ?? say(reader, 'understood.noTemplate'));
  await keepTyped(deps.requestState, context, {
    values,
    people: known,
    understood: { because: '', notes },
  });
  const text = lead
    ? `${lead} ${say(reader, 'understood.kept', { kept: namesIn(reader, kept) })}`
    : say(reader, 'understood.noTemplate.kept', { kept: namesIn(reader, kept) });
  return galleryOf(mine, 0, reader, false, text);
}

/** Each person named once, in the order written, as an owner if named as one anywhere; blank names dropped. */
function distinctPeople(people: readonly PersonMention[]): PersonMention[] {
  const key = (mention: PersonMention) => mention.text.replace(/\s+/g, ' ').trim().toLowerCase();
  const owners = new Set(people.filter((mention) => mention.role === 'owner').map(key));
  const distinct = new Map<string, PersonMention>();
  for (const mention of people) {
    const name = key(mention);
    if (name && !distinct.has(name))
      distinct.set(name, { text: mention.text.trim(), role: owners.has(name) ? 'owner' : mention.role });
  }
  return [...distinct.values()];
}

/**
 * The form's owners and members from the people found (by object id, which the API takes), the
 * pickers' named choices, and a sentence for each name that fits several people or nobody. Someone
 * named as an owner and as a member is an owner.
 */
function peopleOnForm(
  people: readonly PersonMatch[],
  reader: Reader,
): {
  values: RequestFormValues & { owners: string[]; members: string[] };
  known: PersonChoice[];
  notes: string[];
} {
  const owners: string[] = [];
  const members: string[] = [];
  const known = new Map<string, PersonChoice>();
  const notes: string[] = [];
  for (const { mention, matches, ambiguous } of people) {
    const field = say(reader, mention.role === 'owner' ? 'fact.owners' : 'fact.members');
    const found = matches.filter((person) => person.id && person.displayName);
    if (found.length === 0) {
      notes.push(say(reader, 'understood.unknownPerson', { name: quotedName(reader, mention.text), field }));
      continue;
    }
    if (ambiguous && found.length > 1) {
      const candidates = found.slice(0, MAX_CANDIDATES);
      for (const person of candidates)
        if (!known.has(person.id)) known.set(person.id, { title: person.displayName, value: person.id });
      notes.push(
        say(reader, 'understood.choosePerson', {
          name: quotedName(reader, mention.text),
          people: alternativesIn(
            reader,
            candidates.map((person) => clip(person.displayName, 80)),
          ),
          field,
        }),
      );
      continue;
    }
    const person = found[0]!;
    known.set(person.id, { title: person.displayName, value: person.id });
    (mention.role === 'owner' ? owners : members).push(person.id);
  }
  const ownerSet = new Set(owners);
  const memberIds = [...new Set(members)].filter((id) => !ownerSet.has(id));
  // Who was put on the form, by name: the pickers hold ids, which some clients draw as they are.
  const placed = (field: 'fact.owners' | 'fact.members', ids: readonly string[]) =>
    ids.length > 0
      ? [
          say(reader, 'understood.placed', {
            field: say(reader, field),
            names: namesIn(
              reader,
              ids.map((id) => clip(known.get(id)?.title ?? '', 80)),
            ),
          }),
        ]
      : [];
  notes.unshift(...placed('fact.owners', [...ownerSet]), ...placed('fact.members', memberIds));
  return {
    values: {
      owners: [...ownerSet],
      members: memberIds,
    },
    known: [...known.values()],
    notes,
  };
}
