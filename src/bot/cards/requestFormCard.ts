import type { CatalogTemplate } from '../../client';
import { renderCard, type AdaptiveCardAttachment } from './adaptiveCard';
import { cardPictureUrl } from './cardPicture';
import { clip, listOfNames } from './cardText';

/** Static people-picker choices kept on the card (hosts without `Data.Query` search show only these). */
export const MAX_STATIC_PEOPLE_CHOICES = 25;

/** One person in the people pickers: the display name shown, the user id submitted. */
export interface PersonChoice {
  title: string;
  value: string;
}

/** The answers a form shows; missing ones come from the template's `newTeam.default*`. */
export interface RequestFormValues {
  name?: string;
  description?: string;
  welcomeMessage?: string;
  /** User ids; each should also be among `people` so hosts without search can show it. */
  owners?: readonly string[];
  members?: readonly string[];
}

/** What the request form shows. */
export interface RequestFormCardData {
  /** The picked template (from `GET /me/catalog/templates`); it must have an id. */
  template: CatalogTemplate;
  /** The person's earlier answers when the form is shown again; omit for a fresh form. */
  values?: RequestFormValues;
  /** A sentence about the name the naming convention will produce, e.g. `Your team will be called "PRJ - Falcon".`; null for none. */
  finalNamePreview: string | null;
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
}

/** The request form for one template, prefilled from the template's defaults; Submit sends `submitRequest`. */
export function renderRequestFormCard(data: RequestFormCardData): AdaptiveCardAttachment {
  const config = data.template.templateConfiguration;
  const newTeam = data.template.newTeam;
  const values = data.values ?? {};
  const approvers = config.approval.approvalTeam.map((member) => member.name ?? member.id);
  return renderCard('requestFormCard.json', {
    template: {
      id: config.id ?? '',
      name: clip(config.name, 120),
      description: clip(config.description, 500),
      pictureUrl: cardPictureUrl(config.pictureUrl),
    },
    team: {
      name: values.name ?? newTeam.defaultName ?? '',
      description: values.description ?? newTeam.defaultDescription ?? '',
      welcomeMessage: values.welcomeMessage ?? newTeam.defaultWelcomeMessage ?? '',
      owners: (values.owners ?? []).join(','),
      members: (values.members ?? []).join(','),
    },
    finalNamePreview: clip(data.finalNamePreview?.trim() ?? '', 400),
    minimumOwners: config.minimumOwners,
    minimumMembers: config.minimumMembers,
    people: data.people
      .slice(0, MAX_STATIC_PEOPLE_CHOICES)
      .map((person) => ({ title: clip(person.title, 80), value: person.value })),
    privacy: newTeam.teamPrivacy === 'public' ? 'Public' : 'Private',
    sensitivityLabel: clip(data.sensitivityLabel ?? '', 80),
    approval:
      config.approval.requireApproval && approvers.length > 0
        ? `Needed: ${clip(listOfNames(approvers), 300)} will decide`
        : config.approval.requireApproval
          ? 'Needed'
          : 'Not needed',
    problems: data.problems.slice(0, 10).map((problem) => clip(problem, 300)),
    formId: data.formId ?? '',
  });
}
