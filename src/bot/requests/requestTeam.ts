import { randomUUID } from 'node:crypto';
import type { TurnContext } from 'botbuilder';
import type { BotLog } from '../botLog';
import {
  type CatalogTemplate,
  type Label,
  type StewardClient,
  TEAM_NAME_MAX_LENGTH,
  type TeamRequestPreview,
} from '../../client';
import { galleryTemplate, renderGalleryCard } from './galleryCard';
import {
  type FormUnderstanding,
  MAX_STATIC_PEOPLE_CHOICES,
  type PersonChoice,
  renderRequestFormCard,
  type RequestFormValues,
} from './requestFormCard';
import { DEFAULT_READER, type Reader, say } from '../i18n/catalog';
import { teamNameProblem } from '../shared/nameProblems';
import { cardReply, type Reply } from '../conversations/reply';
import { myTemplates } from '../shared/myTemplates';

/** People a search of the people picker answers with at most. */
const MAX_SEARCH_RESULTS = 25;

/** The first step of "Request a team": the gallery of the caller's templates (`GET /me/catalog/templates`). */
export async function templateGallery(
  api: StewardClient,
  page: number,
  reader: Reader,
  inPlace = false,
  /** A sentence shown above the templates (why the gallery is shown rather than a form), or none. */
  note?: string,
): Promise<Reply> {
  return galleryOf(await myTemplates(api), page, reader, inPlace, note);
}

/** The gallery of `templates` (the caller's, from {@link myTemplates}); a sentence when there are none. */
export function galleryOf(
  templates: readonly CatalogTemplate[],
  page: number,
  reader: Reader,
  inPlace = false,
  note?: string,
): Reply {
  const entries = templates.flatMap((template) => galleryTemplate(template, reader) ?? []);
  if (entries.length === 0) return { kind: 'text', text: say(reader, 'gallery.none') };
  return cardReply(renderGalleryCard({ templates: entries, page, note }, reader), inPlace);
}

/** The gallery page a `showTemplates` action asks for (cards send it as a number or as text). */
export function pageOf(value: unknown): number {
  const page = typeof value === 'number' ? value : Number.parseInt(String(value ?? '0'), 10);
  return Number.isFinite(page) && page >= 0 ? Math.min(Math.trunc(page), 1000) : 0;
}

/** The person a request is for, as the bot knows them from the turn. */
export interface Requester {
  id: string;
  name: string;
}

/** The person behind a turn, as the form needs them. */
export function requesterOf(context: TurnContext): Requester {
  const from = context.activity.from;
  return { id: from.aadObjectId ?? '', name: from.name ?? '' };
}

/** What the form shows besides the template: earlier answers and why they were refused. */
export interface FormState {
  values?: RequestFormValues;
  problems?: readonly string[];
  /** Also show what is wrong with the final name ("Check name" pressed). */
  checkName?: boolean;
  /** Who the form is for: the naming convention and the owner count read them. */
  requester?: Requester;
  /** Who reads the form: its language and how numbers are written. */
  reader?: Reader;
  /** What Steward understood of a request typed in the person's own words, said on the form. */
  understood?: FormUnderstanding;
  /**
   * People to list first in the pickers, with their names: those the person named (their values
   * among `values.owners` / `values.members`) and the candidates of a name that fits several.
   */
  people?: readonly PersonChoice[];
}

/**
 * The request form for a template the caller picked, prefilled from its defaults (or the earlier
 * answers), with the naming convention, the label, and people to pick from.
 */
export async function requestForm(
  api: StewardClient,
  templateId: string,
  state: FormState,
  inPlace: boolean,
  log: BotLog,
): Promise<Reply> {
  const template = await api.getPlatformTeamTemplate(templateId);
  return cardReply(await formCard(api, template, state, log), inPlace);
}

/** Renders the form for `template` (used again when a submission is refused). */
export async function formCard(api: StewardClient, template: CatalogTemplate, state: FormState, log: BotLog) {
  const requester = state.requester ?? { id: '', name: '' };
  const reader = state.reader ?? DEFAULT_READER;
  const newTeam = template.newTeam;
  const values = state.values ?? {};
  // What the person typed: the template's default name is only the input's placeholder.
  const typed = values.name ?? '';
  const [people, label, preview] = await Promise.all([
    peopleChoices(api, state.values, state.people),
    labelName(api, template.templateConfiguration.sensitivityLabelId ?? null, log),
    // Without a name typed yet, the preview still tells who would approve (the final name is not shown).
    previewOf(api, template, {
      ...values,
      name: typed.trim() || newTeam.defaultName?.trim() || template.templateConfiguration.name,
    }),
  ]);
  const convention = newTeam.namingConventionWithTags?.trim() || newTeam.namingConvention?.trim();
  return renderRequestFormCard(
    {
      template,
      values: state.values,
      finalNamePreview: !convention
        ? null
        : typed.trim() && preview
          ? say(reader, 'form.finalName', { name: preview.displayName })
          : say(reader, 'form.pattern', { pattern: convention }),
      nameMaxLength: preview?.nameMaxLength ?? TEAM_NAME_MAX_LENGTH,
      ...peopleStillNeeded(template, requester.id),
      sensitivityLabel: label,
      people,
      problems: [
        ...(state.problems ?? []),
        ...(state.checkName ? finalNameProblems(typed, preview, reader) : []),
      ],
      formId: randomUUID(),
      understood: state.understood,
      approvalStages: preview?.approval?.stages,
    },
    reader,
  );
}

/**
 * What is wrong with the final name the preview made of `typed`, in the reader's words: the
 * preview's own sentences are the API's English, so a name too long for the room the convention
 * leaves, or a character refused, is said by the bot; anything else the preview found, in English
 * for English readers and as one sentence of their own language for others.
 */
function finalNameProblems(typed: string, preview: TeamRequestPreview | undefined, reader: Reader): string[] {
  if (!preview || preview.problems.length === 0) return [];
  const own =
    teamNameProblem(typed, reader, preview.nameMaxLength) ?? teamNameProblem(preview.displayName, reader);
  if (own) return [own];
  return reader.language === 'en' ? preview.problems : [say(reader, 'problem.badName')];
}

/**
 * What the server makes of the answers (`POST /teams/provisioning/preview`): the final name, its
 * problems and the name's limit, by the same rules as the request itself. Undefined when it cannot
 * say (no name yet, or the preview failed): the form then shows the pattern.
 */
export async function previewOf(
  api: StewardClient,
  template: CatalogTemplate,
  values: RequestFormValues & { name: string },
): Promise<TeamRequestPreview | undefined> {
  const templateId = template.templateConfiguration.id;
  if (!templateId || !values.name.trim()) return undefined;
  return api
    .previewTeamProvisioning({
      template: { id: templateId },
      team: {
        name: values.name.trim().slice(0, TEAM_NAME_MAX_LENGTH),
        description: (values.description ?? template.newTeam.defaultDescription ?? '').slice(0, 1024),
        welcomeMessage: (values.welcomeMessage ?? template.newTeam.defaultWelcomeMessage ?? '').slice(
          0,
          4000,
        ),
      },
    })
    .catch(() => undefined);
}

/**
 * How many owners and members the person must still pick: the server counts the requester (an
 * owner when the template says so, else a member) and the template's permanent people too.
 */
export function peopleStillNeeded(
  template: CatalogTemplate,
  requesterId: string,
): { ownersNeeded: number; membersNeeded: number } {
  const config = template.templateConfiguration;
  const requester = requesterId || 'requester';
  const owners = new Set(config.permanentMembership.owners.map((person) => person.id));
  if (template.newTeam.addRequesterAsTeamOwner) owners.add(requester);
  // An owner listed as a member too stays an owner, as the server counts.
  const members = new Set(
    config.permanentMembership.members.map((person) => person.id).filter((id) => !owners.has(id)),
  );
  if (!template.newTeam.addRequesterAsTeamOwner && !owners.has(requester)) members.add(requester);
  return {
    ownersNeeded: Math.max(0, config.minimumOwners - owners.size),
    membersNeeded: Math.max(0, config.minimumMembers - members.size),
  };
}

/**
 * Static choices for the pickers: the people already chosen first (named as `known` names them),
 * then the rest of `known`, then the start of the directory (without those already listed by id).
 */
async function peopleChoices(
  api: StewardClient,
  values: RequestFormValues = {},
  known: readonly PersonChoice[] = [],
): Promise<PersonChoice[]> {
  const chosen = [...new Set([...(values.owners ?? []), ...(values.members ?? [])])];
  const titles = new Map(known.map((person) => [person.value, person.title]));
  const [page, found] = await Promise.all([
    api.getUsers({ top: MAX_STATIC_PEOPLE_CHOICES }),
    // People picked by search (UPNs) the form has no name for: the directory names them.
    Promise.all(
      chosen
        .filter((id) => !titles.has(id) && id.includes('@'))
        .slice(0, MAX_STATIC_PEOPLE_CHOICES)
        .map((id) => personByAddress(api, id)),
    ),
  ]);
  for (const user of [...page.value, ...found.flatMap((user) => user ?? [])])
    for (const key of [user.id, user.userPrincipalName, user.mail ?? ''])
      if (key && user.displayName && !titles.has(key)) titles.set(key, user.displayName);
  const choices = new Map<string, PersonChoice>(
    chosen.map((id) => [id, { title: titles.get(id) ?? id, value: id }]),
  );
  for (const person of known) if (!choices.has(person.value)) choices.set(person.value, person);
  for (const user of page.value) {
    const value = user.userPrincipalName || user.mail || user.id;
    if (!choices.has(user.id) && !choices.has(value))
      choices.set(value, { title: user.displayName || value, value });
  }
  return [...choices.values()].slice(0, MAX_STATIC_PEOPLE_CHOICES);
}

/** The directory's entry for a UPN or mail, or undefined (also when the directory cannot be read). */
async function personByAddress(api: StewardClient, address: string) {
  const wanted = address.toLowerCase();
  const page = await api.getUsers({ search: address.slice(0, 100), top: 5 }).catch(() => null);
  return page?.value.find(
    (user) => user.userPrincipalName.toLowerCase() === wanted || user.mail?.toLowerCase() === wanted,
  );
}

/**
 * The display name of a sensitivity label as people know it, under its parent ("Confidential / All
 * Employees": "All Employees" alone is a sub-label of several parents), or null. The form shows
 * without it when the labels cannot be read (reported at warn on every path that draws the form),
 * since the label is only a hint there.
 */
async function labelName(api: StewardClient, labelId: string | null, log: BotLog): Promise<string | null> {
  if (!labelId) return null;
  try {
    const labels = await api.getMyLabels();
    const label: Label | undefined = labels.value.find((candidate) => candidate.id === labelId);
    return label ? (label.fullName ?? label.name) : null;
  } catch (error) {
    log.warn({ err: error, labelId }, 'the sensitivity labels could not be read for the request form');
    return null;
  }
}

/**
 * Answers a people picker's search (`application/search`, dataset `users`) from `GET /users?$search=`:
 * display names shown, UPNs submitted (the API accepts an id, a UPN or a mail).
 */
export async function searchPeople(api: StewardClient, queryText: string): Promise<PersonChoice[]> {
  const search = queryText.trim().slice(0, 100);
  const page = await api.getUsers({ search: search || undefined, top: MAX_SEARCH_RESULTS });
  return page.value.map((user) => {
    const value = user.userPrincipalName || user.mail || user.id;
    return { title: user.displayName || value, value };
  });
}
