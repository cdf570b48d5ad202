/**
 * The words the rules over a message read: those never in a name, the cues before a list of
 * people or a role, the kinds of team beside a name, the words that name a team, and those of a
 * status question. Folded (no case, no accents), as `text.ts` folds a message's words.
 */

/** Words that are never part of a name or a person: function words, politeness, verbs of the domain. */
export const NOT_A_NAME = new Set(
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
    'created cree creee shud shld gonna wanna wil must pis'
  ).split(/\s+/),
);

/** Months, in a request a time and not a person nor a team ("for January", "en septembre"). */
export const MONTHS =
  /^(?:january|february|march|april|june|july|august|september|october|november|december|janvier|fevrier|avril|juin|juillet|aout|septembre|octobre|novembre|decembre)$/;

/** Days, in a name only after its first word ("Black Friday"). */
export const WEEKDAYS = /^(?:monday|tuesday|wednesday|thursday|friday|lundi|mardi|mercredi|jeudi|vendredi)$/;

/** Words after which a list of people follows. */
export const PEOPLE_CUES = new Set(
  (
    'with avec add adding ajoute ajouter ajoutez ajoutes include including incluant inclure invite inviter ' +
    'plus owners owner members member membres membre proprietaire proprietaires coproprietaire coproprietaires ' +
    'co-owner co-owners coowner coowners co-proprietaire co-proprietaires w ' +
    'buddy mentor manager parrain marraine tuteur tutrice'
  ).split(' '),
);

/** Words before a list of people only after a verb of running ("co-owned by", "géré par"). */
export const BY = new Set(['by', 'par']);
export const RUN_VERBS =
  /^(?:co-?owned|owned|run|led|managed|gere|geree|pilote|pilotee|menee|mene|dirige|dirigee|animee|anime)$/;

export const OWNER_CUES =
  /^(?:co-?owns?|co-?owning|own|owns|owning|co-?owners?|owners?|co-?proprietaires?|proprietaires?|proprios?|run|runs|running|lead|leads|leading|led|manage|manages|managing|gere|gerera|geront|gerer|pilote|pilotera|piloter|responsables?|admins?|administrat\w*|charge|chargee|occuper|occupe|occupera|occuperont)$/;
/** Nouns of a person's part that start a list only as a label ("buddy = Priya", "manager: Zoé", "my mentor is Ana"). */
export const PART_NOUNS = /^(?:buddy|mentor|manager|parrain|marraine|tuteur|tutrice)$/;
/** A person's part in the team given as a noun: a member ("my buddy is Priya", « mon parrain c'est Diego »). */
export const MEMBER_CUES =
  /^(?:members?|membres?|participants?|buddy|mentor|manager|parrain|marraine|tuteur|tutrice)$/;

/** Fillers that may stand between a role cue and a list of people ("owners are", "as owner"). */
export const ROLE_FILLERS = new Set(
  'as comme are is will be sont seront sera est the les en tant que : by par the co ses son sa its'.split(
    ' ',
  ),
);

/** "pis": Québec's "and" ("Mathieu pis Chloé"). */
export const LIST_JOINERS = new Set(['and', 'et', '&', '+', 'plus', 'pis']);

/** Words that name a kind of team: a proper noun beside one is the team's name ("the Contoso deal"). */
export const KIND_NOUNS_AFTER = new Set(
  (
    'deal project campaign matter case account launch squad cohort community programme program initiative ' +
    'engagement workstream stream event rollout migration pitch bid tender rfp product release pilot study ' +
    'taskforce hackathon workshop conference dispute litigation'
  ).split(' '),
);
export const KIND_NOUNS_BEFORE = new Set(
  (
    'projet campagne dossier affaire client mission cohorte communaute programme lancement project campaign ' +
    'operation initiative prospect compte chantier evenement produit etude appel offre codename migration ' +
    'account supplier vendor fournisseur prestataire ' +
    'deploiement refonte litige escouade'
  ).split(' '),
);
/** Words for the team itself: a proper noun just before one names it ("the Mercury team"). */
export const TEAM_NOUNS = /^(?:team|space|workspace|channel)$/;
/** Words before a partner company's name, with the words that may stand between ("our partner, the company Litware"). */
export const PARTNER_NOUNS =
  /^(?:partner|partners|partnership|partenaire|partenaires|partenariat|company|firm|societe|supplier|vendor|fournisseur|prestataire|contractor)$/;
export const PARTNER_FILLERS = /^(?:with|avec|external|externe|the|la|le|l|our|notre|company|firm|societe)$/;
/** Kinds of team for welcoming a new joiner: "a buddy team for Ana" names her, not the team. */
export const WELCOME_CONCEPTS = new Set(['buddy', 'onboarding']);

export const NAMING_CUES = new Set([
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
export const NAMING_VERBS =
  /^(?:call|name|rename|appelle|appelle-la|appelle-le|appeler|appelons|nomme-la|nommer|nommons|baptise|baptise-la|baptiser)$/;
export const NAME_FILLERS = /^(?:is|to|be|will|shall|should|would|could|sera|serait|est|doit|etre|must)$/;
export const NAMED_OBJECTS = /^(?:it|the|this|one|team|la|le|equipe|l'equipe|cette)$/;
export const PURPOSE_CUES = new Set(['for', 'pour']);
export const DETERMINERS = new Set(
  'the a an our my this that le la les l un une notre mon ma nos mes ce cette du de des d the'.split(' '),
);

export const WAITING_CUES =
  /^(?:waiting|wait|pending|outstanding|attente|attend|attendent|attendant|bloquee?s?|stuck|still|encore|yet|open|ouvertes?)$/;
export const REQUEST_NOUNS = new Set([
  'request',
  'requests',
  'demande',
  'demandes',
  'req',
  'ticket',
  'team',
  'equipe',
]);
