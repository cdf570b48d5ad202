import type { TurnContext } from 'botbuilder';
import {
  type CatalogTemplate,
  type StewardClient,
  TEAM_NAME_MAX_LENGTH,
  type TeamLifecycle,
} from '../../client';
import { isStatus } from '../apiFailures';
import { approvalWords } from '../approvals/approvalWords';
import { CardVerb, type MyRequestsData, type RequestByNameData } from '../cards/cardVerbs';
import { clip, markdownText } from '../cards/cardText';
import { asCaller, cardReply, type Failure, readerOfTurn, type Reply } from '../conversations/reply';
import { alternativesIn, namesIn, type Reader, say, sayCount } from '../i18n/catalog';
import type { MessageKey } from '../i18n/en';
import { summarizeJob } from '../requests/jobSummary';
import { teamNameProblem } from '../requests/nameProblems';
import { galleryTemplate, type GalleryTemplate } from '../requests/galleryCard';
import type { PersonChoice, RequestFormValues } from '../requests/requestFormCard';
import { formCard, galleryOf, myTemplates, requesterOf } from '../requests/requestTeam';
import { runVerb, type VerbDependencies } from '../verbs';
import { helpReply } from '../welcome/help';
import { renderWelcomeCard } from '../welcome/welcomeCard';
import { renderCapabilitiesCard } from './capabilitiesCard';
import { MAX_MENTIONS } from './directoryLookup';
import { EXPIRING_TEAMS_SHOWN, type ExpiringTeam, renderExpiringTeamsCard } from './expiringTeamsCard';
import { renderTemplateChoicesCard } from './templateChoicesCard';
import type { PersonMatch, PersonMention, TemplateMatch, Understanding } from './types';

/**
 * Who the people a message names are, asked as the person behind `api` (the integration:
 * `directoryLookup.ts`'s `resolvePeople` with the understanding engine's matcher).
 */
export type PeopleResolver = (
  api: StewardClient,
  mentions: readonly PersonMention[],
) => Promise<PersonMatch[]>;

/** A person an approval policy names: an object id, a UPN or a mail, and the name it keeps, if any. */
type PolicyPerson = CatalogTemplate['templateConfiguration']['approval']['approvalTeam'][number];

const LIST_TEMPLATES: Failure = { subject: 'templates', doing: 'listTemplates' };
const OPEN_TEMPLATE: Failure = { subject: 'template', doing: 'openTemplate' };
const LIST_TEAMS: Failure = { subject: 'team', doing: 'listTeams' };

/** The longest name put on the form (twice Graph's limit: enough to see it is too long) and description (the API's). */
const MAX_NAME_SHOWN = 2 * TEAM_NAME_MAX_LENGTH;
const DESCRIPTION_MAX_LENGTH = 1024;

/** Candidates of an ambiguous name offered first in the form's picker. */
const MAX_CANDIDATES = 5;

/**
 * The person's requests looked through for their teams; the teams whose lifecycle is read at most
 * (one call each, within the person's 60 calls a minute), newest first; and reads at once.
 */
const TEAMS_FROM_REQUESTS = 50;
const TEAMS_CHECKED = 20;
const LIFECYCLE_READS_AT_ONCE = 4;

/**
 * The bot's answer to what it understood of a message typed in the person's own words, in the
 * reader's language, with names and never ids. Nothing is created here: a request comes back as
 * the request form, prefilled, and is made only when the person presses Request the team (the
 * form's own `submitRequest`). Calls to the API are made as the person; a failure is the error
 * card of the conversation it belongs to.
 */
export async function answerUnderstanding(
  context: TurnContext,
  deps: VerbDependencies,
  understood: Understanding,
  resolvePeople: PeopleResolver,
): Promise<Reply> {
  const reader = readerOfTurn(context);
  switch (understood.intent) {
    case 'requestTeam':
      return asCaller(context, deps, LIST_TEMPLATES, (api) =>
        prefilledForm(api, context, deps, understood, resolvePeople),
      );
    case 'askApprovers':
      return asCaller(context, deps, OPEN_TEMPLATE, (api) => approvers(api, understood, reader));
    case 'askRequestStatus':
      return requestsAsked(context, deps, understood);
    case 'askExpiringTeams':
      return asCaller(context, deps, LIST_TEAMS, (api) => expiringTeams(api, reader));
    case 'askTemplates':
      return asCaller(context, deps, LIST_TEMPLATES, (api) => suitableTemplates(api, understood, reader));
    case 'askCapabilities':
      return cardReply(renderCapabilitiesCard(reader));
    case 'greeting':
      return cardReply(renderWelcomeCard({ userName: context.activity.from?.name ?? null }, reader));
    case 'thanks':
      return { kind: 'text', text: say(reader, 'talk.thanks') };
    default:
      return helpReply(reader);
  }
}

/** The person's words as the cards show them: one line, in italics without breaking them. */
const wordsOf = (match: TemplateMatch): string =>
  markdownText(clip(match.because.replace(/\s+/g, ' ').trim(), 80));

/**
 * The sentence `key` with the person's words in it, or `plainKey` when the engine gave no words
 * (an empty `*…*` would show as two asterisks).
 */
function withWords(
  reader: Reader,
  key: MessageKey,
  plainKey: MessageKey,
  match: TemplateMatch,
  values: Record<string, string> = {},
): string {
  const words = wordsOf(match);
  return words ? say(reader, key, { ...values, words }) : say(reader, plainKey, values);
}

/** A name as typed, quoted as the reader quotes ("“Luc”", "« Luc »"), shown as its characters. */
const quotedName = (reader: Reader, text: string): string =>
  say(reader, 'quoted', { text: markdownText(clip(text.replace(/\s+/g, ' ').trim(), 64)) });

/** A template's name, quoted, for a sentence. */
const templateNamed = (reader: Reader, template: CatalogTemplate): string =>
  say(reader, 'quoted', { text: clip(template.templateConfiguration.name, 120) });

/**
 * The templates the message points at that are offered to the person (best first), and the words
 * of the first one it points at (for "not offered to you").
 */
function offered(
  understood: Understanding,
  mine: readonly CatalogTemplate[],
): { fits: Array<{ template: CatalogTemplate; match: TemplateMatch }>; pointed: TemplateMatch | null } {
  const byId = new Map(mine.map((template) => [template.templateConfiguration.id ?? '', template]));
  const seen = new Set<string>();
  const fits = understood.templates.flatMap((match) => {
    const template = match.id ? byId.get(match.id) : undefined;
    if (!template || seen.has(match.id)) return [];
    seen.add(match.id);
    return [{ template, match }];
  });
  return { fits, pointed: understood.templates[0] ?? null };
}

/**
 * `requestTeam`: the request form of the template that fits, among the person's own templates,
 * prefilled with the name, the description and the people understood, and one line saying why this
 * template. A name that fits several people lists them first in its picker and says so; a name the
 * directory does not know is named and left out. A template not offered to the person, or none
 * understood, shows the gallery with a sentence saying why.
 */
async function prefilledForm(
  api: StewardClient,
  context: TurnContext,
  deps: VerbDependencies,
  understood: Understanding,
  resolvePeople: PeopleResolver,
): Promise<Reply> {
  const reader = readerOfTurn(context);
  const mine = await myTemplates(api);
  const { fits, pointed } = offered(understood, mine);
  let chosen = fits[0];
  if (!chosen) {
    if (pointed)
      return galleryOf(
        mine,
        0,
        reader,
        false,
        withWords(reader, 'understood.notOffered', 'understood.notOffered.plain', pointed),
      );
    const only = mine.length === 1 ? mine[0] : undefined;
    if (!only) return galleryOf(mine, 0, reader, false, say(reader, 'understood.noTemplate'));
    chosen = { template: only, match: { id: only.templateConfiguration.id ?? '', because: '', score: 0 } };
  }
  // The template as the form always reads it (the gallery's Choose does the same).
  const template = await api.getPlatformTeamTemplate(chosen.template.templateConfiguration.id ?? '');
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
  const because = wordsOf(chosen.match)
    ? say(reader, 'understood.because', {
        template: clip(template.templateConfiguration.name, 120),
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

/**
 * `askApprovers`: who approves the template asked about, from its approval policy: no approval,
 * its approvers (any one of them decides), or its stages in order with who decides each.
 */
async function approvers(api: StewardClient, understood: Understanding, reader: Reader): Promise<Reply> {
  const mine = await myTemplates(api);
  const { fits, pointed } = offered(understood, mine);
  const chosen = fits[0];
  if (!chosen) {
    if (pointed)
      return {
        kind: 'text',
        text: withWords(
          reader,
          'understood.approvers.notOffered',
          'understood.approvers.notOffered.plain',
          pointed,
        ),
      };
    const example = mine[0];
    if (!example) return { kind: 'text', text: say(reader, 'gallery.none') };
    return {
      kind: 'text',
      text: say(reader, 'understood.approvers.which', { template: templateNamed(reader, example) }),
    };
  }
  const template = templateNamed(reader, chosen.template);
  const approval = chosen.template.templateConfiguration.approval;
  if (!approval.requireApproval)
    return { kind: 'text', text: say(reader, 'understood.approvers.none', { template }) };
  const stages = approval.stages ?? [];
  if (stages.length === 0) {
    const names = await namesOf(api, approval.approvalTeam);
    if (names.length === 0)
      return { kind: 'text', text: say(reader, 'understood.approvers.unnamed', { template }) };
    const key = `understood.approvers.${approvalWords(names.length, 'any')}` as const;
    return { kind: 'text', text: say(reader, key, { template, names: namesIn(reader, names) }) };
  }
  const lines = [sayCount(reader, 'understood.approvers.stages', stages.length, { template })];
  for (const [index, stage] of stages.entries()) {
    const values = { number: index + 1, stage: clip(stage.name, 80) };
    const approversOf = stage.approvers;
    if (approversOf.kind === 'manager') lines.push(say(reader, 'understood.stage.manager', values));
    else if (approversOf.kind === 'rule') lines.push(say(reader, 'understood.stage.rule', values));
    else {
      const names = await namesOf(api, approversOf.people);
      lines.push(
        names.length === 0
          ? say(reader, 'understood.stage.nobody', values)
          : say(reader, `understood.stage.${approvalWords(names.length, stage.decision)}`, {
              ...values,
              names: namesIn(reader, names),
            }),
      );
    }
  }
  return { kind: 'text', text: lines.join('\n\n') };
}

/**
 * The names of a policy's people: the name the policy keeps, else the directory's for a mail or
 * UPN; a person known only by an object id the directory cannot be searched for is left out
 * rather than shown as an id.
 */
async function namesOf(api: StewardClient, people: readonly PolicyPerson[]): Promise<string[]> {
  const names = await Promise.all(
    people.map(async (person) => {
      const name = person.name?.trim();
      if (name) return name;
      if (!person.id.includes('@')) return '';
      const wanted = person.id.trim().toLowerCase();
      const page = await api.getUsers({ search: person.id.trim().slice(0, 100), top: 5 }).catch(() => null);
      const user = page?.value.find(
        (candidate) =>
          candidate.userPrincipalName.toLowerCase() === wanted || candidate.mail?.toLowerCase() === wanted,
      );
      return user?.displayName.trim() ?? '';
    }),
  );
  return [...new Set(names.filter((name) => name !== '').map((name) => clip(name, 80)))];
}

/**
 * `askRequestStatus`: the typed commands' own answers, through the verb table: `status <team>`
 * for one request by its name, `my requests` for all of them or only those still waiting.
 */
function requestsAsked(
  context: TurnContext,
  deps: VerbDependencies,
  understood: Understanding,
): Promise<Reply> {
  const name = understood.requestName?.replace(/\s+/g, ' ').trim();
  if (name) {
    const data: RequestByNameData = { request: name };
    return runVerb(CardVerb.showStatus, { context, deps, data: { ...data }, typed: true });
  }
  const data: MyRequestsData = understood.requestFilter === 'waiting' ? { waiting: true } : {};
  return runVerb(CardVerb.myRequests, { context, deps, data: { ...data }, typed: true });
}

/**
 * `askExpiringTeams`: of the teams the person's requests made (the API has no list of a person's
 * teams), those that expire, expired or are inactive by their lifecycle (`GET
 * /teams/{id}/lifecycle`, owners only: a team they no longer own is left out), with the
 * lifecycle cards' buttons.
 */
async function expiringTeams(api: StewardClient, reader: Reader): Promise<Reply> {
  const jobs = (await api.getMyJobs({ top: TEAMS_FROM_REQUESTS })).value;
  const newestFirst = [...jobs].sort((a, b) => b.createdDateTime.localeCompare(a.createdDateTime));
  const teamIds = [
    ...new Set(
      newestFirst.flatMap((job) => {
        const summary = summarizeJob(job);
        const team = job.data.team;
        const id = team && typeof team === 'object' ? (team as { id?: unknown }).id : undefined;
        return summary.kind === 'provisioning' &&
          summary.status === 'completed' &&
          typeof id === 'string' &&
          id
          ? [id]
          : [];
      }),
    ),
  ].slice(0, TEAMS_CHECKED);
  const teams: ExpiringTeam[] = [];
  for (let start = 0; start < teamIds.length; start += LIFECYCLE_READS_AT_ONCE) {
    const read = await Promise.all(
      teamIds.slice(start, start + LIFECYCLE_READS_AT_ONCE).map((id) => lifecycleOf(api, id)),
    );
    for (const lifecycle of read) {
      const team = lifecycle && expiring(lifecycle);
      if (team) teams.push(team);
    }
    if (teams.length >= EXPIRING_TEAMS_SHOWN) break;
  }
  if (teams.length === 0) return { kind: 'text', text: say(reader, 'understood.expiring.none') };
  return cardReply(renderExpiringTeamsCard(teams, reader));
}

/** A team's lifecycle, or null when the person may not read it (not an owner) or it is gone. */
async function lifecycleOf(api: StewardClient, teamId: string): Promise<TeamLifecycle | null> {
  try {
    return await api.getTeamLifecycle(teamId);
  } catch (error) {
    if (isStatus(error, 403) || isStatus(error, 404)) return null;
    throw error;
  }
}

/** The team as the answer lists it when it expires, expired or is inactive; null otherwise. */
function expiring(lifecycle: TeamLifecycle): ExpiringTeam | null {
  // A team short of owners is `ownerless` first: what the next evaluation would do still says it.
  const due = new Set(lifecycle.pendingActions.map((action) => action.action));
  const state: ExpiringTeam['state'] | null =
    lifecycle.state === 'expired' || due.has('expire')
      ? 'expired'
      : lifecycle.state === 'expiring' || due.has('renewalNotice')
        ? 'expiring'
        : lifecycle.state === 'inactive' || due.has('inactivityNotice') || due.has('inactivityArchive')
          ? 'inactive'
          : null;
  if (state === null) return null;
  return {
    teamId: lifecycle.teamId,
    name: lifecycle.displayName,
    state,
    expiresOn: lifecycle.expiresOn,
    renewDays: lifecycle.policy.expiration.days,
    lastActivityDate: lifecycle.lastActivityDateTime?.slice(0, 10) ?? null,
  };
}

/**
 * `askTemplates`: the person's templates that fit the purpose, best first, each with Request; the
 * gallery with a sentence when none of theirs fits, or when the message named no purpose.
 */
async function suitableTemplates(
  api: StewardClient,
  understood: Understanding,
  reader: Reader,
): Promise<Reply> {
  const mine = await myTemplates(api);
  const { fits, pointed } = offered(understood, mine);
  if (!pointed) return galleryOf(mine, 0, reader, false, say(reader, 'understood.templates.all'));
  const first = fits[0];
  if (!first)
    return galleryOf(
      mine,
      0,
      reader,
      false,
      withWords(reader, 'understood.templates.noneFits', 'understood.templates.noneFits.plain', pointed),
    );
  const templates = fits.flatMap(({ template }): GalleryTemplate[] => {
    const entry = galleryTemplate(template);
    return entry ? [entry] : [];
  });
  const words = first.match.because.replace(/\s+/g, ' ').trim();
  return cardReply(renderTemplateChoicesCard({ words, templates }, reader));
}
