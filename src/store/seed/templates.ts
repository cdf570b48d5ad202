import type { CatalogTemplateInput } from '../../contract/catalog';
import { SEED_LABEL_IDS } from './directory';
import { stagedTemplate } from './stagedTemplate';
import { badge, personRef, webTab } from './templateParts';

/**
 * The demo catalog of the embedded platform. Each template shows one governance feature: open or
 * approved, audience rules (country, department, group, mail domain, language), cloning, labels,
 * singleton and disabled templates, staged approvals. Pure data; the store seeds it.
 */

export const seedTemplates: readonly CatalogTemplateInput[] = [
  {
    templateConfiguration: {
      id: 'project',
      name: 'Project team',
      description: 'A team for a time-boxed project: planning, deliverables and a project charter tab.',
      pictureUrl: badge('PRJ', '#0078D4'),
      language: 'en-US',
      translations: {
        fr: {
          name: 'Équipe projet',
          description:
            'Une équipe pour un projet à durée limitée : planification, livrables et un onglet de charte de projet.',
        },
      },
    },
    newTeam: {
      namingConvention: 'PRJ-<%= request.team.name %>',
      namingConventionWithTags: 'PRJ-{Team name}',
      emailConvention: "prj-<%= request.team.name.toLowerCase().replace(/[^a-z0-9]+/g, '-') %>",
      emailConventionWithTags: 'prj-{team-name}',
      descriptionConvention: '<%= request.team.description %> (project led by <%= request.requester.name %>)',
      descriptionConventionWithTags: '{Team description} (project led by {Requester name})',
      defaultName: 'New project',
      defaultDescription: 'Project workspace',
      defaultWelcomeMessage: 'Welcome to the project! Start with the charter tab in Planning.',
      teamPrivacy: 'private',
      channels: [
        { displayName: 'Planning', description: 'Scope, milestones and risks.' },
        { displayName: 'Deliverables', description: 'Work in progress and reviews.' },
      ],
      tabs: [webTab('Planning', 'Project charter', 'project-charter')],
    },
  },
  {
    templateConfiguration: {
      id: 'client-engagement',
      name: 'Client engagement',
      description: 'A private team shared with a client account. Legal approves every request.',
      pictureUrl: badge('CLI', '#8764B8'),
      language: 'en-US',
      translations: {
        fr: {
          name: 'Mission client',
          description:
            'Une équipe privée partagée avec un compte client. Le service juridique approuve chaque demande.',
        },
      },
      approval: {
        requireApproval: true,
        approvalTeam: [personRef('Adele Vance'), personRef("Siobhán O'Connor")],
      },
      permanentMembership: {
        owners: [personRef('Oliver Bennett')],
        members: [personRef('Adele Vance')],
      },
      sensitivityLabelId: SEED_LABEL_IDS.confidentialAllEmployees,
      minimumOwners: 2,
    },
    newTeam: {
      namingConvention: 'CLI-<%= user.country %>-<%= request.team.name %>',
      namingConventionWithTags: 'CLI-{Requester country}-{Team name}',
      descriptionConvention:
        'Engagement with <%= request.team.name %>, requested by <%= request.requester.email %>',
      descriptionConventionWithTags: 'Engagement with {Team name}, requested by {Requester email}',
      defaultName: 'Client name',
      defaultDescription: 'Client engagement',
      teamPrivacy: 'private',
      channels: [
        { displayName: 'Proposals', description: 'Offers, statements of work and pricing.' },
        { displayName: 'Contracts', description: 'Signed agreements.', membershipType: 'private' },
      ],
      tabs: [webTab('Proposals', 'Account plan', 'account-plan')],
    },
  },
  {
    templateConfiguration: {
      id: 'marketing-campaign-fr-be',
      name: 'Campagne marketing France / Belgique',
      description: 'Une équipe par campagne pour le marketing en France et en Belgique.',
      pictureUrl: badge('FR-BE', '#E3008C'),
      language: 'fr-FR',
      translations: {
        en: {
          name: 'Marketing campaign France / Belgium',
          description: 'One team per campaign for marketing in France and Belgium.',
        },
      },
      audienceTargeting: {
        enabled: true,
        rules: "( user.country === 'FR' || user.country === 'BE' ) && user.department === 'Marketing'",
        rulesWithTags: '(Country is FR or Country is BE) and Department is Marketing',
      },
    },
    newTeam: {
      namingConvention: 'MKT-<%= user.country %>-<%= request.team.name %>',
      namingConventionWithTags: 'MKT-{Pays}-{Nom de l’équipe}',
      welcomeMessageConvention:
        'Bienvenue dans <%= request.team.name %> ! Campagne lancée par <%= request.requester.name %>.',
      welcomeMessageConventionWithTags: 'Bienvenue dans {Nom de l’équipe} ! Campagne lancée par {Demandeur}.',
      defaultName: 'Campagne printemps',
      defaultDescription: 'Campagne marketing',
      defaultWelcomeMessage: 'Bienvenue dans la campagne !',
      teamPrivacy: 'public',
      channels: [
        { displayName: 'Créations', description: 'Visuels et textes.' },
        { displayName: 'Médias', description: 'Plan média et achats.' },
      ],
    },
  },
  {
    templateConfiguration: {
      id: 'department-marketing',
      name: 'Marketing department team',
      description: 'A team for a marketing squad or programme, open to the Marketing department worldwide.',
      pictureUrl: badge('MKT', '#E3008C'),
      language: 'en-US',
      translations: {
        fr: {
          name: 'Équipe du département marketing',
          description:
            'Une équipe pour une cellule ou un programme marketing, ouverte au département Marketing dans le monde entier.',
        },
      },
      audienceTargeting: {
        enabled: true,
        rules: "user.department === 'Marketing'",
        rulesWithTags: 'Department is Marketing',
      },
    },
    newTeam: {
      namingConvention: '<%= user.department %> - <%= request.team.name %>',
      namingConventionWithTags: '{Department} - {Team name}',
      welcomeMessageConvention:
        'Welcome to <%= request.team.name %>, a <%= user.department %> team created by <%= request.requester.name %>.',
      welcomeMessageConventionWithTags:
        'Welcome to {Team name}, a {Department} team created by {Requester name}.',
      defaultName: 'Brand squad',
      teamPrivacy: 'public',
      channels: [
        { displayName: 'Campaigns', folders: ['Briefs', 'Reports/Monthly'] },
        {
          displayName: 'Brand assets',
          folders: ['Logos', 'Logos/Print', 'Logos/Web', 'Templates'],
          files: [
            {
              path: 'README.txt',
              content:
                'Brand assets\n\nLogos: print and web versions, never stretched or recoloured.\nTemplates: slides and documents in the house style.\n',
            },
          ],
        },
        {
          displayName: 'Agency',
          description: 'Work with our agency, shared with their people.',
          membershipType: 'shared',
          folders: ['Deliveries'],
        },
      ],
      tabs: [webTab('Brand assets', 'Brand guidelines', 'brand-guidelines')],
      settings: {
        memberSettings: { allowCreatePrivateChannels: false, allowDeleteChannels: false },
        guestSettings: { allowCreateUpdateChannels: false, allowDeleteChannels: false },
        messagingSettings: { allowTeamMentions: true, allowChannelMentions: true },
        funSettings: { allowGiphy: true, giphyContentRating: 'strict' },
      },
    },
  },
  {
    templateConfiguration: {
      id: 'onboarding-buddy',
      name: 'Onboarding buddy team',
      description: 'A small team for a new joiner, their manager and their buddy. For people in onboarding.',
      pictureUrl: badge('NEW', '#107C10'),
      language: 'en-US',
      translations: {
        fr: {
          name: 'Équipe de parrainage d’intégration',
          description:
            'Une petite équipe pour une nouvelle recrue, son manager et son parrain. Pour les personnes en intégration.',
        },
      },
      audienceTargeting: {
        enabled: true,
        rules: "user.groups.direct.some(group => group.displayName.includes('Onboarding'))",
        rulesWithTags: "Member of a group whose name contains 'Onboarding'",
      },
      permanentMembership: {
        owners: [personRef('Katharina Schäfer')],
        members: [personRef('Marcus Johnson')],
      },
    },
    newTeam: {
      namingConvention: 'ONB-<%= request.requester.name %>-<%= request.team.name %>',
      namingConventionWithTags: 'ONB-{Requester name}-{Team name}',
      defaultName: 'First 90 days',
      defaultWelcomeMessage:
        'Welcome aboard! Your checklist is in the General channel, your plan in its Planner tab.',
      teamPrivacy: 'private',
      tabs: [webTab('General', 'Onboarding checklist', 'onboarding-checklist')],
      // The plan of the first 90 days, tags and an app, built by the provisioning job (docs/guides/templates.md).
      planner: {
        buckets: [
          {
            name: 'First week',
            tasks: [
              {
                title: 'Set up your laptop and accounts',
                dueInDays: 1,
                checklist: ['Sign in to Teams and Outlook', 'Set up multifactor sign-in', 'Install the VPN'],
              },
              {
                title: 'Meet your buddy',
                dueInDays: 2,
                checklist: ['Book a coffee', 'Agree on a weekly check-in'],
              },
              { title: 'Read the employee handbook', dueInDays: 5 },
            ],
          },
          {
            name: 'First month',
            tasks: [
              { title: 'Shadow a customer meeting', dueInDays: 20 },
              {
                title: 'Complete the compliance training',
                dueInDays: 30,
                checklist: ['Security', 'Privacy', 'Ethics'],
              },
            ],
          },
          { name: 'First 90 days', tasks: [{ title: 'Review your goals with your manager', dueInDays: 90 }] },
        ],
        tab: { channel: 'General', displayName: 'First 90 days' },
      },
      tags: [
        { displayName: 'Buddies', description: 'Ask them anything.', members: 'owners' },
        { displayName: 'Cohort', members: 'everyone' },
      ],
      apps: [{ teamsAppId: '81fef3a6-72aa-4648-a763-de824aeafb7d', displayName: 'Forms' }],
    },
  },
  {
    templateConfiguration: {
      id: 'onboarding-cohort',
      name: 'Onboarding cohort',
      description: 'A copy of the onboarding template team, with its channels, tabs, apps and settings.',
      pictureUrl: badge('COH', '#00B294'),
      language: 'en-US',
      translations: {
        fr: {
          name: 'Promotion d’intégration',
          description:
            'Une copie de l’équipe modèle d’intégration, avec ses canaux, onglets, applications et paramètres.',
        },
      },
    },
    clonedTeam: {
      teamId: 'seed-team-onboarding-template',
      teamName: 'Onboarding template team',
      includeApps: true,
      includeTabs: true,
      includeSettings: true,
      includeChannels: true,
      includeMembers: false,
    },
    newTeam: {
      namingConvention: 'Cohort-<%= request.team.name %>',
      namingConventionWithTags: 'Cohort-{Team name}',
      defaultName: 'Spring 2026',
      teamPrivacy: 'private',
    },
  },
  {
    templateConfiguration: {
      id: 'contoso-internal',
      name: 'Contoso internal community',
      description: 'A community of practice for employees with a contoso.com or contoso.fr mailbox.',
      pictureUrl: badge('COP', '#5C2D91'),
      language: 'en-US',
      translations: {
        fr: {
          name: 'Communauté interne Contoso',
          description:
            'Une communauté de pratique pour les employés ayant une boîte aux lettres contoso.com ou contoso.fr.',
        },
      },
      audienceTargeting: {
        enabled: true,
        rules: '/@contoso\\.(com|fr)$/.test(user.mail)',
        rulesWithTags: 'Mail ends with @contoso.com or @contoso.fr',
      },
    },
    newTeam: {
      namingConvention: 'COP-<%= request.team.name %>',
      namingConventionWithTags: 'COP-{Team name}',
      teamPrivacy: 'public',
      addRequesterAsTeamOwner: true,
      channels: [{ displayName: 'Questions' }, { displayName: 'Events' }],
    },
  },
  {
    templateConfiguration: {
      id: 'legal-matter',
      name: 'Legal matter',
      description: 'A private, highly confidential team for a legal matter. Legal department only.',
      pictureUrl: badge('LGL', '#D13438'),
      language: 'en-US',
      translations: {
        fr: {
          name: 'Dossier juridique',
          description:
            'Une équipe privée et hautement confidentielle pour un dossier juridique. Département juridique uniquement.',
        },
      },
      audienceTargeting: {
        enabled: true,
        rules: "user.department === 'Legal'",
        rulesWithTags: 'Department is Legal',
      },
      permanentMembership: {
        owners: [personRef('Adele Vance'), personRef('Lynne Robbins')],
        members: [],
      },
      sensitivityLabelId: SEED_LABEL_IDS.highlyConfidential,
      minimumOwners: 2,
    },
    newTeam: {
      namingConvention: 'LGL-<%= request.team.name %>',
      namingConventionWithTags: 'LGL-{Team name}',
      descriptionConvention: 'Matter <%= Date.now() %> - <%= request.team.description %>',
      descriptionConventionWithTags: 'Matter {Timestamp} - {Team description}',
      defaultDescription: 'Privileged and confidential',
      teamPrivacy: 'private',
      addRequesterAsTeamOwner: true,
      channels: [
        { displayName: 'Correspondence' },
        { displayName: 'Privileged', description: 'Attorney-client privileged.', membershipType: 'private' },
      ],
    },
  },
  {
    templateConfiguration: {
      id: 'communaute-francophone',
      name: 'Communauté francophone',
      description: 'Une communauté pour les collègues qui travaillent en français, partout dans le monde.',
      pictureUrl: badge('FR', '#0063B1'),
      language: 'fr-FR',
      translations: {
        en: {
          name: 'French-speaking community',
          description: 'A community for colleagues who work in French, all over the world.',
        },
      },
      audienceTargeting: {
        enabled: true,
        rules: "user.preferredLanguage.startsWith('fr-')",
        rulesWithTags: 'Langue préférée : français',
      },
    },
    newTeam: {
      namingConvention: 'FR-<%= request.team.name.trim() %>',
      namingConventionWithTags: 'FR-{Nom de l’équipe}',
      defaultName: 'Entraide',
      teamPrivacy: 'public',
    },
  },
  {
    templateConfiguration: {
      id: 'it-announcements',
      name: 'IT announcements',
      description: 'The one tenant-wide IT announcements team. Only one may exist; IT Admins request it.',
      pictureUrl: badge('IT', '#4F6BED'),
      language: 'en-US',
      translations: {
        fr: {
          name: 'Annonces informatiques',
          description:
            'L’unique équipe d’annonces informatiques de toute l’organisation. Une seule peut exister ; les administrateurs informatiques la demandent.',
        },
      },
      singleton: true,
      audienceTargeting: {
        enabled: true,
        rules: "user.groups.direct.some(group => group.displayName === 'IT Admins')",
        rulesWithTags: "Member of the group 'IT Admins'",
      },
      permanentMembership: {
        owners: [personRef('Megan Bowen'), personRef('Patti Fernandez')],
        members: [],
      },
      sensitivityLabelId: SEED_LABEL_IDS.general,
    },
    newTeam: {
      defaultName: 'IT announcements',
      defaultDescription: 'Service changes, maintenance windows and incidents.',
      teamPrivacy: 'public',
      channels: [{ displayName: 'Maintenance' }, { displayName: 'Incidents' }],
    },
  },
  {
    templateConfiguration: {
      id: 'classic-community',
      name: 'Classic community (retired)',
      description: 'Retired: use Contoso internal community instead.',
      pictureUrl: badge('OLD', '#6E6E6E'),
      language: 'en-US',
      translations: {
        fr: {
          name: 'Communauté classique (retirée)',
          description: 'Retirée : utilisez plutôt la communauté interne Contoso.',
        },
      },
      enabled: false,
    },
    newTeam: {
      namingConvention: 'COMM-<%= request.team.name %>',
      namingConventionWithTags: 'COMM-{Team name}',
      teamPrivacy: 'public',
    },
  },
  stagedTemplate,
];
