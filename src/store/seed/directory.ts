import type { AppRole } from '../../contract/roles';
import type { Label, User } from '../../contract/directory';

/**
 * The demo tenant of the embedded platform: the six people of the Microsoft 365 Agents
 * Playground's default config plus enough colleagues across departments, countries and languages
 * to make audience rules and naming conventions meaningful. Pure data; the store seeds it.
 */

/** The tenant id of the demo directory (and of the Agents Playground configuration Steward writes). */
export const SEED_TENANT_ID = '00000000-0000-0000-0000-000000000001';

/** A directory person plus the app roles minted into their tokens in embedded mode. */
export interface SeedUser extends User {
  /** Never AUTHENTICATED_USER: every user token carries that one implicitly. */
  appRoles: AppRole[];
  groupIds: string[];
  /** The person's line manager (object id), null at the top of a department. */
  managerId: string | null;
}

export interface SeedGroup {
  id: string;
  displayName: string;
  description: string;
  mailNickname: string;
}

/** A sensitivity label; `scopeGroupIds` null means everyone may apply it, else only those groups' members. */
export interface SeedLabel extends Omit<Label, 'parent'> {
  parentId: string | null;
  scopeGroupIds: string[] | null;
}

/** A service principal that can obtain app tokens. */
export interface SeedApp {
  id: string;
  displayName: string;
  appRoles: AppRole[];
}

/** Group ids, named so templates and tests can refer to them. */
export const SEED_GROUP_IDS = {
  allCompany: '1a0c7da5-6c2c-49d9-83b8-b1ab1ffd7735',
  onboarding2026: '3cca8041-709d-49a5-bafe-31146f0bbd1e',
  marketingEmea: 'f332c65d-7835-4a48-bbcf-6262278850b1',
  engineeringLeads: 'eee39a10-9e78-4895-90ba-d3844057dc79',
  financeTeam: '2de40ff9-6da1-4c8f-adea-c70554090e9a',
  legalCompliance: '4fd20b8c-590b-4201-a05f-2add016c43ee',
  itAdmins: '2e40d4a7-3658-4d19-ad68-8b4171957e55',
  salesWorldwide: '3c20efcf-73ac-4b55-95ee-3a8068fa50c6',
} as const;

const G = SEED_GROUP_IDS;

export const seedGroups: readonly SeedGroup[] = [
  {
    id: G.allCompany,
    displayName: 'All Company',
    description: 'Everyone at Contoso and its subsidiaries.',
    mailNickname: 'allcompany',
  },
  {
    id: G.onboarding2026,
    displayName: 'Onboarding 2026',
    description: 'People who joined Contoso in 2026 and are going through onboarding.',
    mailNickname: 'onboarding2026',
  },
  {
    id: G.marketingEmea,
    displayName: 'Marketing EMEA',
    description: 'Marketing teams in Europe, the Middle East and Africa.',
    mailNickname: 'marketingemea',
  },
  {
    id: G.engineeringLeads,
    displayName: 'Engineering Leads',
    description: 'Engineering managers and principal engineers.',
    mailNickname: 'engineeringleads',
  },
  {
    id: G.financeTeam,
    displayName: 'Finance Team',
    description: 'Controllers, analysts and accountants.',
    mailNickname: 'financeteam',
  },
  {
    id: G.legalCompliance,
    displayName: 'Legal & Compliance',
    description: 'Legal counsel, compliance and governance.',
    mailNickname: 'legalcompliance',
  },
  {
    id: G.itAdmins,
    displayName: 'IT Admins',
    description: 'Administrators of Microsoft 365 and Teams.',
    mailNickname: 'itadmins',
  },
  {
    id: G.salesWorldwide,
    displayName: 'Sales Worldwide',
    description: 'Account executives and sales leadership in every region.',
    mailNickname: 'salesworldwide',
  },
];

/** The object id of the n-th demo person, `00000000-0000-0000-0000-0000000000NN`. */
function seedUserId(n: number): string {
  return `00000000-0000-0000-0000-${String(n).padStart(12, '0')}`;
}

interface PersonSpec {
  n: number;
  givenName: string;
  surname: string;
  /** Defaults to `givenName surname`. */
  displayName?: string;
  mail: string;
  /** Defaults to `mail`. */
  userPrincipalName?: string;
  jobTitle: string;
  department: string;
  companyName: string;
  /** ISO 3166 alpha-2; also the usage location. */
  country: string;
  city: string;
  preferredLanguage: string;
  groups: string[];
  appRoles?: AppRole[];
}

function person(spec: PersonSpec): SeedUser {
  return {
    id: seedUserId(spec.n),
    displayName: spec.displayName ?? `${spec.givenName} ${spec.surname}`,
    givenName: spec.givenName,
    surname: spec.surname,
    mail: spec.mail,
    userPrincipalName: spec.userPrincipalName ?? spec.mail,
    jobTitle: spec.jobTitle,
    department: spec.department,
    companyName: spec.companyName,
    country: spec.country,
    city: spec.city,
    usageLocation: spec.country,
    preferredLanguage: spec.preferredLanguage,
    appRoles: spec.appRoles ?? [],
    groupIds: [G.allCompany, ...spec.groups],
    managerId: MANAGERS[spec.n] === undefined ? null : seedUserId(MANAGERS[spec.n]!),
  };
}

/**
 * Who reports to whom (by person number): one small org chart per department, each headed by
 * someone with no manager (Megan Bowen for IT, Adele Vance for Legal, Zoé Lefèvre for Marketing,
 * Oliver Bennett for Sales, Emily Nakamura for Engineering, Hélène Dupré for Finance and Operations,
 * Katharina Schäfer for Human Resources), so approval policies can ask for the requester's manager.
 */
const MANAGERS: Readonly<Record<number, number>> = {
  20: 26, // Alex Wilber → Zoé Lefèvre
  24: 21, // Patti Fernandez → Megan Bowen
  32: 24, // Priya Raghunathan → Patti Fernandez
  40: 24, // Mathieu Girard → Patti Fernandez
  48: 24, // Björn Lindqvist → Patti Fernandez
  25: 22, // Lynne Robbins → Adele Vance
  34: 22, // Siobhán O'Connor → Adele Vance
  46: 25, // Sofia Rossi → Lynne Robbins
  36: 26, // Lucía Fernández Ruiz → Zoé Lefèvre
  37: 26, // Lucas Peeters → Zoé Lefèvre
  38: 37, // Élodie Marchand → Lucas Peeters
  49: 26, // Gabriel Oliveira → Zoé Lefèvre
  23: 35, // Isaiah Langer → Oliver Bennett
  42: 35, // Nomvula Dlamini → Oliver Bennett
  30: 42, // João Conceição → Nomvula Dlamini
  27: 44, // Jürgen Groß → Emily Nakamura
  28: 44, // Haruto Takahashi → Emily Nakamura
  43: 44, // Diego Álvarez → Emily Nakamura
  50: 44, // Ravi Krishnan → Emily Nakamura
  41: 51, // Chloé Bernard → Hélène Dupré
  29: 41, // 山田 花子 → Chloé Bernard
  33: 41, // Arjun Mehta → Chloé Bernard
  47: 51, // Fatima Zahra El Amrani → Hélène Dupré
  31: 39, // Ana Beatriz Gonçalves → Katharina Schäfer
  45: 39, // Marcus Johnson → Katharina Schäfer
};

export const seedUsers: readonly SeedUser[] = [
  // The six people of the Microsoft 365 Agents Playground.
  person({
    n: 20,
    givenName: 'Alex',
    surname: 'Wilber',
    mail: 'alexw@example.com',
    jobTitle: 'Marketing Assistant',
    department: 'Marketing',
    companyName: 'Contoso',
    country: 'US',
    city: 'Seattle',
    preferredLanguage: 'en-US',
    groups: [G.onboarding2026],
  }),
  person({
    n: 21,
    givenName: 'Megan',
    surname: 'Bowen',
    mail: 'meganb@example.com',
    jobTitle: 'IT Director',
    department: 'IT',
    companyName: 'Contoso',
    country: 'US',
    city: 'Pittsburgh',
    preferredLanguage: 'en-US',
    groups: [G.itAdmins],
    appRoles: ['GLOBAL_ADMIN'],
  }),
  person({
    n: 22,
    givenName: 'Adele',
    surname: 'Vance',
    mail: 'adelev@example.com',
    jobTitle: 'Corporate Counsel',
    department: 'Legal',
    companyName: 'Contoso',
    country: 'US',
    city: 'Boston',
    preferredLanguage: 'en-US',
    groups: [G.legalCompliance],
  }),
  person({
    n: 23,
    givenName: 'Isaiah',
    surname: 'Langer',
    mail: 'isaiahl@example.com',
    userPrincipalName: 'isaiah@example.com',
    jobTitle: 'Account Executive',
    department: 'Sales',
    companyName: 'Contoso France',
    country: 'FR',
    city: 'Paris',
    preferredLanguage: 'fr-FR',
    groups: [G.salesWorldwide],
  }),
  person({
    n: 24,
    givenName: 'Patti',
    surname: 'Fernandez',
    mail: 'pattif@example.com',
    jobTitle: 'Collaboration Services Manager',
    department: 'IT',
    companyName: 'Contoso',
    country: 'US',
    city: 'Louisville',
    preferredLanguage: 'en-US',
    groups: [G.itAdmins],
    appRoles: ['CATALOG_MANAGER'],
  }),
  person({
    n: 25,
    givenName: 'Lynne',
    surname: 'Robbins',
    mail: 'lynner@example.com',
    jobTitle: 'Governance and Compliance Manager',
    department: 'Legal',
    companyName: 'Contoso',
    country: 'US',
    city: 'Tulsa',
    preferredLanguage: 'en-US',
    groups: [G.legalCompliance],
    appRoles: ['GOVERNANCE_MANAGER'],
  }),

  // Colleagues across departments, countries and languages.
  person({
    n: 26,
    givenName: 'Zoé',
    surname: 'Lefèvre',
    mail: 'zoe.lefevre@contoso.fr',
    jobTitle: 'Marketing Manager',
    department: 'Marketing',
    companyName: 'Contoso France',
    country: 'FR',
    city: 'Paris',
    preferredLanguage: 'fr-FR',
    groups: [G.marketingEmea],
  }),
  person({
    n: 27,
    givenName: 'Jürgen',
    surname: 'Groß',
    mail: 'juergen.gross@contoso.de',
    jobTitle: 'Principal Engineer',
    department: 'Engineering',
    companyName: 'Contoso Deutschland GmbH',
    country: 'DE',
    city: 'München',
    preferredLanguage: 'de-DE',
    groups: [G.engineeringLeads],
  }),
  person({
    n: 28,
    givenName: 'Haruto',
    surname: 'Takahashi',
    mail: 'haruto.takahashi@contoso.com',
    jobTitle: 'Software Engineer',
    department: 'Engineering',
    companyName: 'Contoso Japan K.K.',
    country: 'JP',
    city: 'Tokyo',
    preferredLanguage: 'ja-JP',
    groups: [G.onboarding2026],
  }),
  person({
    n: 29,
    givenName: '花子',
    surname: '山田',
    displayName: '山田 花子',
    mail: 'hanako.yamada@contoso.com',
    jobTitle: 'Senior Accountant',
    department: 'Finance',
    companyName: 'Contoso Japan K.K.',
    country: 'JP',
    city: 'Osaka',
    preferredLanguage: 'ja-JP',
    groups: [G.financeTeam],
  }),
  person({
    n: 30,
    givenName: 'João',
    surname: 'Conceição',
    mail: 'joao.conceicao@contoso.com',
    jobTitle: 'Sales Executive',
    department: 'Sales',
    companyName: 'Contoso Brasil Ltda.',
    country: 'BR',
    city: 'São Paulo',
    preferredLanguage: 'pt-BR',
    groups: [G.salesWorldwide],
  }),
  person({
    n: 31,
    givenName: 'Ana Beatriz',
    surname: 'Gonçalves',
    mail: 'ana.goncalves@contoso.com',
    jobTitle: 'HR Business Partner',
    department: 'Human Resources',
    companyName: 'Contoso Brasil Ltda.',
    country: 'BR',
    city: 'Rio de Janeiro',
    preferredLanguage: 'pt-BR',
    groups: [],
  }),
  person({
    n: 32,
    givenName: 'Priya',
    surname: 'Raghunathan',
    mail: 'priya.raghunathan@contoso.com',
    jobTitle: 'Cloud Platform Administrator',
    department: 'IT',
    companyName: 'Contoso India Pvt. Ltd.',
    country: 'IN',
    city: 'Bengaluru',
    preferredLanguage: 'en-IN',
    groups: [G.itAdmins],
  }),
  person({
    n: 33,
    givenName: 'Arjun',
    surname: 'Mehta',
    mail: 'arjun.mehta@contoso.com',
    jobTitle: 'Financial Analyst',
    department: 'Finance',
    companyName: 'Contoso India Pvt. Ltd.',
    country: 'IN',
    city: 'Mumbai',
    preferredLanguage: 'hi-IN',
    groups: [G.financeTeam, G.onboarding2026],
  }),
  person({
    n: 34,
    givenName: 'Siobhán',
    surname: "O'Connor",
    mail: 'siobhan.oconnor@contoso.com',
    jobTitle: 'Senior Legal Counsel',
    department: 'Legal',
    companyName: 'Contoso',
    country: 'IE',
    city: 'Dublin',
    preferredLanguage: 'en-IE',
    groups: [G.legalCompliance],
  }),
  person({
    n: 35,
    givenName: 'Oliver',
    surname: 'Bennett',
    mail: 'oliver.bennett@contoso.com',
    jobTitle: 'Sales Director',
    department: 'Sales',
    companyName: 'Contoso',
    country: 'GB',
    city: 'London',
    preferredLanguage: 'en-GB',
    groups: [G.salesWorldwide],
  }),
  person({
    n: 36,
    givenName: 'Lucía',
    surname: 'Fernández Ruiz',
    mail: 'lucia.fernandez@contoso.com',
    jobTitle: 'Product Marketing Specialist',
    department: 'Marketing',
    companyName: 'Contoso Iberia S.L.',
    country: 'ES',
    city: 'Madrid',
    preferredLanguage: 'es-ES',
    groups: [G.marketingEmea],
  }),
  person({
    n: 37,
    givenName: 'Lucas',
    surname: 'Peeters',
    mail: 'lucas.peeters@contoso.com',
    jobTitle: 'Digital Marketing Lead',
    department: 'Marketing',
    companyName: 'Contoso Benelux',
    country: 'BE',
    city: 'Antwerpen',
    preferredLanguage: 'nl-BE',
    groups: [G.marketingEmea],
  }),
  person({
    n: 38,
    givenName: 'Élodie',
    surname: 'Marchand',
    mail: 'elodie.marchand@contoso.fr',
    jobTitle: 'Content Strategist',
    department: 'Marketing',
    companyName: 'Contoso Benelux',
    country: 'BE',
    city: 'Bruxelles',
    preferredLanguage: 'fr-BE',
    groups: [G.marketingEmea, G.onboarding2026],
  }),
  person({
    n: 39,
    givenName: 'Katharina',
    surname: 'Schäfer',
    mail: 'katharina.schaefer@contoso.de',
    jobTitle: 'HR Manager',
    department: 'Human Resources',
    companyName: 'Contoso Deutschland GmbH',
    country: 'DE',
    city: 'Berlin',
    preferredLanguage: 'de-DE',
    groups: [],
  }),
  person({
    n: 40,
    givenName: 'Mathieu',
    surname: 'Girard',
    mail: 'mathieu.girard@contoso.fr',
    jobTitle: 'Systems Engineer',
    department: 'IT',
    companyName: 'Contoso France',
    country: 'FR',
    city: 'Lyon',
    preferredLanguage: 'fr-FR',
    groups: [G.itAdmins],
  }),
  person({
    n: 41,
    givenName: 'Chloé',
    surname: 'Bernard',
    mail: 'chloe.bernard@contoso.fr',
    jobTitle: 'Financial Controller',
    department: 'Finance',
    companyName: 'Contoso France',
    country: 'FR',
    city: 'Paris',
    preferredLanguage: 'fr-FR',
    groups: [G.financeTeam],
  }),
  person({
    n: 42,
    givenName: 'Nomvula',
    surname: 'Dlamini',
    mail: 'nomvula.dlamini@contoso.com',
    jobTitle: 'Regional Sales Manager',
    department: 'Sales',
    companyName: 'Contoso',
    country: 'ZA',
    city: 'Johannesburg',
    preferredLanguage: 'en-ZA',
    groups: [G.salesWorldwide],
  }),
  person({
    n: 43,
    givenName: 'Diego',
    surname: 'Álvarez',
    mail: 'diego.alvarez@contoso.com',
    jobTitle: 'Solutions Engineer',
    department: 'Engineering',
    companyName: 'Contoso Iberia S.L.',
    country: 'ES',
    city: 'Barcelona',
    preferredLanguage: 'es-ES',
    groups: [G.onboarding2026],
  }),
  person({
    n: 44,
    givenName: 'Emily',
    surname: 'Nakamura',
    mail: 'emily.nakamura@contoso.com',
    jobTitle: 'Engineering Manager',
    department: 'Engineering',
    companyName: 'Contoso',
    country: 'US',
    city: 'Redmond',
    preferredLanguage: 'en-US',
    groups: [G.engineeringLeads],
  }),
  person({
    n: 45,
    givenName: 'Marcus',
    surname: 'Johnson',
    mail: 'marcus.johnson@contoso.com',
    jobTitle: 'Talent Acquisition Specialist',
    department: 'Human Resources',
    companyName: 'Contoso',
    country: 'US',
    city: 'Chicago',
    preferredLanguage: 'en-US',
    groups: [],
  }),
  person({
    n: 46,
    givenName: 'Sofia',
    surname: 'Rossi',
    mail: 'sofia.rossi@contoso.com',
    jobTitle: 'Compliance Officer',
    department: 'Legal',
    companyName: 'Contoso Italia S.r.l.',
    country: 'IT',
    city: 'Milano',
    preferredLanguage: 'it-IT',
    groups: [G.legalCompliance],
  }),
  person({
    n: 47,
    givenName: 'Fatima Zahra',
    surname: 'El Amrani',
    mail: 'fatima.elamrani@contoso.fr',
    jobTitle: 'Procurement Specialist',
    department: 'Operations',
    companyName: 'Contoso France',
    country: 'FR',
    city: 'Marseille',
    preferredLanguage: 'fr-FR',
    groups: [],
  }),
  person({
    n: 48,
    givenName: 'Björn',
    surname: 'Lindqvist',
    mail: 'bjorn.lindqvist@contoso.com',
    jobTitle: 'DevOps Engineer',
    department: 'IT',
    companyName: 'Contoso',
    country: 'SE',
    city: 'Stockholm',
    preferredLanguage: 'sv-SE',
    groups: [G.itAdmins, G.onboarding2026],
  }),
  person({
    n: 49,
    givenName: 'Gabriel',
    surname: 'Oliveira',
    mail: 'gabriel.oliveira@contoso.com',
    jobTitle: 'Brand Manager',
    department: 'Marketing',
    companyName: 'Contoso Brasil Ltda.',
    country: 'BR',
    city: 'Belo Horizonte',
    preferredLanguage: 'pt-BR',
    groups: [],
  }),
  person({
    n: 50,
    givenName: 'Ravi',
    surname: 'Krishnan',
    mail: 'ravi.krishnan@contoso.com',
    jobTitle: 'Principal Architect',
    department: 'Engineering',
    companyName: 'Contoso India Pvt. Ltd.',
    country: 'IN',
    city: 'Hyderabad',
    preferredLanguage: 'en-IN',
    groups: [G.engineeringLeads],
  }),
  person({
    n: 51,
    givenName: 'Hélène',
    surname: 'Dupré',
    mail: 'helene.dupre@contoso.fr',
    jobTitle: 'Chief Financial Officer',
    department: 'Finance',
    companyName: 'Contoso France',
    country: 'FR',
    city: 'Paris',
    preferredLanguage: 'fr-FR',
    groups: [G.financeTeam, G.legalCompliance],
  }),
];

/** Label ids, named so templates and tests can refer to them. */
export const SEED_LABEL_IDS = {
  personal: '96362fca-615d-4961-af33-29c2991543d6',
  public: 'a2a86a1a-9740-44e7-b031-7ee81f9354ef',
  general: '1e658afb-0c54-4e24-9375-1dc88d9ab55d',
  confidential: 'a3991d5d-0099-4792-8d12-ea6d6a157376',
  confidentialAllEmployees: '901c5ab0-e353-47a9-97fd-4d32335d14fe',
  highlyConfidential: 'dcf76b9f-10a3-4805-aa07-5f7d7e904357',
  highlyConfidentialSpecifiedPeople: 'bb020a1c-b316-4e3b-83cd-17004eae534a',
} as const;

const L = SEED_LABEL_IDS;

/** Modelled on the Microsoft Purview default labels, in ascending order of sensitivity. */
export const seedLabels: readonly SeedLabel[] = [
  {
    id: L.personal,
    name: 'Personal',
    description: 'Non-business data, for personal use only. Retired in favour of General.',
    color: '#6E6E6E',
    sensitivity: 0,
    tooltip: 'Non-business data, for personal use only.',
    isActive: false,
    parentId: null,
    scopeGroupIds: null,
  },
  {
    id: L.public,
    name: 'Public',
    description: 'Business data specifically prepared and approved for public consumption.',
    color: '#0078D4',
    sensitivity: 1,
    tooltip: 'Business data that is specifically prepared and approved for public consumption.',
    isActive: true,
    parentId: null,
    scopeGroupIds: null,
  },
  {
    id: L.general,
    name: 'General',
    description: 'Business data not intended for public consumption, shareable with partners.',
    color: '#107C10',
    sensitivity: 2,
    tooltip: 'Business data that is not intended for public consumption. It can be shared with partners.',
    isActive: true,
    parentId: null,
    scopeGroupIds: null,
  },
  {
    id: L.confidential,
    name: 'Confidential',
    description: 'Sensitive business data that could cause damage if shared with unauthorized people.',
    color: '#FF8C00',
    sensitivity: 3,
    tooltip:
      'Sensitive business data that could cause damage to the business if shared with unauthorized people.',
    isActive: true,
    parentId: null,
    scopeGroupIds: null,
  },
  {
    id: L.confidentialAllEmployees,
    name: 'All Employees',
    description: 'Confidential data that every Contoso employee may read; external sharing is blocked.',
    color: '#FF8C00',
    sensitivity: 4,
    tooltip: 'Confidential data that requires protection and allows all Contoso employees full permissions.',
    isActive: true,
    parentId: L.confidential,
    scopeGroupIds: null,
  },
  {
    id: L.highlyConfidential,
    name: 'Highly Confidential',
    description: 'Very sensitive business data that would cause damage if shared with unauthorized people.',
    color: '#D13438',
    sensitivity: 5,
    tooltip: 'Very sensitive business data that would cause damage to the business if it was shared.',
    isActive: true,
    parentId: null,
    scopeGroupIds: [G.legalCompliance, G.financeTeam],
  },
  {
    id: L.highlyConfidentialSpecifiedPeople,
    name: 'Specified People',
    description: 'Highly confidential data that only the people named by the owner may read.',
    color: '#D13438',
    sensitivity: 6,
    tooltip: 'Highly confidential data that only specified people may view, edit or forward.',
    isActive: true,
    parentId: L.highlyConfidential,
    scopeGroupIds: [G.legalCompliance],
  },
];

/** The object id of the Steward bot's service principal in the demo tenant. */
export const STEWARD_BOT_APP_ID = '341355bf-907c-4b6e-8e8a-8d78985f8d65';

export const seedApps: readonly SeedApp[] = [
  { id: STEWARD_BOT_APP_ID, displayName: 'Steward bot', appRoles: ['INTEGRATION_MANAGER'] },
  { id: 'c1c1ef3e-b884-4269-b408-0abab5f156f1', displayName: 'IT automation', appRoles: ['AUTHORIZED_APP'] },
];
