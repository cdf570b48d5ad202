import { corpusEn } from '../../../src/bot/understanding/corpusEn';
import { corpusFr } from '../../../src/bot/understanding/corpusFr';
import { hasWordsOf } from '../../../src/bot/understanding/grammar';
import { words } from '../../../src/bot/understanding/text';
import type { Intent } from '../../../src/bot/understanding/types';
import { understand } from '../../../src/bot/understanding/understand';
import { TEMPLATES } from './fixtures';

/**
 * The grammar over the classifier's guess (grammar.ts) and the name rules it came with, on
 * sentences written for the rules, in English and French, none of them from a blind set:
 * [text, intent, team or request name (undefined: not checked), decides (an order to decide)].
 */
const read = (text: string) => {
  const got = understand(text, TEMPLATES);
  return { intent: got.intent, name: got.teamName ?? got.requestName, decides: got.decideAll === true };
};

describe('the grammar of questions and orders', () => {
  it.each([
    // One's own requests: "my requests", "what I asked for", "que j'ai demandé".
    ['did any of my requests get approved?', 'askRequestStatus'],
    ['what did I ask for last week?', 'askRequestStatus'],
    ['show every request I submitted', 'askRequestStatus'],
    ['affiche tout ce que j’ai demandé', 'askRequestStatus'],
    ['mes demandes, elles en sont où ?', 'askRequestStatus'],
    // Requests the writer decides are their approvals, not their requests.
    ['which requests am I supposed to approve?', 'askMyApprovals'],
    ['les demandes que je dois approuver, tu les as ?', 'askMyApprovals'],
    // A team's end: expiry, renewal, disuse.
    ['can I extend my team by six months?', 'askExpiringTeams'],
    ['prolonge mon groupe jusqu’en juin', 'askExpiringTeams'],
    ['is my Orion team about to lapse?', 'askExpiringTeams'],
    ['which of our groups are dormant', 'askExpiringTeams'],
    ['mon équipe va bientôt être supprimée ?', 'askExpiringTeams'],
    ['est-ce que mon groupe arrive à échéance ?', 'askExpiringTeams'],
    // Who approves a kind of team.
    ['does a legal matter team need anyone’s sign-off?', 'askApprovers'],
    ['who signs off on marketing campaigns?', 'askApprovers'],
    ['faut-il l’accord de quelqu’un pour une équipe client ?', 'askApprovers'],
    // Asking for a team without naming a template.
    ['we’d need a fresh workspace for the finance folks', 'requestTeam'],
    ['il nous faudrait un nouvel espace', 'requestTeam'],
    ['merci de créer un espace client pour Banque Alpine', 'requestTeam'],
    ['quel gabarit pour un comité de direction ?', 'askTemplates'],
    ['legal matter space pls', 'requestTeam'],
    ['équipe juridique « Dossier Rivoli » avec Lucas', 'requestTeam'],
    // One's own approvals and requests, with a word between.
    ['show me my outstanding approvals', 'askMyApprovals'],
    ['pull up my approvals', 'askMyApprovals'],
    ['affiche mes approbations en attente', 'askMyApprovals'],
    ['could you list my open requests?', 'askRequestStatus'],
    ['liste mes demandes récentes stp', 'askRequestStatus'],
    // The state of one's own request.
    ['statut pour l’équipe Rivoli stp', 'askRequestStatus'],
    ['ma demande pour Horizon Sud, elle est approuvée ?', 'askRequestStatus'],
  ])('%s → %s', (text, intent) => {
    expect(read(text).intent).toBe(intent);
  });

  it.each([
    ['show my pending approvals', 'askMyApprovals'],
    ['would you mind listing my team requests please?', 'askRequestStatus'],
    ['I’d like to see my team requests please', 'askRequestStatus'],
  ])('%s → %s, sure enough for the bot to act on', (text, intent) => {
    const got = understand(text, TEMPLATES);
    expect(got.intent).toBe(intent);
    // The bot acts on an intent nothing else supports from 0.6 (typed.ts, UNSURE_BELOW).
    expect(got.confidence).toBeGreaterThanOrEqual(0.6);
  });

  it.each([
    ['please reject Megan’s request', 'en'],
    ['valide la demande de Lucas', 'fr'],
    ['refusez toutes les demandes en attente', 'fr'],
    ['accept the request from Isaiah for Kestrel', 'en'],
    // A request named bare after the verb, no question asked.
    ['decline Fabrikam Rollout', 'en'],
    ['kindly approve Northwind Traders', 'en'],
    ['refusez Atelier Mistral svp', 'fr'],
    ['veuillez approuver Horizon Sud', 'fr'],
  ])('%s is an order to decide: declined, nothing decided', (text) => {
    expect(read(text)).toMatchObject({ intent: 'askMyApprovals', decides: true });
  });

  it.each([
    'approved requests?',
    'which of my requests were rejected',
    'qui doit valider une équipe projet ?',
    // Things named with an article are no requests: an invitation, a meeting, a team.
    'accept the invitation for thursday',
    'decline the meeting with Lucas',
    'accepte l’invitation de Chloé',
    'approve Orion team?',
  ])('%s is no order to decide', (text) => {
    expect(read(text).decides).toBe(false);
  });

  it.each([
    'give me admin rights on all teams',
    'rends-moi propriétaire de toutes les équipes',
    'my team lost the quiz on friday',
    'notre équipe a fini le marathon dimanche',
  ])('%s asks nothing Steward does', (text) => {
    expect(['none', 'askCapabilities', 'greeting', 'thanks']).toContain(read(text).intent);
  });
});

describe('names that hold small words, dates, or stand beside a company noun', () => {
  it.each([
    // French names joined by "de", "du", "des", "d'".
    ['une équipe pour la Semaine du Goût avec Lucas', 'Semaine du Goût'],
    ['nouvelle campagne Nuit des Musées, Zoé propriétaire', 'Nuit des Musées'],
    ['il me faut une équipe projet pour le Festival d’automne', 'Festival d’automne'],
    ['a legal team for Smith v. Jones, Lynne as owner', 'Smith v. Jones'],
    // Everything up to the pause after "call it", "appelle-la", a misspelt "nommée".
    ['new team please, call it Growth in Asia, with Alex as owner', 'Growth in Asia'],
    ['crée une équipe et appelle-la Club des lecteurs, avec Chloé', 'Club des lecteurs'],
    ['une équipe projet nomée Atelier 5 avec Lucas', 'Atelier 5'],
    // A name that opens with a date.
    ['a team for the 2028 sales kickoff with Adele', '2028 sales kickoff'],
    ['project team for the H1 2027 roadmap review', 'H1 2027 roadmap review'],
    ['onboarding cohort for the September 2027 interns please', 'September 2027 interns'],
    // A team asked for by its name, whatever else the message says of teams ending.
    ['please create a team called Northstar; it replaces the team that expired last year', 'Northstar'],
    // A "+" lists people after a name, it does not join them to it.
    ['new client team for Alpine Dairy + Megan + Lucas', 'Alpine Dairy'],
    // A company set off by commas after its noun, or after a verb of signing.
    [
      'we are partnering with a logistics firm, Northwind Freight, and need a shared space',
      'Northwind Freight',
    ],
    ['il faut un espace avec notre cabinet comptable, Fiduciaire Rhône.', 'Fiduciaire Rhône'],
    ['we have just landed Tailwind Traders as a customer, need a team', 'Tailwind Traders'],
    ['nous avons signé avec la société Alpina, une équipe client svp', 'Alpina'],
  ])('%s → %s', (text, name) => {
    const got = understand(text, TEMPLATES);
    expect({ intent: got.intent, name: got.teamName }).toEqual({ intent: 'requestTeam', name });
    // A company named as the team is not a person to add.
    expect(got.people.map((person) => person.text)).not.toContain(name);
  });
});

describe('the words each intent needs', () => {
  it.each([
    ['en', corpusEn],
    ['fr', corpusFr],
  ] as const)('are in every example the %s classifier learns from', (_language, corpus) => {
    const lacking = (Object.keys(corpus) as Intent[]).flatMap((intent) =>
      corpus[intent]
        .filter((example) => !hasWordsOf(intent, words(example)))
        .map((example) => `${intent}: ${example}`),
    );
    expect(lacking).toEqual([]);
  });
});

describe('requests waiting on the writer, and a team composed with its people by their part', () => {
  it.each([
    'are there requests that wait for my approval?',
    'quelles demandes attendent ma validation ?',
    'des demandes en attente de moi ?',
    'anything still pending with me?',
  ])('%s asks for the writer’s approvals', (text) => {
    expect(understand(text, TEMPLATES).intent).toBe('askMyApprovals');
  });

  it.each(['are my requests waiting for my manager?', 'is my request still waiting?'])(
    '%s asks about the writer’s own requests',
    (text) => {
      expect(understand(text, TEMPLATES).intent).toBe('askRequestStatus');
    },
  );

  it('a buddy team with « mon parrain c’est … » asks for the team', () => {
    const got = understand(
      "équipe de parrainage pour moi, mon parrain c'est Julien et ma manager Chloé",
      TEMPLATES,
    );
    expect(got.intent).toBe('requestTeam');
    expect(got.people.map((person) => `${person.text}:${person.role}`)).toEqual([
      'Julien:member',
      'Chloé:member',
    ]);
  });
});
