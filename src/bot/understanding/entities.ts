import type { PersonMention } from './types';
import { conceptOf, isConcept } from './templates';
import { fold, isCapitalised, withoutElision, type Word } from './text';

/**
 * The parts of a request read from its words: the team's name, its purpose, the people named and
 * their role, and the request a status question is about. Rules over the words (see
 * docs/guides/bot.md for the conventions), never a pattern written by someone else.
 */

/** Words that are never part of a name or a person: function words, politeness, verbs of the domain. */
const NOT_A_NAME = new Set(
  (
    'a an the of to for with and or in on at by from is are be will would could can should shall please pls plz ' +
    "i i'd i'm i'll me my we our us you your it its it's this that these those who what which when where how " +
    'do does need want like hi hello hey thanks thank team teams new also too as so but just then there here ' +
    'le la les un une des du de et ou en au aux pour avec par sur dans est sont sera seront je moi mon ma mes ' +
    'nous notre nos vous votre vos il elle ils elles on ce cet cette ces qui que quoi merci stp svp bonjour ' +
    'salut equipe equipes nouvelle nouvel nouveau aussi comme tant mais puis steward bot teams microsoft ok okay ' +
    'yes no oui non thx cheers create make set up add ajoute ajouter cree creer faire fais monday tuesday ' +
    'wednesday thursday friday lundi mardi mercredi jeudi vendredi asap urgent urgently today tomorrow demain ' +
    "aujourd'hui please, hey, it, them, lui leur leurs all tous toutes everyone everybody people gens " +
    'request requests demande demandes status statut team, manager chef boss collegue collegues colleague colleagues ' +
    'some more other others few several quelques plusieurs autres ty tia tks thnx ta dear cher chere chers name nom ' +
    'chez vers via avant apres pendant depuis entre sans sous contre selon during before after until into ' +
    "within without across per many they their them we'll we're we've you'll you're they're i've here ca va " +
    'created cree creee'
  ).split(/\s+/),
);

/** Months, in a request a time and not a person nor a team ("for January", "en septembre"). */
const MONTHS =
  /^(?:january|february|march|april|june|july|august|september|october|november|december|janvier|fevrier|avril|juin|juillet|aout|septembre|octobre|novembre|decembre)$/;

/** Days, in a name only after its first word ("Black Friday"). */
const WEEKDAYS = /^(?:monday|tuesday|wednesday|thursday|friday|lundi|mardi|mercredi|jeudi|vendredi)$/;

/** Words after which a list of people follows. */
const PEOPLE_CUES = new Set(
  (
    'with avec add adding ajoute ajouter ajoutez ajoutes include including incluant inclure invite inviter ' +
    'plus owners owner members member membres membre proprietaire proprietaires coproprietaire coproprietaires ' +
    'co-owner co-owners coowner coowners co-proprietaire co-proprietaires w'
  ).split(' '),
);

/** Words before a list of people only after a verb of running ("co-owned by", "géré par"). */
const BY = new Set(['by', 'par']);
const RUN_VERBS =
  /^(?:co-?owned|owned|run|led|managed|gere|geree|pilote|pilotee|menee|mene|dirige|dirigee|animee|anime)$/;

const OWNER_CUES =
  /^(?:co-?owns?|co-?owning|own|owns|owning|co-?owners?|owners?|co-?proprietaires?|proprietaires?|proprios?|run|runs|running|lead|leads|leading|led|manage|manages|managing|gere|gerera|geront|gerer|pilote|pilotera|piloter|responsables?|admins?|administrat\w*|charge|chargee)$/;
const MEMBER_CUES = /^(?:members?|membres?|participants?)$/;

/** Fillers that may stand between a role cue and a list of people ("owners are", "as owner"). */
const ROLE_FILLERS = new Set(
  'as comme are is will be sont seront sera est the les en tant que : by par the co ses son sa its'.split(
    ' ',
  ),
);

const LIST_JOINERS = new Set(['and', 'et', '&', '+', 'plus']);

/** Words that name a kind of team: a proper noun beside one is the team's name ("the Contoso deal"). */
const KIND_NOUNS_AFTER = new Set(
  (
    'deal project campaign matter case account launch squad cohort community programme program initiative ' +
    'engagement workstream stream event rollout migration pitch bid tender rfp product release pilot study ' +
    'taskforce hackathon workshop conference dispute litigation'
  ).split(' '),
);
const KIND_NOUNS_BEFORE = new Set(
  (
    'projet campagne dossier affaire client mission cohorte communaute programme lancement project campaign ' +
    'operation initiative prospect compte chantier evenement produit etude appel offre codename migration ' +
    'deploiement refonte litige escouade'
  ).split(' '),
);
/** Words for the team itself: a proper noun just before one names it ("the Mercury team"). */
const TEAM_NOUNS = /^(?:team|space|workspace|channel)$/;
/** Words before a partner company's name, with the words that may stand between ("our partner, the company Litware"). */
const PARTNER_NOUNS =
  /^(?:partner|partners|partnership|partenaire|partenaires|partenariat|company|firm|societe)$/;
const PARTNER_FILLERS = /^(?:with|avec|external|externe|the|la|le|l|our|notre|company|firm|societe)$/;
/** Kinds of team for welcoming a new joiner: "a buddy team for Ana" names her, not the team. */
const WELCOME_CONCEPTS = new Set(['buddy', 'onboarding']);

const NAMING_CUES = new Set([
  'called',
  'named',
  'titled',
  'entitled',
  'dubbed',
  'codenamed',
  'code-named',
  'labelled',
  'labeled',
  'appellera',
  'appellerait',
  'appellerons',
  'nommera',
  'intitulera',
  'baptisee',
  'baptise',
  'nommee',
  'nomme',
  'appelee',
  'appele',
  'intitulee',
  'intitule',
  'name',
  'nom',
]);
/** Verbs that give a name to what follows them, maybe after "it"/"the team" ("name it Odyssey", "appelle-la Colibri"). */
const NAMING_VERBS =
  /^(?:call|name|rename|appelle|appelle-la|appelle-le|appeler|appelons|nomme-la|nommer|nommons|baptise|baptise-la|baptiser)$/;
const NAME_FILLERS = /^(?:is|to|be|will|shall|should|would|could|sera|serait|est|doit|etre|must)$/;
const NAMED_OBJECTS = /^(?:it|the|this|one|team|la|le|equipe|l'equipe|cette)$/;
const PURPOSE_CUES = new Set(['for', 'pour']);
const DETERMINERS = new Set(
  'the a an our my this that le la les l un une notre mon ma nos mes ce cette du de des d the'.split(' '),
);

const WAITING_CUES =
  /^(?:waiting|wait|pending|outstanding|attente|attend|attendent|attendant|bloquee?s?|stuck|still|encore|yet|open|ouvertes?)$/;
const REQUEST_NOUNS = new Set([
  'request',
  'requests',
  'demande',
  'demandes',
  'req',
  'ticket',
  'team',
  'equipe',
]);

export interface Reading {
  list: readonly Word[];
  text: string;
  /** The message is written in capitals: a capital says nothing of a name. */
  shouting: boolean;
}

export function reading(text: string, list: readonly Word[]): Reading {
  let upper = 0;
  let letters = 0;
  for (const word of list) {
    for (const ch of word.raw) {
      if (ch.toLowerCase() === ch.toUpperCase()) continue;
      letters += 1;
      if (ch === ch.toUpperCase()) upper += 1;
    }
  }
  return { list, text, shouting: letters >= 8 && upper / letters > 0.6 };
}

function gap(reading: Reading, i: number): string {
  const { list, text } = reading;
  const word = list[i];
  if (!word) return '';
  const before = list[i - 1];
  return text.slice(before ? before.end : 0, word.start);
}

/** Whether punctuation stands between word i-1 and word i (a comma included). */
function pauseBefore(reading: Reading, i: number): boolean {
  return i === 0 || /[,;.!?:()\n"“”«»]/.test(gap(reading, i));
}

/** Whether a sentence starts at word i. */
function sentenceStart(reading: Reading, i: number): boolean {
  return i === 0 || /[.!?\n]/.test(gap(reading, i));
}

function base(word: Word | undefined): string {
  return word ? withoutElision(word.folded) : '';
}

/**
 * Whether a word is a code a name may hold: letters and digits, maybe joined by hyphens or dots,
 * with a digit ("Q3", "PRJ-0042", "2.0", "T3", "2027").
 */
function isCode(word: Word | undefined): boolean {
  return (
    word !== undefined &&
    word.raw.length <= 24 &&
    /\d/.test(word.raw) &&
    /^[\p{L}\p{N}]+(?:[-_.][\p{L}\p{N}]+)*$/u.test(word.raw) &&
    !/^\d{1,2}(?:h|am|pm|th|st|nd|rd|e|er|eme)?$/i.test(word.raw)
  );
}

/** Whether word i may start or stand in a team's name: a proper noun or a code. */
function teamWord(reading: Reading, i: number): boolean {
  const word = reading.list[i];
  if (!word || word.mail) return false;
  if (isCode(word)) return true;
  if (MONTHS.test(word.folded)) return false;
  return (
    !reading.shouting && isCapitalised(word.raw) && nameLike(reading, i, false) && !/'s$/.test(word.folded)
  );
}

/** Whether only a colon stands between word i-1 and word i ("team: Hyperion", "nom : Hélios"). */
function colonBefore(reading: Reading, i: number): boolean {
  return i > 0 && /^\s*:\s*$/.test(gap(reading, i));
}

/** Whether word i may be part of a name: a capitalised word that is not a function word, or any such word in a list. */
function nameLike(reading: Reading, i: number, inList: boolean): boolean {
  const word = reading.list[i];
  if (!word) return false;
  if (word.mail) return true;
  const folded = word.folded;
  if (
    NOT_A_NAME.has(folded) ||
    NOT_A_NAME.has(withoutElision(folded)) ||
    PEOPLE_CUES.has(folded) ||
    /\d/.test(folded) ||
    folded.length < 2
  )
    return false;
  if (OWNER_CUES.test(folded) || MEMBER_CUES.test(folded) || isConcept(withoutElision(folded))) return false;
  if (!/^[\p{L}'’.-]+$/u.test(word.raw)) return false;
  if (!reading.shouting && isCapitalised(word.raw)) return true;
  return inList;
}

export interface Span {
  from: number;
  to: number;
}

/** The team's name: quoted, after "called"/"nommée", or a proper noun beside a kind of team. */
export function teamNameSpan(reading: Reading, taken: ReadonlySet<number>): Span | null {
  const { list } = reading;
  const quoted = quotedSpan(reading);
  if (quoted) return quoted;
  for (let i = 0; i < list.length; i += 1) {
    const folded = base(list[i]);
    let start = -1;
    if (NAMING_VERBS.test(folded) || NAMING_VERBS.test(list[i]!.folded)) {
      // "name it Odyssey", "call the team Falcon", "appelle-la Colibri"
      start = i + 1;
      while (
        start < list.length &&
        start - i <= 3 &&
        (NAMED_OBJECTS.test(list[start]!.folded) || NAME_FILLERS.test(list[start]!.folded))
      )
        start += 1;
    } else if (NAMING_CUES.has(folded)) {
      start = i + 1;
      // "the team name to be Phoenix", "le nom sera Phénix"
      if (folded === 'name' || folded === 'nom')
        while (start < list.length && start - i <= 3 && NAME_FILLERS.test(list[start]!.folded)) start += 1;
    } else if (folded === "s'appelle" || folded === 'appelle') start = i + 1;
    else if (folded === 'nom' && base(list[i + 1]) === 'de') start = i + 2;
    if (start < 0 || start >= list.length) continue;
    const span = wholeName(reading, start, taken) ?? nameFrom(reading, start, taken, true);
    if (span) return span;
  }
  for (let i = 0; i < list.length; i += 1) {
    if (taken.has(i)) continue;
    const folded = base(list[i]);
    // "un nouveau client, Woodgrove Bank, …": a proper noun set off by commas after a kind of team.
    if (
      KIND_NOUNS_BEFORE.has(folded) &&
      /^\s*,\s*$/.test(gap(reading, i + 1)) &&
      teamWord(reading, i + 1) &&
      !taken.has(i + 1)
    ) {
      const span = nameFrom(reading, i + 1, taken, false);
      if (span && /^\s*,/.test(gap(reading, span.to + 1))) return span;
    }
    // "our partner Litware", "partnership with Wingtip Toys", "partenariat avec la société GDI"
    if (PARTNER_NOUNS.test(folded)) {
      let k = i + 1;
      while (k < list.length && k - i <= 3 && PARTNER_FILLERS.test(base(list[k])) && !pauseBefore(reading, k))
        k += 1;
      if (k < list.length && !pauseBefore(reading, k) && teamWord(reading, k) && !taken.has(k)) {
        const span = nameFrom(reading, k, taken, false);
        if (span) return span;
      }
    }
    // "projet Atlas", "campagne printemps", "project: Orion"
    if (
      KIND_NOUNS_BEFORE.has(folded) &&
      list[i + 1] &&
      (!pauseBefore(reading, i + 1) || colonBefore(reading, i + 1))
    ) {
      const span = nameFrom(reading, i + 1, taken, false);
      if (span && (!reading.shouting || precededByPurpose(reading, i)))
        return lowercaseTail(reading, span, taken);
    }
    // "the Contoso deal", "Atlas project", "the Q3 Launch campaign"
    if (KIND_NOUNS_AFTER.has(folded) && i > 0 && !pauseBefore(reading, i)) {
      // "the Zeta migration project", "our Summer Launch squad": the first kind noun is in the name.
      const kindAfter =
        list[i + 1] && !pauseBefore(reading, i + 1) && KIND_NOUNS_AFTER.has(base(list[i + 1]));
      if (kindAfter && (teamWord(reading, i - 1) || isCode(list[i - 1]))) {
        const span = nameBefore(reading, i - 1, taken);
        if (span && !taken.has(i)) return { from: span.from, to: i };
      }
      const from = i - 1;
      if (!nameLike(reading, from, false) && !isCode(list[from])) {
        // "for the blue sky project": up to two plain words after "for" and its determiners.
        let first = from;
        if (first > 0 && isPlainWord(reading, first - 1) && !pauseBefore(reading, first)) first -= 1;
        if (!isPlainWord(reading, from) || !precededByPurpose(reading, first)) continue;
        if (taken.has(first) || taken.has(from)) continue;
        return { from: first, to: from };
      }
      const span = nameBefore(reading, from, taken);
      if (span) return span;
    }
    // "the Mercury team", "a Northwind client team": a proper noun, maybe a kind of team between.
    if (TEAM_NOUNS.test(folded) && i > 0 && !pauseBefore(reading, i)) {
      let from = i - 1;
      while (from > 0 && i - from <= 2 && isConcept(base(list[from])) && !pauseBefore(reading, from + 1))
        from -= 1;
      if (!teamWord(reading, from) || sentenceStart(reading, from) || pauseBefore(reading, from + 1))
        continue;
      const span = nameBefore(reading, from, taken);
      if (span) return span;
    }
  }
  // A proper noun right after "team" ("a project team Quasar", "new team: Hyperion").
  for (let i = 0; i + 1 < list.length; i += 1) {
    if (!/^(?:team|equipe|space|espace|request|demande)$/.test(base(list[i])) || taken.has(i + 1)) continue;
    if (pauseBefore(reading, i + 1) && !colonBefore(reading, i + 1)) continue;
    // "request: Aurora" only after "team": a request names its team after a colon.
    if (/^(?:request|demande)$/.test(base(list[i])) && !/^(?:team|equipe)$/.test(base(list[i - 1]))) continue;
    // "project team atlas": a plain word too, when a kind of team comes before "team".
    const afterKind =
      i > 0 && isConcept(base(list[i - 1])) && !pauseBefore(reading, i) && !pauseBefore(reading, i + 1);
    if (teamWord(reading, i + 1) || (afterKind && isPlainWord(reading, i + 1))) {
      const span = nameFrom(reading, i + 1, taken, false);
      if (span) return span;
    }
  }
  // A proper noun after "for"/"pour" ("a team for Mercury with Adele").
  for (let i = 0; i < list.length; i += 1) {
    if (!PURPOSE_CUES.has(base(list[i]))) continue;
    if (welcomesBefore(reading, i)) continue;
    let k = i + 1;
    while (DETERMINERS.has(base(list[k])) && k < list.length) k += 1;
    // "the Marketing Summit 2027": a capitalised kind of team opens a name when a proper noun follows.
    const opens =
      k + 1 < list.length &&
      !reading.shouting &&
      isCapitalised(list[k]!.raw) &&
      isConcept(base(list[k])) &&
      !pauseBefore(reading, k + 1) &&
      teamWord(reading, k + 1);
    if (k < list.length && (teamWord(reading, k) || opens)) {
      const span = nameFrom(reading, k, taken, false);
      if (span) return span;
    }
  }
  // A proper noun opening the message before a colon ("Mercury: new project team please").
  let to = -1;
  while (
    to + 1 < list.length &&
    to < 2 &&
    teamWord(reading, to + 1) &&
    (to < 0 || !pauseBefore(reading, to + 1))
  )
    to += 1;
  if (to >= 0 && colonBefore(reading, to + 1) && !taken.has(0)) return { from: 0, to };
  return null;
}

/** Whether a kind of team for welcoming a new joiner stands just before word i ("an onboarding buddy team for"). */
function welcomesBefore(reading: Reading, i: number): boolean {
  for (let k = i - 1; k >= Math.max(0, i - 3); k -= 1) {
    const concept = conceptOf(base(reading.list[k]));
    if (concept && WELCOME_CONCEPTS.has(concept)) return true;
    if (!/^(?:team|equipe|teams|equipes|space|espace)$/.test(base(reading.list[k])) && !concept) return false;
  }
  return false;
}

/**
 * After a naming word, the whole rest of the sentence when it is a short name: capitalised words
 * and codes, joined by small words ("Café du lundi") or "&" ("IA & Nous"). Null when anything else
 * follows (a list of people, "please"): the usual rules then read the name.
 */
function wholeName(reading: Reading, start: number, taken: ReadonlySet<number>): Span | null {
  const { list } = reading;
  const first = list[start];
  if (!first || taken.has(start) || reading.shouting || !(isCapitalised(first.raw) || isCode(first)))
    return null;
  let to = start;
  while (to + 1 < list.length && !pauseBefore(reading, to + 1) && to - start < 4) {
    const next = list[to + 1]!;
    if (taken.has(to + 1) || next.mail) return null;
    if (/&/.test(gap(reading, to + 1)) && isCapitalised(next.raw)) to += 1;
    else if (isCapitalised(next.raw) || isCode(next) || /^\d+$/.test(next.raw)) {
      if (PEOPLE_CUES.has(next.folded) || NOT_A_NAME.has(next.folded)) return null;
      to += 1;
    } else if (
      /^(?:du|de|des|d'|of|the|la|le|les)$/.test(next.folded) &&
      list[to + 2] &&
      !pauseBefore(reading, to + 2) &&
      !PEOPLE_CUES.has(list[to + 2]!.folded)
    )
      to += 2;
    else return null;
  }
  const end = to + 1 >= list.length || /[,;.!?:()\n]/.test(gap(reading, to + 1));
  return end && to > start ? { from: start, to } : null;
}

/**
 * A name of one plain word after a kind of team, with the plain word after it when the name ends
 * there ("le client contoso pharma avec Lucas"), but not a verb or an adverb ("orion starting").
 */
function lowercaseTail(reading: Reading, span: Span, taken: ReadonlySet<number>): Span {
  const { list } = reading;
  const next = span.to + 1;
  if (span.to !== span.from || isCapitalised(list[span.from]!.raw) || isCode(list[span.from])) return span;
  if (!list[next] || taken.has(next) || pauseBefore(reading, next) || !isPlainWord(reading, next))
    return span;
  if (isCapitalised(list[next]!.raw) || /(?:ing|ed|ly|ment|ait|ra)$/.test(list[next]!.folded)) return span;
  const after = list[next + 1];
  const ends =
    !after ||
    pauseBefore(reading, next + 1) ||
    NOT_A_NAME.has(base(after)) ||
    PEOPLE_CUES.has(base(after)) ||
    LIST_JOINERS.has(base(after));
  return ends ? { from: span.from, to: next } : span;
}

/** A name ending at word `to`: it and the proper nouns or codes written just before it, on the same sentence. */
function nameBefore(reading: Reading, to: number, taken: ReadonlySet<number>): Span | null {
  const { list } = reading;
  let from = to;
  while (
    from - 1 >= 0 &&
    to - from < 3 &&
    (isCode(list[from - 1]) ||
      (!reading.shouting && isCapitalised(list[from - 1]!.raw) && !NOT_A_NAME.has(base(list[from - 1])))) &&
    !sentenceStart(reading, from - 1) &&
    !pauseBefore(reading, from)
  )
    from -= 1;
  if (taken.has(from) || taken.has(to)) return null;
  return { from, to };
}

/** A word that is not a function word nor a kind of team ("contoso" in "for the contoso deal"). */
function isPlainWord(reading: Reading, i: number): boolean {
  const folded = base(reading.list[i]);
  return (
    folded.length > 1 &&
    !NOT_A_NAME.has(folded) &&
    !DETERMINERS.has(folded) &&
    !KIND_NOUNS_AFTER.has(folded) &&
    !KIND_NOUNS_BEFORE.has(folded) &&
    !isConcept(folded) &&
    !WAITING_CUES.test(folded) &&
    !/^(?:all|last|latest|recent|other|current|toutes|derniere|dernieres|autres)$/.test(folded) &&
    /^\p{L}[\p{L}'-]*$/u.test(reading.list[i]!.raw) &&
    !/^(?:legal|juridique|marketing|onboarding|client|interne|internal|new|nouveau|nouvelle|small|petit|petite|big|grand|grande|next|prochain|prochaine|spring|summer)$/.test(
      folded,
    )
  );
}

/** Whether "for"/"pour" (and determiners) come just before word i. */
function precededByPurpose(reading: Reading, i: number): boolean {
  let k = i - 1;
  while (k >= 0 && DETERMINERS.has(base(reading.list[k]))) k -= 1;
  return k >= 0 && PURPOSE_CUES.has(base(reading.list[k]));
}

/** A name starting at word start: capitalised words (or, when `loose`, any words) up to a stop, at most 4. */
function nameFrom(reading: Reading, start: number, taken: ReadonlySet<number>, loose: boolean): Span | null {
  const { list } = reading;
  let k = start;
  while (k < list.length && DETERMINERS.has(base(list[k])) && k - start < 1 && loose) k += 1;
  const first = list[k];
  if (!first || taken.has(k)) return null;
  const capitalised = (!reading.shouting && isCapitalised(first.raw)) || isCode(first);
  if (!capitalised && !loose && !isPlainWord(reading, k)) return null;
  let to = k;
  const fits = (j: number): boolean => {
    const word = list[j];
    if (!word || taken.has(j) || pauseBefore(reading, j) || j - k >= 4) return false;
    if (/^\d+$/.test(word.raw) || isCode(word)) return true;
    // In capitals, the plain words that follow up to a pause ("LE LITIGE TREY RESEARCH").
    if (reading.shouting && !loose) return isPlainWord(reading, j) && !PEOPLE_CUES.has(word.folded);
    if (capitalised)
      return isCapitalised(word.raw) && (!NOT_A_NAME.has(word.folded) || WEEKDAYS.test(word.folded));
    return (
      loose &&
      isPlainWord(reading, j) &&
      !PEOPLE_CUES.has(word.folded) &&
      !OWNER_CUES.test(word.folded) &&
      !RUN_VERBS.test(word.folded)
    );
  };
  if (!capitalised && (NOT_A_NAME.has(first.folded) || PEOPLE_CUES.has(first.folded))) return null;
  while (fits(to + 1)) to += 1;
  return { from: k, to };
}

/** A span of words between quotes ("Mercury", 'Mercury', “Mercury”, « Mercury »). */
function quotedSpan(reading: Reading): Span | null {
  const match = /["“«]\s*([^"“”«»\n]{1,60}?)\s*["”»]|(?:^|\s)'([^'\n]{1,60})'(?=$|[\s,.;:!?])/.exec(
    reading.text,
  );
  if (!match) return null;
  const inner = match[1] ?? match[2] ?? '';
  const at = reading.text.indexOf(inner, match.index);
  const end = at + inner.length;
  const inside = reading.list
    .map((word, i) => ({ word, i }))
    .filter(({ word }) => word.start >= at && word.end <= end);
  if (inside.length === 0) return null;
  return { from: inside[0]!.i, to: inside[inside.length - 1]!.i };
}

export function spanText(reading: Reading, span: Span): string {
  const from = reading.list[span.from]!;
  const to = reading.list[span.to]!;
  return reading.text.slice(from.start, to.end);
}

/** The purpose: the words after "for"/"pour" up to the first pause or list of people, as written. */
export function purpose(reading: Reading): string | null {
  const { list } = reading;
  for (let i = 0; i < list.length; i += 1) {
    if (!PURPOSE_CUES.has(base(list[i]))) continue;
    let to = i + 1;
    while (
      to + 1 < list.length &&
      !pauseBefore(reading, to + 1) &&
      !PEOPLE_CUES.has(base(list[to + 1])) &&
      !LIST_JOINERS.has(base(list[to + 1])) &&
      to - i < 10
    )
      to += 1;
    if (to >= list.length) continue;
    const text = spanText(reading, { from: i + 1, to });
    if (text.length >= 3) return text;
  }
  return null;
}

/** The people named, in order, each with the role the words around them give. */
export function peopleMentions(
  reading: Reading,
  taken: ReadonlySet<number>,
  notPeople: ReadonlySet<string> = new Set(),
): { mentions: PersonMention[]; used: Set<number> } {
  const { list } = reading;
  const mentions: PersonMention[] = [];
  const used = new Set<number>();
  // The words of the catalog's template names ("Contoso", "France") are never a person.
  const skip = new Set(taken);
  list.forEach((word, k) => {
    if (notPeople.has(word.folded)) skip.add(k);
  });
  taken = skip;
  let i = 0;
  while (i < list.length) {
    const cue = base(list[i]);
    // "Nomvula as owner, Joao…": a role word a comma follows gives the name before it its role.
    const closesRole =
      (OWNER_CUES.test(cue) || MEMBER_CUES.test(cue)) && /^\s*[,;]/.test(gap(reading, i + 1));
    const cueLists =
      (PEOPLE_CUES.has(cue) && !closesRole) || (BY.has(cue) && RUN_VERBS.test(base(list[i - 1])));
    const startsList = cueLists && !taken.has(i + 1);
    const standalone = !cueLists && !taken.has(i) && nameLike(reading, i, false) && isFreeName(reading, i);
    if (!startsList && !standalone) {
      i += 1;
      continue;
    }
    let k = startsList ? i + 1 : i;
    while (
      startsList &&
      k < list.length &&
      ROLE_FILLERS.has(base(list[k])) &&
      !PEOPLE_CUES.has(base(list[k]))
    )
      k += 1;
    const group: Span[] = [];
    for (;;) {
      const name = personAt(reading, k, taken, startsList);
      if (!name) break;
      group.push(name);
      k = name.to + 1;
      // List joiners: a comma, "and", "et", "&".
      const next = base(list[k]);
      if (LIST_JOINERS.has(next) && personAt(reading, k + 1, taken, startsList)) {
        k += 1;
        continue;
      }
      // "megan + patti", "Adele & Lynne"
      if (/^\s*[+&]\s*$/.test(gap(reading, k)) && personAt(reading, k, taken, startsList)) continue;
      if (
        /,/.test(gap(reading, k)) &&
        personAt(reading, k, taken, startsList) &&
        !/[;.!?]/.test(gap(reading, k))
      )
        continue;
      break;
    }
    if (group.length === 0) {
      i += 1;
      continue;
    }
    const { role, lastOnly } = roleOf(reading, i, startsList, group);
    group.forEach((span, at) => {
      const text = spanText(reading, span).replace(/[.'’]+$/, '');
      const own = lastOnly && at < group.length - 1 ? 'member' : role;
      // A person named twice is one person, an owner if either mention says so.
      const before = mentions.find((mention) => fold(mention.text) === fold(text));
      if (before) {
        if (own === 'owner') before.role = 'owner';
      } else mentions.push({ text, role: own });
      for (let j = span.from; j <= span.to; j += 1) used.add(j);
    });
    i = group[group.length - 1]!.to + 1;
  }
  return { mentions, used };
}

/** A capitalised word outside a list is a person unless a sentence starts with it and no role follows. */
function isFreeName(reading: Reading, i: number): boolean {
  // "in Belgium", "à Lyon", "from Paris": a place.
  if (
    i > 0 &&
    !pauseBefore(reading, i) &&
    /^(?:in|at|from|a|en|au|aux|de|depuis|vers|chez|across|throughout|around|partout)$/.test(
      reading.list[i - 1]!.folded,
    )
  )
    return false;
  if (MONTHS.test(reading.list[i]!.folded)) return false;
  // "Marcus here": the one writing, not a person for the team.
  if (reading.list[i + 1]?.folded === 'here' && (i + 2 >= reading.list.length || pauseBefore(reading, i + 2)))
    return false;
  if (!sentenceStart(reading, i)) return true;
  // "Lynne and Adele must be in it": a list of names opening a sentence.
  if (LIST_JOINERS.has(base(reading.list[i + 1])) && nameLike(reading, i + 2, false)) return true;
  // "Megan will co-own it": a role follows within a few words.
  for (let k = i + 1; k < Math.min(reading.list.length, i + 7); k += 1) {
    const folded = base(reading.list[k]);
    if (OWNER_CUES.test(folded) || MEMBER_CUES.test(folded)) return true;
  }
  return false;
}

/** One person's name at word k: a mail, or up to four name-like words with no pause inside. */
function personAt(reading: Reading, k: number, taken: ReadonlySet<number>, inList: boolean): Span | null {
  const { list } = reading;
  const word = list[k];
  if (!word || taken.has(k)) return null;
  if (word.mail) return { from: k, to: k };
  if (!nameLike(reading, k, inList)) return null;
  const capitalised = !reading.shouting && isCapitalised(word.raw);
  let to = k;
  while (to + 1 < list.length && to - k < 3 && !pauseBefore(reading, to + 1) && !taken.has(to + 1)) {
    const next = list[to + 1]!;
    if (next.mail || LIST_JOINERS.has(next.folded) || /[+&]/.test(gap(reading, to + 1))) break;
    const particle = /^(?:de|da|del|van|von|der|el|al|le|dos|du|di)$/.test(next.folded);
    if (capitalised) {
      if (isCapitalised(next.raw) && nameLike(reading, to + 1, false)) to += 1;
      else if (particle && list[to + 2] && isCapitalised(list[to + 2]!.raw) && !pauseBefore(reading, to + 2))
        to += 2;
      else break;
    } else if (inList && to - k < 1 && nameLike(reading, to + 1, true)) {
      to += 1;
    } else break;
  }
  return { from: k, to };
}

/** Owner when a role of running the team stands just before the list or just after it; member otherwise. */
function roleOf(
  reading: Reading,
  cueIndex: number,
  startsList: boolean,
  group: readonly Span[],
): { role: 'owner' | 'member'; lastOnly: boolean } {
  const { list } = reading;
  const all = (role: 'owner' | 'member') => ({ role, lastOnly: false });
  if (startsList) {
    const cue = base(list[cueIndex]);
    if (OWNER_CUES.test(cue) || BY.has(cue)) return all('owner');
    if (MEMBER_CUES.test(cue)) return all('member');
    // "I'll own it together with Oliver", "co-own it with Oliver": he owns it too.
    if (/^(?:with|avec)$/.test(cue)) {
      for (let k = cueIndex - 1; k >= Math.max(0, cueIndex - 3); k -= 1) {
        if (pauseBefore(reading, k + 1)) break;
        if (OWNER_CUES.test(base(list[k]))) return all('owner');
        if (!/^(?:it|la|le|together|ensemble|jointly)$/.test(base(list[k]))) break;
      }
    }
  } else {
    // Before a free name: "owners are Adele and Lynne" is handled as a list; "as owner Adele" too.
    let k = group[0]!.from - 1;
    while (k >= 0 && ROLE_FILLERS.has(base(list[k])) && !pauseBefore(reading, k + 1)) k -= 1;
    if (k >= 0 && k < group[0]!.from - 1 && OWNER_CUES.test(base(list[k]))) return all('owner');
  }
  const last = group[group.length - 1]!.to;
  for (let k = last + 1; k < Math.min(list.length, last + 6); k += 1) {
    if (/[;.!?]/.test(gap(reading, k))) break;
    if (k > last + 1 && pauseBefore(reading, k) && /,/.test(gap(reading, k))) break;
    const folded = base(list[k]);
    if (PEOPLE_CUES.has(folded) && !OWNER_CUES.test(folded) && !MEMBER_CUES.test(folded)) break;
    if (LIST_JOINERS.has(folded) && nameLike(reading, k + 1, false)) break;
    // "Chloé Bernard et moi comme propriétaire": the role is the writer's.
    if (LIST_JOINERS.has(folded) && REQUESTER.test(base(list[k + 1]))) break;
    if (MEMBER_CUES.test(folded)) return all('member');
    // A singular role word after several names is the last one's ("…, et Megan en propriétaire").
    if (OWNER_CUES.test(folded)) return { role: 'owner', lastOnly: SINGULAR_ROLES.test(folded) };
  }
  return all('member');
}

/** The writer of the message in a list of names ("et moi", "and me"). */
const REQUESTER = /^(?:me|myself|moi|moi-meme)$/;
/** Role nouns in the singular: after a list of names, they name only the last. */
const SINGULAR_ROLES = /^(?:co-?owner|owner|co-?proprietaire|proprietaire|proprio|responsable|admin)$/;

/** For a status question: only waiting requests, or all. */
export function requestFilterOf(reading: Reading): 'all' | 'waiting' {
  for (let i = 0; i < reading.list.length; i += 1) {
    const folded = base(reading.list[i]);
    if (WAITING_CUES.test(folded)) return 'waiting';
    if ((folded === 'pas' || folded === 'not') && /^(?:encore|yet)$/.test(base(reading.list[i + 1])))
      return 'waiting';
  }
  return 'all';
}

/** For a status question: the team name of the one request asked about ("my Northwind request"). */
export function requestNameSpan(reading: Reading): Span | null {
  const { list } = reading;
  const quoted = quotedSpan(reading);
  if (quoted) return quoted;
  for (let i = 0; i < list.length; i += 1) {
    const folded = base(list[i]);
    // "my Northwind request", "the Atlas team"
    if (REQUEST_NOUNS.has(folded) && i > 0) {
      const last = i - 1;
      const proper = (k: number) => nameLike(reading, k, false) || isCode(list[k]);
      // "the Q3 Launch team": a capitalised word after a proper noun or a code is part of the name.
      const joined =
        !reading.shouting &&
        isCapitalised(list[last]!.raw) &&
        last > 0 &&
        proper(last - 1) &&
        !pauseBefore(reading, last);
      if (proper(last) || joined) {
        const span = nameBefore(reading, last, new Set());
        if (span) return span;
      } else if (isPlainWord(reading, last) && /^(?:my|the|our|mon|ma|la|notre)$/.test(base(list[last - 1])))
        return { from: last, to: last };
    }
    // "mon equipe cassiopee", "my team atlas": a plain word after one's team.
    if (
      /^(?:team|equipe)$/.test(folded) &&
      /^(?:my|our|mon|ma|notre)$/.test(base(list[i - 1])) &&
      list[i + 1] &&
      !pauseBefore(reading, i + 1) &&
      isPlainWord(reading, i + 1)
    )
      return { from: i + 1, to: i + 1 };
    // "request for Northwind", "demande pour Atlas", "la demande Atlas", "demande de Northwind"
    if (REQUEST_NOUNS.has(folded)) {
      let k = i + 1;
      while (
        k < list.length &&
        /^(?:for|pour|de|d|du|about|on|sur|named|called|nommee|appelee|the|le|la|l)$/.test(base(list[k]))
      )
        k += 1;
      if (k > i + 1 || (list[k] && !reading.shouting && isCapitalised(list[k]!.raw))) {
        const span = wholeName(reading, k, new Set()) ?? nameFrom(reading, k, new Set(), false);
        if (
          span &&
          (nameLike(reading, span.from, false) ||
            isPlainWord(reading, span.from) ||
            isCode(list[span.from]) ||
            span.to > span.from)
        )
          return span;
      }
    }
  }
  // Otherwise a capitalised word in the middle of the question ("where is Northwind at?").
  for (let i = 1; i < list.length; i += 1) {
    if (!sentenceStart(reading, i) && !reading.shouting && nameLike(reading, i, false)) {
      const span = nameFrom(reading, i, new Set(), false);
      if (span) return span;
    }
  }
  return null;
}
