import { MY_REQUESTS_SHOWN, renderMyRequestsCard } from '../../../src/bot/requests/myRequestsCard';
import { renderConfirmationCard } from '../../../src/bot/requests/confirmationCard';
import { readerOf } from '../../../src/bot/i18n/catalog';
import { cardJson, executeActions, expectValidCard, findAll } from '../cards/cardAssertions';
import { APPROVERS, provisioningJob } from '../cards/sampleData';

describe('confirmation card', () => {
  it('confirms the final team name and the approvers, and points to the request’s one living card', () => {
    const card = renderConfirmationCard({
      jobId: 'job-7f3c',
      teamName: 'CLI-BE-Fabrikam',
      templateName: 'Client engagement',
      pictureUrl: 'https://contoso.example/pictures/client-engagement.png',
      requestedAt: '2026-05-04T09:30:12.345Z',
      approverNames: APPROVERS.map((a) => a.name),
    });
    expectValidCard(card);
    const json = cardJson(card);
    expect(json).toContain('Your team will be called **CLI-BE-Fabrikam**.');
    // Either approver is enough: "Adele Vance and Siobhán O'Connor will decide" read as if both had to.
    expect(json).toContain("approval from any one of Adele Vance and Siobhán O'Connor");
    expect(json).not.toMatch(/Request id|job-7f3c(?!")/);
    expect(json).toContain('https://contoso.example/pictures/client-engagement.png');
    expect(json).toContain('Requested on May 4, 2026, 9:30 AM');
    expect(json).toContain('I keep the request’s card below up to date.');
    // No Status of its own: it would make a second living card of the request.
    expect(executeActions(card, 'showStatus')).toEqual([]);
  });

  it('says no approval is needed when there are no approvers', () => {
    const card = renderConfirmationCard({
      jobId: 'j',
      teamName: 'PRJ-Falcon',
      templateName: 'Project team',
      pictureUrl: null,
      requestedAt: 'not a date',
      approverNames: [],
    });
    expectValidCard(card);
    expect(cardJson(card)).toContain('No approval needed');
    expect(findAll(card.content, 'Image')).toEqual([]);
  });

  it('names who approves at every stage of a staged policy, in English and French', () => {
    const data = {
      jobId: 'j',
      teamName: 'PTR-Fabrikam',
      templateName: 'Shared partner workspace',
      pictureUrl: null,
      requestedAt: '2026-05-04T09:30:12.345Z',
      // The open stage's approvers only: the stages say who comes after.
      approverNames: ['Adele Vance'],
      stages: [
        { name: 'Legal', mode: 'any' as const, approverNames: ['Adele Vance'] },
        { name: 'Compliance', mode: 'any' as const, approverNames: ['Lynne Robbins', 'Megan Bowen'] },
        { name: '', mode: 'all' as const, approverNames: ['Isaiah Langer', 'Megan Bowen'] },
      ],
    };
    const facts = (card: ReturnType<typeof renderConfirmationCard>) =>
      findAll(card.content, 'FactSet').flatMap((set) => set.facts as Array<{ title: string; value: string }>);
    const english = renderConfirmationCard(data);
    expectValidCard(english);
    expect(cardJson(english)).toContain('This template needs approval in 3 stages, one after the other.');
    expect(facts(english)).toEqual([
      { title: 'Template', value: 'Shared partner workspace' },
      { title: 'Stage 1: Legal', value: 'Adele Vance' },
      { title: 'Stage 2: Compliance', value: 'Any one of Lynne Robbins and Megan Bowen decides' },
      { title: 'Stage 3', value: 'Each of Isaiah Langer and Megan Bowen must approve' },
    ]);
    expect(cardJson(english)).not.toContain('No approval needed');
    const french = renderConfirmationCard(data, readerOf('fr-FR', 'Europe/Paris'));
    expect(cardJson(french)).toContain('Ce modèle demande une approbation en 3 étapes, l’une après l’autre.');
    expect(facts(french)).toEqual([
      { title: 'Modèle', value: 'Shared partner workspace' },
      { title: 'Étape 1 : Legal', value: 'Adele Vance' },
      {
        title: 'Étape 2 : Compliance',
        value: 'Une seule de ces personnes décide : Lynne Robbins et Megan Bowen',
      },
      { title: 'Étape 3', value: 'Chacune de ces personnes doit approuver : Isaiah Langer et Megan Bowen' },
    ]);
  });

  it('names the template in the reader’s language, as the request recorded it', () => {
    const data = {
      jobId: 'j',
      teamName: 'CLI-BE-Fabrikam',
      templateName: 'Client engagement',
      templateTranslations: { fr: { name: 'Mission client' } },
      pictureUrl: null,
      requestedAt: '2026-05-04T09:30:12.345Z',
      approverNames: [],
    };
    expect(cardJson(renderConfirmationCard(data))).toContain('"value":"Client engagement"');
    expect(cardJson(renderConfirmationCard(data, readerOf('fr-CA', 'UTC')))).toContain(
      '"value":"Mission client"',
    );
  });
});

describe('my requests card', () => {
  it('lists recent requests newest first with name, template, state, progress, date and a Status button', () => {
    const jobs = [
      provisioningJob({
        id: 'old',
        createdDateTime: '2026-05-01T08:00:00.000Z',
        status: 'completed',
        progress: 100,
        approval: 'approved',
      }),
      provisioningJob({ id: 'new', createdDateTime: '2026-05-04T09:30:12.345Z' }),
      provisioningJob({
        id: 'mid',
        createdDateTime: '2026-05-02T08:00:00.000Z',
        status: 'failed',
        approval: 'rejected',
      }),
    ];
    const card = renderMyRequestsCard({ jobs });
    expectValidCard(card);
    expect(executeActions(card, 'showStatus').map((action) => action.data)).toEqual([
      { jobId: 'new', newCard: true },
      { jobId: 'mid', newCard: true },
      { jobId: 'old', newCard: true },
    ]);
    const texts = findAll(card.content, 'TextBlock').map((block) => block.text);
    expect(texts).toEqual(
      expect.arrayContaining([
        'CLI-BE-Fabrikam',
        'Client engagement · May 4, 2026, 9:30 AM',
        'Waiting for approval · 0%',
        'Rejected · 0%',
        'Ready · 100%',
      ]),
    );
  });

  it('counts the older requests it leaves off, and stays under 28 KB', () => {
    const jobs = Array.from({ length: 40 }, (_, i) =>
      provisioningJob({
        id: `job-${i}`,
        createdDateTime: `2026-05-${String(1 + (i % 28)).padStart(2, '0')}T00:00:00Z`,
      }),
    );
    const card = renderMyRequestsCard({ jobs });
    expectValidCard(card);
    expect(executeActions(card, 'showStatus')).toHaveLength(MY_REQUESTS_SHOWN);
    expect(cardJson(card)).toContain(`And ${40 - MY_REQUESTS_SHOWN} older requests.`);
    expect(cardJson(card)).not.toContain('(s)');
  });

  it('says the count of older requests with its real plural, in English and in French', () => {
    const jobs = (count: number) =>
      Array.from({ length: MY_REQUESTS_SHOWN + count }, (_, i) => provisioningJob({ id: `job-${i}` }));
    const french = readerOf('fr-FR', 'Europe/Paris');
    expect(cardJson(renderMyRequestsCard({ jobs: jobs(1) }))).toContain('And 1 older request.');
    expect(cardJson(renderMyRequestsCard({ jobs: jobs(1) }, french))).toContain(
      'Et 1 demande plus ancienne.',
    );
    expect(cardJson(renderMyRequestsCard({ jobs: jobs(3) }, french))).toContain(
      'Et 3 demandes plus anciennes.',
    );
  });

  it('invites a first request when there is none', () => {
    const card = renderMyRequestsCard({ jobs: [] });
    expectValidCard(card);
    expect(cardJson(card)).toContain('You have not requested a team yet.');
    expect(executeActions(card, 'requestTeam')).toHaveLength(1);
  });
});
