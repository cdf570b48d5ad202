'use strict';
// What a person sees in the bot's answer to one message, read from the activities the Bot Connector
// received for that turn (texts and Adaptive Cards as rendered): the kind of answer, the template of
// a request form, the team name it shows, and the people in its pickers as directory ids. It reads
// the cards as a person would (their inputs, buttons and sentences), in English and French, never
// the bot's internals.

/**
 * The kinds of answer (the taxonomy of bench/blind/README.md):
 * - requestForm: a request form for one template (name, owners and members to fill in);
 * - chooseTemplate: asked to choose a template (the gallery, or the few templates that suit);
 * - notOffered: told that the template asked for is not available to them (with the gallery);
 * - approvers: who approves a template;
 * - status: one request's card (its progress, or its confirmation);
 * - notFound: a sentence that no request of theirs has the name they gave;
 * - myRequests: the list of their requests (all, or those still waiting);
 * - myApprovals: what waits for their decision;
 * - withdraw: a request's card asking to confirm its withdrawal, or the list of those they may withdraw;
 * - expiring: their teams that expire or are inactive soon;
 * - help: the help card, what Steward can do, a greeting or thanks answered, "did not understand";
 * - refusal: a plain sentence declining to do what was asked (e.g. approvals are decided on their cards);
 * - language: the language Steward speaks with them, changed or explained;
 * - error: an error card or sentence (busy, failure);
 * - other: an answer none of the above describes; none: no answer.
 */
const { seedTemplates } = require('../../dist/store/seed/templates');

const KINDS = [
  'requestForm',
  'chooseTemplate',
  'notOffered',
  'approvers',
  'status',
  'notFound',
  'myRequests',
  'myApprovals',
  'withdraw',
  'expiring',
  'help',
  'refusal',
  'language',
  'error',
  'other',
  'none',
];

/** Answers that treat a message as a request for a team or a question about templates. */
const REQUEST_LIKE = new Set(['requestForm', 'chooseTemplate', 'notOffered', 'approvers']);

/** Each demo template's id and catalog name, as cards show it. */
const TEMPLATE_NAMES = new Map(
  seedTemplates.map((t) => [t.templateConfiguration.id, t.templateConfiguration.name]),
);

/** The Adaptive Cards of an activity. */
function cardsOf(activity) {
  return (activity.attachments ?? [])
    .filter((a) => a.contentType === 'application/vnd.microsoft.card.adaptive' && a.content)
    .map((a) => a.content);
}

/** Every element of a card (body, columns, containers, actions, show-cards), depth first. */
function elementsOf(node, out = []) {
  if (Array.isArray(node)) {
    for (const item of node) elementsOf(item, out);
  } else if (node && typeof node === 'object') {
    if (typeof node.type === 'string') out.push(node);
    for (const key of ['body', 'items', 'columns', 'actions', 'card', 'inlineAction', 'facts']) {
      if (node[key]) elementsOf(node[key], out);
    }
  }
  return out;
}

/** The sentences a person reads on a card: texts, facts, labels, button titles. */
function textsOf(card) {
  const texts = [];
  for (const el of elementsOf(card)) {
    if (typeof el.text === 'string') texts.push(el.text);
    if (Array.isArray(el.inlines)) for (const inline of el.inlines) if (inline?.text) texts.push(inline.text);
    if (el.type === 'FactSet')
      for (const fact of el.facts ?? []) texts.push(`${fact.title ?? ''}: ${fact.value ?? ''}`);
    if (typeof el.label === 'string') texts.push(el.label);
    if (typeof el.title === 'string' && el.type?.startsWith('Action.')) texts.push(el.title);
  }
  return texts;
}

const verbsOf = (card) => elementsOf(card).filter((el) => el.type === 'Action.Execute' && el.verb);
const inputOf = (card, id) => elementsOf(card).find((el) => el.type?.startsWith('Input.') && el.id === id);
const idsIn = (value) =>
  String(value ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);

const MY_REQUESTS_TITLES = /^(my requests|my requests still waiting|mes demandes|mes demandes en attente)$/i;
const WITHDRAW_TITLES = /^(requests you can withdraw|demandes que vous pouvez retirer)$/i;
const APPROVALS_TITLES = /^(waiting for your decision|en attente de votre décision)$/i;
const NOT_OFFERED =
  /not (available|offered|open) to you|n.est pas (proposé|disponible|ouvert)|réservé|pas accès|not among (your|the) templates|ne fait pas partie/i;
const HELP_TITLES = /^(what I understand|ce que je comprends|I did not understand|je n.ai pas compris)/i;
// French says "approbation" as well as "approuver".
const APPROVERS = /approb|approu|approv|décid|decide|valid/i;
const EXPIRING = /expir|inactiv/i;

/** The team name a request's card (progress or confirmation) shows. */
function requestCardName(card) {
  const fallback = String(card.fallbackText ?? '');
  // French writes a narrow no-break space before "%" ("(100 %)").
  const progress = /^(.*): [^:]*\(\d+[ \u00a0\u202f]?%\)\.?$/s.exec(fallback);
  if (progress) return progress[1];
  const confirmation = /team (.+) was received\.$|l.équipe (.+) a bien été reçue|équipe (.+)\.$/i.exec(
    fallback,
  );
  if (confirmation) return confirmation[1] ?? confirmation[2] ?? confirmation[3];
  return null;
}

/**
 * The templates a sentence names by their catalog names, among those not offered to the person
 * (`offered`: their catalog's ids; when unknown, those not in `shown`).
 */
function namedNotOffered(sentences, offered, shown) {
  return [...TEMPLATE_NAMES]
    .filter(([id]) => !(offered ?? shown).has(id))
    .filter(([, name]) => sentences.some((t) => t.includes(name)))
    .map(([id]) => id);
}

/**
 * What one card is, with what it shows. `context`: the turn's plain sentences (`said`) and the
 * ids of the templates offered to the person (`offered`), when known.
 */
function cardKind(card, context) {
  const verbs = verbsOf(card);
  const has = (verb) => verbs.some((v) => v.verb === verb);
  const texts = textsOf(card);
  const title = texts[0] ?? '';
  const name = inputOf(card, 'name');
  if (has('submitRequest') && name) {
    const submit = verbs.find((v) => v.verb === 'submitRequest');
    const people = [
      ...idsIn(inputOf(card, 'owners')?.value).map((id) => ({ id, role: 'owner' })),
      ...idsIn(inputOf(card, 'members')?.value).map((id) => ({ id, role: 'member' })),
    ];
    return {
      kind: 'requestForm',
      template: submit.data?.templateId ?? null,
      teamName: String(name.value ?? '').trim() || null,
      people,
    };
  }
  if (has('approve') || has('reject')) return { kind: 'myApprovals' };
  if (APPROVALS_TITLES.test(title.trim())) return { kind: 'myApprovals' };
  // The error card offers My requests and Help only; the help, welcome and capabilities cards
  // offer Request a team too.
  if (has('help') && has('myRequests') && !has('requestTeam')) return { kind: 'error' };
  if (HELP_TITLES.test(title.trim()) || has('help') || has('myApprovals')) return { kind: 'help' };
  if (has('renewTeam') || has('keepTeam') || has('archiveTeamNow')) return { kind: 'expiring' };
  if (has('pickTemplate') || (has('showTemplates') && !has('submitRequest'))) {
    const picks = verbs.filter((v) => v.verb === 'pickTemplate').map((v) => v.data?.templateId ?? null);
    const gallery = has('showTemplates');
    // The sentence above the templates: it names a template the list does not hold when that one is
    // not offered to the person.
    const sentences = [...texts.slice(0, 3), ...context.said];
    const named = namedNotOffered(sentences, context.offered, new Set(picks));
    if (NOT_OFFERED.test(sentences.join('\n')) || named.length > 0)
      return { kind: 'notOffered', template: named[0] ?? null, templates: picks };
    return {
      kind: 'chooseTemplate',
      template: gallery && picks.length > 3 ? null : picks[0],
      templates: picks,
    };
  }
  if (WITHDRAW_TITLES.test(title.trim())) return { kind: 'withdraw' };
  if (verbs.some((v) => v.verb === 'withdrawRequest' && v.data?.confirmed === true))
    return { kind: 'withdraw', teamName: requestCardName(card) };
  if (MY_REQUESTS_TITLES.test(title.trim())) return { kind: 'myRequests' };
  const teamName = requestCardName(card);
  if (teamName !== null) return { kind: 'status', teamName };
  if (has('requestTeam') && has('myRequests')) return { kind: 'help' };
  return { kind: 'other', title };
}

/** The name a "no request of yours for a team called …" sentence repeats. */
const NOT_FOUND =
  /I found no request of yours for a team called "(.*)"\.|Je ne trouve aucune de vos demandes pour une équipe nommée « (.*) »/s;

/** The kind a text-only answer is, from its words (in English or French). */
function textKind(text, offered) {
  if (/steward is busy|steward est occupé|something went wrong|un problème|could not reach/i.test(text))
    return 'error';
  if (NOT_FOUND.test(text)) return 'notFound';
  const negative = /\bnot\b|n[’']|\bpas\b|\baucun/i.test(text);
  if (NOT_OFFERED.test(text) || (negative && offered && namedNotOffered([text], offered, null).length > 0))
    return 'notOffered';
  if (/which template do you mean|quel modèle voulez-vous dire|de quel modèle/i.test(text))
    return 'chooseTemplate';
  if (/press Approve or Reject|Approuver ou Refuser/i.test(text)) return 'refusal';
  if (/language|langue|English|français/i.test(text) && /speak|parle/i.test(text)) return 'language';
  if (EXPIRING.test(text)) return 'expiring';
  if (APPROVERS.test(text) && [...TEMPLATE_NAMES.values()].some((name) => text.includes(name)))
    return 'approvers';
  if (/welcome|plaisir|hello|\bhi\b|bonjour|salut|help|aide|new team|nouvelle équipe/i.test(text))
    return 'help';
  return 'other';
}

/**
 * What the person sees in a turn's activities: { kind, template, teamName, people, text }. The
 * first form, else the most telling card, decides; a text alone is read for its words.
 */
function classify(activities, offered = null) {
  const messages = activities.filter((a) => a.type === 'message');
  const text = messages
    .flatMap((a) => [a.text ?? '', ...cardsOf(a).flatMap((c) => textsOf(c))])
    .filter(Boolean)
    .join('\n');
  const seen = { kind: 'none', template: null, teamName: null, people: [], text };
  if (messages.length === 0) return seen;
  const said = messages.map((a) => a.text ?? '').filter(Boolean);
  const cards = messages.flatMap(cardsOf).map((card) => cardKind(card, { said, offered }));
  const order = [
    'requestForm',
    'withdraw',
    'status',
    'notOffered',
    'chooseTemplate',
    'myApprovals',
    'myRequests',
    'expiring',
    'error',
    'help',
    'other',
  ];
  cards.sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
  const best = cards[0];
  if (best && best.kind !== 'other') {
    return {
      ...seen,
      ...best,
      template: best.template ?? null,
      teamName: best.teamName ?? null,
      people: best.people ?? [],
    };
  }
  const sentence = said.join('\n');
  const kind = sentence ? textKind(sentence, offered) : 'other';
  if (kind === 'notFound') {
    const match = NOT_FOUND.exec(sentence);
    return { ...seen, kind, teamName: match[1] ?? match[2] ?? null };
  }
  return { ...seen, kind };
}

module.exports = { classify, KINDS, REQUEST_LIKE };
