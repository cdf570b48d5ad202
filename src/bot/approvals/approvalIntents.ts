import type { CatalogTemplate, StewardClient } from '../../client';
import { clip } from '../cards/cardText';
import { CardVerb } from '../cards/cardVerbs';
import { asCaller, type Failure, type Reply } from '../conversations/reply';
import { namesIn, type Reader, say, sayCount } from '../i18n/catalog';
import { approvalWords } from '../shared/approvalWords';
import { myTemplates } from '../shared/myTemplates';
import {
  type FeatureIntents,
  notOfferedWhy,
  offered,
  templateNamed,
  withWords,
} from '../understanding/answerParts';
import type { Understanding } from '../understanding/types';

/** A person an approval policy names: an object id, a UPN or a mail, and the name it keeps, if any. */
type PolicyPerson = CatalogTemplate['templateConfiguration']['approval']['approvalTeam'][number];

const OPEN_TEMPLATE: Failure = { subject: 'template', doing: 'openTemplate' };

/** The intents of approvals: who approves a template's requests. */
export const approvalIntents = {
  askApprovers: {
    readsTemplates: true,
    answer: ({ context, deps, understood, reader }) =>
      asCaller(context, deps, OPEN_TEMPLATE, (api) => approvers(api, understood, reader)),
  },
  askMyApprovals: {
    // "approve everything pending", "approve Alex's request": declined, and nothing is decided;
    // each request is decided on its own card.
    answer: ({ understood, reader, runVerb }) =>
      understood.decideAll
        ? { kind: 'text', text: say(reader, 'understood.decideAll') }
        : runVerb(CardVerb.myApprovals, {}),
  },
} satisfies FeatureIntents;

/**
 * `askApprovers`: who approves the template asked about, from its approval policy: no approval,
 * its approvers (any one of them decides), or its stages in order with who decides each.
 */
async function approvers(api: StewardClient, understood: Understanding, reader: Reader): Promise<Reply> {
  const mine = await myTemplates(api);
  const { fits, pointed } = offered(understood, mine);
  if (understood.notOffered)
    return {
      kind: 'text',
      text: `${notOfferedWhy(reader, understood.notOffered)} ${say(reader, 'understood.unavailable.approvers')}`,
    };
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
