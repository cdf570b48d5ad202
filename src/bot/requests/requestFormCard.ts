import type { CatalogTemplate, TeamRequestPreview } from '../../client';
import { renderCard, type AdaptiveCardAttachment } from '../cards/adaptiveCard';
import { cardPictureUrl } from '../cards/cardPicture';
import { clip, markdownText, shortQuotes } from '../cards/cardText';
import {
  alternativesIn,
  DEFAULT_READER,
  namesIn,
  numberFor,
  type Reader,
  say,
  sayCount,
} from '../i18n/catalog';
import { approvalWords } from '../shared/approvalWords';
import { templateTexts } from '../shared/templateTexts';
import requestFormCardTemplate from './requestFormCard.json';

/** Static people-picker choices kept on the card (hosts without `Data.Query` search show only these). */
export const MAX_STATIC_PEOPLE_CHOICES = 25;

/** One person in the people pickers: the display name shown, the user id submitted. */
export interface PersonChoice {
  title: string;
  value: string;
}

/**
 * The answers a form shows. A missing name, description or welcome message stays empty, with the
 * template's `newTeam.default*` as the input's placeholder: a default prefilled as a value was text
 * to delete, and a name prefilled ("New project") made a team of that name at one careless press.
 * A description or welcome message left empty is not sent, so the server applies the template's
 * default.
 */
export interface RequestFormValues {
  name?: string;
  description?: string;
  welcomeMessage?: string;
  /**
   * User ids (or UPNs); each should also be among `people`, whose title names it. They are shown
   * as ticked boxes with those names, above a search for others: a picker with dynamic search
   * draws its preset values as they are in some hosts (the Agents Playground), ids included.
   */
  owners?: readonly string[];
  members?: readonly string[];
}

/**
 * What Steward understood of a request typed in the person's own words, as sentences ready to show
 * above the inputs (the form stays a form: every field editable, nothing sent before Request the team).
 */
export interface FormUnderstanding {
  /** Why this template: "Project team, because you said *project*"; '' for none. */
  because: string;
  /** About the people named: a name that fits several, a name the directory does not know. */
  notes: readonly string[];
}

/** What the request form shows. */
export interface RequestFormCardData {
  /** The picked template (from `GET /me/catalog/templates`); it must have an id. */
  template: CatalogTemplate;
  /** The person's earlier answers when the form is shown again; omit for a fresh form. */
  values?: RequestFormValues;
  /** A sentence about the name the naming convention will produce, e.g. `Your team will be called "PRJ - Falcon".`; null for none. */
  finalNamePreview: string | null;
  /** The longest name the person may type: the convention's additions leave the rest of Graph's limit. */
  nameMaxLength: number;
  /** Owners and members the person must still pick (the requester and permanent people count). */
  ownersNeeded: number;
  membersNeeded: number;
  /** The display name of the template's sensitivity label; null when it has none. */
  sensitivityLabel: string | null;
  /** Static choices for the owners and members pickers (the requester and people suggested for them). */
  people: readonly PersonChoice[];
  /** Why the last submission was refused (the API's validation messages), shown above the inputs. */
  problems: readonly string[];
  /**
   * Identifies this form: submitted with it, so a second click or a replay of the same card is
   * recognised as the same request. Omit for none.
   */
  formId?: string;
  /** What Steward understood of a typed request (the form is then prefilled from it); omit for none. */
  understood?: FormUnderstanding;
  /**
   * Who would decide, stage by stage, as the approval policy picks them for this person now (the
   * preview's `approval`: their manager, a rule's pick); omit when unknown, and the form names the
   * template's approval team, if any.
   */
  approvalStages?: readonly ApprovalStagePreview[];
}

/** One stage of the approval a request would get, as the preview resolves it. */
export type ApprovalStagePreview = NonNullable<TeamRequestPreview['approval']>['stages'][number];

/** "Adele Vance, then Lynne Robbins or Megan Bowen": who decides each stage, in order; '' for nobody named. */
function stagesSaid(stages: readonly ApprovalStagePreview[], reader: Reader): string {
  const said = stages.flatMap((stage) => {
    const names = stage.approvers.flatMap((person) => (person.name?.trim() ? [clip(person.name, 80)] : []));
    if (names.length === 0) return [];
    return [stage.decision === 'all' ? namesIn(reader, names) : alternativesIn(reader, names)];
  });
  return said.join(say(reader, 'form.approvalThen'));
}

/**
 * What the form says about a text the template's convention writes: the rule (its tagged form),
 * and whether the convention uses the typed text at all (when not, the form offers no input).
 */
function conventionNote(
  convention: string | undefined,
  withTags: string | undefined,
  field: 'description' | 'welcomeMessage',
  reader: Reader,
): { note: string; typed: boolean } {
  if (!convention?.trim()) return { note: '', typed: true };
  const rule = clip(withTags?.trim() || convention, 300);
  const label = say(reader, field === 'description' ? 'form.description' : 'form.welcomeMessageShort');
  return convention.includes(`request.team.${field}`)
    ? { note: say(reader, 'form.conventionTyped', { field: label, rule }), typed: true }
    : { note: say(reader, 'form.conventionSet', { field: label, rule }), typed: false };
}

/** The longest description and welcome message a request may carry (the API's limits). */
const DESCRIPTION_MAX_LENGTH = 1024;
const WELCOME_MESSAGE_MAX_LENGTH = 4000;

/** The request form for one template, prefilled from the template's defaults; Submit sends `submitRequest`. */
export function renderRequestFormCard(
  data: RequestFormCardData,
  reader: Reader = DEFAULT_READER,
): AdaptiveCardAttachment {
  const config = data.template.templateConfiguration;
  const newTeam = data.template.newTeam;
  const values = data.values ?? {};
  const approvers = config.approval.approvalTeam.map((member) => member.name ?? member.id);
  const picked = data.approvalStages ? stagesSaid(data.approvalStages, reader) : '';
  const texts = templateTexts(config, reader);
  const templateName = clip(texts.name, 120);
  const titles = new Map(data.people.map((person) => [person.value, person.title]));
  const chosen = (ids: readonly string[] = []) =>
    [...new Set(ids)].map((id) => ({ title: clip(titles.get(id) ?? id, 80), value: id }));
  const owners = chosen(values.owners);
  const members = chosen(values.members);
  // With people already chosen, the search below them is for others, and asks for nobody more.
  const picker = (role: 'owners' | 'members', count: number, needed: number) => ({
    id: count > 0 ? `more${role === 'owners' ? 'Owners' : 'Members'}` : role,
    label: say(reader, count > 0 ? `form.more.${role}` : role === 'owners' ? 'fact.owners' : 'fact.members'),
    required: count === 0 && needed > 0,
  });
  const nameMaxLength = Math.max(1, data.nameMaxLength);
  return renderCard('requestFormCard', requestFormCardTemplate, {
    template: {
      id: config.id ?? '',
      name: templateName,
      description: clip(texts.description, 500),
      pictureUrl: cardPictureUrl(config.pictureUrl),
    },
    team: {
      name: values.name ?? '',
      description: values.description ?? '',
      welcomeMessage: values.welcomeMessage ?? '',
      owners: (values.owners ?? []).join(','),
      members: (values.members ?? []).join(','),
    },
    finalNamePreview: clip(data.finalNamePreview?.trim() ?? '', 400),
    minimumOwners: data.ownersNeeded,
    minimumMembers: data.membersNeeded,
    // A convention decides the text: say so, and offer no input when it ignores what is typed.
    description: conventionNote(
      newTeam.descriptionConvention,
      newTeam.descriptionConventionWithTags,
      'description',
      reader,
    ),
    welcomeMessage: conventionNote(
      newTeam.welcomeMessageConvention,
      newTeam.welcomeMessageConventionWithTags,
      'welcomeMessage',
      reader,
    ),
    chosen: { owners, members },
    pickers: {
      owners: picker('owners', owners.length, data.ownersNeeded),
      members: picker('members', members.length, data.membersNeeded),
    },
    // The names of the people chosen go back with the answers, so the form shown again names them.
    named: JSON.stringify([...owners, ...members]),
    people: data.people
      .slice(0, MAX_STATIC_PEOPLE_CHOICES)
      .map((person) => ({ title: clip(person.title, 80), value: person.value })),
    privacy: say(reader, newTeam.teamPrivacy === 'public' ? 'privacy.public' : 'privacy.private'),
    sensitivityLabel: clip(data.sensitivityLabel ?? '', 80),
    approval: picked
      ? say(reader, 'form.approvalPicked', { names: clip(picked, 300) })
      : config.approval.requireApproval && approvers.length > 0
        ? say(reader, `form.approvalBy${approvalWords(approvers.length, 'any')}`, {
            names: clip(namesIn(reader, approvers), 300),
          })
        : say(reader, config.approval.requireApproval ? 'form.approvalNeeded' : 'form.approvalNotNeeded'),
    problems: data.problems.slice(0, 10).map((problem) => markdownText(clip(shortQuotes(problem), 300))),
    formId: data.formId ?? '',
    understood: {
      because: clip(data.understood?.because ?? '', 400),
      // Who was put under Owners and under Members, then at most ten other notes.
      notes: (data.understood?.notes ?? []).slice(0, 12).map((note) => clip(note, 400)),
    },
    labels: {
      fallback: say(reader, 'form.fallback', { template: templateName }),
      title: say(reader, 'form.title', { template: templateName }),
      name: say(reader, 'fact.teamName'),
      namePlaceholder: newTeam.defaultName?.trim()
        ? clip(newTeam.defaultName.trim(), 120)
        : say(reader, 'form.namePlaceholder'),
      nameError: say(reader, 'form.nameError', { max: numberFor(reader, nameMaxLength) }),
      description: say(reader, 'form.description'),
      descriptionPlaceholder: clip(newTeam.defaultDescription ?? '', DESCRIPTION_MAX_LENGTH),
      descriptionError: say(reader, 'form.descriptionError', {
        max: numberFor(reader, DESCRIPTION_MAX_LENGTH),
      }),
      welcomeMessage: say(reader, 'form.welcomeMessage'),
      welcomeMessagePlaceholder: clip(newTeam.defaultWelcomeMessage ?? '', WELCOME_MESSAGE_MAX_LENGTH),
      welcomeMessageError: say(reader, 'form.welcomeMessageError', {
        max: numberFor(reader, WELCOME_MESSAGE_MAX_LENGTH),
      }),
      owners: say(reader, 'fact.owners'),
      members: say(reader, 'fact.members'),
      peoplePlaceholder: say(reader, 'form.peoplePlaceholder'),
      ownersError: sayCount(reader, 'form.ownersError', data.ownersNeeded),
      membersError: sayCount(reader, 'form.membersError', data.membersNeeded),
      privacy: say(reader, 'fact.privacy'),
      label: say(reader, 'fact.label'),
      approval: say(reader, 'fact.approval'),
      submit: say(reader, 'action.submitRequest'),
      checkName: say(reader, 'action.checkName'),
      otherTemplates: say(reader, 'action.otherTemplates'),
    },
  });
}
