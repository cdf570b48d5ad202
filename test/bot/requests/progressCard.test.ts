import { renderProgressCard } from '../../../src/bot/requests/progressCard';
import { progressCardData } from '../../../src/bot/requests/progressCardData';
import { renderMyRequestsCard } from '../../../src/bot/requests/myRequestsCard';
import { readerOf } from '../../../src/bot/i18n/catalog';
import type { Job, JobWaitReason } from '../../../src/client';
import { stepStatuses } from '../../../src/domain/jobs';
import { teamArchiveJob } from '../../../src/services/teams/teamArchiveJob';
import { cardJson, executeActions, expectValidCard, findAll } from '../cards/cardAssertions';
import { provisioningJob } from '../cards/sampleData';

const PICTURE = 'https://contoso.example/pictures/client-engagement.png';
const WEB_URL =
  'https://teams.microsoft.com/l/team/19%3aabc%40thread.tacv2/conversations?groupId=1&tenantId=2';

const render = (job: ReturnType<typeof provisioningJob>) =>
  renderProgressCard(progressCardData(job, PICTURE));
const steps = (card: ReturnType<typeof render>) =>
  findAll(card.content, 'ColumnSet')
    .map((set) => (set.columns as { items: { text?: string }[] }[]).map((column) => column.items[0]?.text))
    .filter((texts) => texts.length === 3)
    .map(([, title, state]) => `${title}: ${state}`);
/** The progress bar: a picture, with its text equivalent for screen readers. */
const bar = (card: ReturnType<typeof render>) => {
  const image = findAll(card.content, 'Image').find((node) => String(node.url).startsWith('data:image/svg'))!;
  const svg = Buffer.from(String(image.url).split(',')[1]!, 'base64').toString();
  const filled = /<rect width="(\d+)" height="8" rx="4" fill="#(?!8a8886)/.exec(svg)?.[1];
  return { altText: image.altText, filled: Number(filled ?? 0) };
};
/** Each step's picture's text equivalent, in order. */
const stepIcons = (card: ReturnType<typeof render>) =>
  findAll(card.content, 'Column')
    .filter((column) => column.width === 'auto')
    .map((column) => (column.items as Record<string, unknown>[])[0])
    .filter((item) => item?.type === 'Image' && String(item.width) === '16px')
    .map((item) => item!.altText);

describe('progress card', () => {
  it('waits for approval by the approvers, naming them', () => {
    const card = render(provisioningJob());
    expectValidCard(card);
    const json = cardJson(card);
    // Either approver settles the stage: the card does not read as if both had to.
    expect(json).toContain("Waiting for approval by any one of Adele Vance and Siobhán O'Connor");
    expect(json).toContain('CLI-BE-Fabrikam');
    expect(json).toContain(PICTURE);
    expect(steps(card)).toEqual([
      'Approval: In progress',
      'Create the team: Waiting',
      'Apply the team settings: Waiting',
      'Create channels: Waiting',
      'Create tabs: Waiting',
      'Add owners and members: Waiting',
      'Post the welcome message: Waiting',
      'Create folders and starter files: Waiting',
      "Store the request's metadata: Waiting",
      'Finish: Waiting',
    ]);
    expect(bar(card)).toEqual({ altText: 'Progress: 0%', filled: 0 });
    expect(stepIcons(card)).toEqual(['In progress', ...Array<string>(9).fill('Waiting')]);
    expect(executeActions(card, 'showStatus')).toEqual([
      expect.objectContaining({ data: { jobId: 'job-7f3c' } }),
    ]);
  });

  it('shows the steps done so far, a proportional bar and the last log lines while it runs', () => {
    const log = Array.from({ length: 12 }, (_, i) => `Log line ${i + 1}.`);
    const card = render(
      provisioningJob({ status: 'active', progress: 60, done: 5, approval: 'approved', log }),
    );
    expectValidCard(card);
    expect(steps(card)).toEqual([
      'Approval: Done',
      'Create the team: Done',
      'Apply the team settings: Done',
      'Create channels: Done',
      'Create tabs: Done',
      'Add owners and members: Done',
      'Post the welcome message: In progress',
      'Create folders and starter files: Waiting',
      "Store the request's metadata: Waiting",
      'Finish: Waiting',
    ]);
    expect(bar(card)).toEqual({ altText: 'Progress: 60%', filled: 120 });
    const texts = findAll(card.content, 'TextBlock').map((block) => block.text);
    expect(texts.filter((text) => typeof text === 'string' && text.startsWith('Log line'))).toEqual([
      'Log line 8.',
      'Log line 9.',
      'Log line 10.',
      'Log line 11.',
      'Log line 12.',
    ]);
    // Formatted for the reader (English and UTC by default), not left to the client.
    expect(cardJson(card)).toContain('60% · updated May 4, 2026, 9:31 AM');
  });

  it('says what the job waits for while Microsoft Teams works, in the reader’s language', () => {
    const waiting = (reason: JobWaitReason) =>
      provisioningJob({
        status: 'active',
        progress: 0,
        approval: null,
        waitingFor: {
          step: 'team',
          reason,
          description: 'ignored by the bot',
          sinceDateTime: '2026-05-04T09:31:00.000Z',
          nextCheckDateTime: '2026-05-04T09:31:31.000Z',
        },
      });
    const card = render(waiting('teamCreation'));
    expectValidCard(card);
    expect(cardJson(card)).toContain('Microsoft Teams is creating the team');
    expect(steps(card)[0]).toBe('Create the team: In progress');
    expect(cardJson(render(waiting('teamClone')))).toContain(
      'Waiting for Microsoft Teams to finish copying the team',
    );
    const french = renderProgressCard(
      progressCardData(waiting('teamCreation'), PICTURE),
      readerOf('fr-FR', 'Europe/Paris'),
    );
    expect(cardJson(french)).toContain('Microsoft Teams crée l’équipe');
    // Without a wait (or with one this bot does not know yet), the plain headline.
    expect(cardJson(render(provisioningJob({ status: 'active', approval: null })))).toContain(
      'Creating the team',
    );
    const unknown = {
      ...waiting('teamCreation'),
      waitingFor: { ...waiting('teamCreation').waitingFor!, reason: 'somethingNew' as JobWaitReason },
    };
    expect(cardJson(render(unknown))).toContain('Creating the team');
  });

  it('ends with "Open team" to the team once completed', () => {
    const card = render(
      provisioningJob({ status: 'completed', progress: 100, approval: null, webUrl: WEB_URL }),
    );
    expectValidCard(card);
    expect(cardJson(card)).toContain('Your team is ready');
    expect(findAll(card.content, 'Action.OpenUrl')).toEqual([
      expect.objectContaining({ title: 'Open team', url: WEB_URL }),
    ]);
    expect(findAll(card.content, 'Action.Execute')).toEqual([]);
    expect(bar(card)).toEqual({ altText: 'Progress: 100%', filled: 200 });
  });

  it('says when the team was made without its sensitivity label, with "Apply the label" for an owner', () => {
    const job = (requesterOwns: boolean) => {
      const done = provisioningJob({ status: 'completed', progress: 100, approval: null, webUrl: WEB_URL });
      const data = done.data as Record<string, unknown> & { plan: Record<string, unknown> };
      return {
        ...done,
        data: {
          ...data,
          plan: {
            ...data.plan,
            members: [{ id: requesterOwns ? 'alex-wilber-id' : 'someone-else', role: 'owner' }],
          },
          label: { id: 'label-1', status: 'missing', reason: 'No delegated grant was kept for it.' },
        },
      };
    };
    const card = render(job(true));
    expectValidCard(card);
    expect(cardJson(card)).toContain('The team was made without its sensitivity label');
    expect(executeActions(card, 'applyLabel')).toEqual([
      expect.objectContaining({
        title: 'Apply the label',
        data: { teamId: 'team-1', teamName: 'CLI-BE-Fabrikam', jobId: 'job-7f3c' },
      }),
    ]);
    const french = renderProgressCard(progressCardData(job(true), PICTURE), readerOf('fr', 'Europe/Paris'));
    expectValidCard(french);
    expect(cardJson(french)).toContain('L’équipe a été créée sans son étiquette de confidentialité');
    expect(executeActions(french, 'applyLabel')).toEqual([
      expect.objectContaining({ title: 'Appliquer l’étiquette' }),
    ]);
    // A requester who is not an owner is told, without a button that would refuse them.
    const notOwner = render(job(false));
    expect(cardJson(notOwner)).toContain('An owner can apply it now.');
    expect(executeActions(notOwner, 'applyLabel')).toEqual([]);
    // A label that went on says nothing.
    const applied = provisioningJob({ status: 'completed', progress: 100, approval: null, webUrl: WEB_URL });
    expect(cardJson(render(applied))).not.toContain('sensitivity label');
  });

  it('shows the failure reason and "Try again" when it failed, never a stack trace', () => {
    const card = render(
      provisioningJob({
        status: 'failed',
        progress: 35,
        done: 2,
        approval: null,
        failedReason: 'The platform refused the channel name.\n    at createChannel (graph.ts:10:5)',
      }),
    );
    expectValidCard(card);
    const json = cardJson(card);
    expect(json).toContain('The request failed');
    expect(json).toContain('The platform refused the channel name.');
    expect(json).not.toContain('graph.ts');
    expect(steps(card)).toContain('Create channels: Failed');
    expect(steps(card)).toContain('Create tabs: Waiting');
    expect(executeActions(card, 'retryRequest')).toEqual([
      expect.objectContaining({ data: { jobId: 'job-7f3c' } }),
    ]);
    expect(findAll(card.content, 'Action.OpenUrl')).toEqual([]);
  });

  it('writes percentages one way on the card and in the list: "40%" in English, "40 %" in French', () => {
    const job = provisioningJob({ status: 'active', approval: null, progress: 40 });
    const texts = (locale: string) => {
      const reader = readerOf(locale, 'UTC');
      return [
        cardJson(renderProgressCard(progressCardData(job, PICTURE), reader)),
        cardJson(renderMyRequestsCard({ jobs: [job] }, reader)),
      ];
    };
    for (const json of texts('fr-FR')) {
      expect(json).toContain('40\u202f%');
      expect(json).not.toMatch(/40(%| %)/);
    }
    const [card, list] = texts('fr-FR');
    expect(card).toContain('Avancement : 40\u202f%');
    expect(card).toContain('(40\u202f%)');
    expect(list).toContain('· 40\u202f%');
    for (const json of texts('en-US')) expect(json).toContain('40%');
  });

  it.each([
    ['English', 'en-US', /withdr/i],
    ['French', 'fr-FR', /retir/i],
  ])('%s: draws a withdrawal in no red, unlike a failure', (_, locale, words) => {
    const job = provisioningJob({
      status: 'failed',
      approval: 'withdrawn',
      progress: 10,
      steps: [{ title: 'Approval', status: 'failed' }] as Job['steps'],
    });
    const card = renderProgressCard(progressCardData(job, PICTURE), readerOf(locale, 'UTC'));
    const svg = findAll(card.content, 'Image')
      .map((image) => String(image.url))
      .filter((url) => url.startsWith('data:image/svg'))
      .map((url) => Buffer.from(url.split(',')[1]!, 'base64').toString())
      .join('');
    expect(cardJson(card)).toMatch(words);
    expect(svg).not.toContain('#d13438');
    expect(cardJson(card)).not.toMatch(/"(color|style)":"attention"/);
  });

  it('shows a rejection as such, with the approver and the message, and skips the work', () => {
    const card = render(
      provisioningJob({
        status: 'failed',
        approval: 'rejected',
        failedReason: 'Rejected by Adele Vance: use the existing team.',
      }),
    );
    expectValidCard(card);
    expect(cardJson(card)).toContain('The request was rejected');
    expect(cardJson(card)).toContain('Rejected by Adele Vance: use the existing team.');
    // The steps the rejection skipped did not apply: only the approval is listed.
    expect(steps(card)).toEqual(['Approval: Rejected']);
  });

  it('follows archive jobs with their single step', () => {
    const job = provisioningJob({
      type: 'TeamArchiveRequest',
      status: 'active',
      progress: 10,
      approval: null,
    });
    const data = { action: 'archive', team: { id: 't', displayName: 'Fabrikam' } };
    const card = render({
      ...job,
      data,
      steps: stepStatuses(teamArchiveJob.steps(data), { status: 'active', checkpoint: { done: [] } }),
    });
    expectValidCard(card);
    expect(steps(card)).toEqual(['Archive the team: In progress', 'Finish: Waiting']);
    expect(cardJson(card)).toContain('Fabrikam');
  });

  it('stays under 28 KB with long names and log lines', () => {
    const log = Array.from({ length: 500 }, () => '🚀'.repeat(2000));
    const job = provisioningJob({ status: 'active', progress: 50, log });
    const card = renderProgressCard({ ...progressCardData(job, PICTURE), teamName: '€'.repeat(256) });
    expectValidCard(card);
  });

  it('says "each of" when every approver of the stage must approve, and one name alone as it is', () => {
    const job = provisioningJob();
    const approval = (job.data as { approval: Record<string, unknown> }).approval;
    const stage = (decision: 'any' | 'all', approvers: unknown[]): Job => ({
      ...job,
      data: {
        ...job.data,
        approval: {
          ...approval,
          approvers,
          stages: [{ id: 'approval-42', name: 'Managers', decision, approvers, status: 'pending' }],
        },
      } as Job['data'],
    });
    const both = (approval.approvers as unknown[]).slice(0, 2);
    expect(cardJson(render(stage('all', both)))).toContain(
      "Waiting for approval by each of Adele Vance and Siobhán O'Connor",
    );
    expect(cardJson(render(stage('any', both)))).toContain(
      "Waiting for approval by any one of Adele Vance and Siobhán O'Connor",
    );
    expect(cardJson(render(stage('all', both.slice(0, 1))))).toContain(
      'Waiting for approval by Adele Vance"',
    );
  });

  it('gives every visual state a text equivalent: no symbol a screen reader spells out', () => {
    const card = render(provisioningJob({ status: 'active', progress: 40, done: 3, approval: 'approved' }));
    const json = cardJson(card);
    // ■□ and emoji were read one by one ("black square, black square…", "check mark button").
    expect(json).not.toMatch(/[■□✅⏳⚪❌➖⛔]/u);
    expect(bar(card).altText).toBe('Progress: 40%');
    expect(stepIcons(card)).toEqual([
      'Done',
      'Done',
      'Done',
      'Done',
      'In progress',
      'Waiting',
      'Waiting',
      'Waiting',
      'Waiting',
      'Waiting',
    ]);
    for (const image of findAll(card.content, 'Image')) expect(String(image.altText ?? '')).not.toBe('');
  });

  it('hides the steps that did not apply, and says states that agree with the French steps', () => {
    const job = provisioningJob({
      status: 'completed',
      progress: 100,
      approval: 'approved',
      webUrl: WEB_URL,
    });
    const skipped = {
      ...job,
      steps: job.steps.map((step) =>
        step.name === 'metadata' || step.name === 'welcome' ? { ...step, status: 'skipped' as const } : step,
      ),
    };
    const english = render(skipped);
    expect(steps(english)).not.toContainEqual(expect.stringContaining("Store the request's metadata"));
    expect(steps(english)).not.toContainEqual(expect.stringContaining('Skipped'));
    expect(steps(english)).toContain('Approval: Done');
    const french = renderProgressCard(progressCardData(skipped, PICTURE), readerOf('fr-FR', 'Europe/Paris'));
    expect(steps(french)).toContain('Approbation: Terminée');
    expect(steps(french)).toContain('Ajout des propriétaires et des membres: Terminé');
    expect(bar(french).altText).toBe('Avancement : 100\u202f%');
  });

  it('shows no request id, and quotes the approver French-style for a French reader', () => {
    const job = provisioningJob({ status: 'waiting', approval: 'approved' });
    const data = progressCardData(job, PICTURE);
    const decided = {
      ...data,
      decision: { outcome: 'approved' as const, by: 'Adele Vance', message: 'Bien vu' },
    };
    const texts = findAll(renderProgressCard(decided).content, 'TextBlock').map((b) => String(b.text));
    expect(texts.join('\n')).not.toMatch(/Request id|job-7f3c/);
    expect(texts).toContain('“Bien vu”');
    const french = renderProgressCard(decided, readerOf('fr-FR', 'Europe/Paris'));
    expect(findAll(french.content, 'TextBlock').map((b) => b.text)).toContain('« Bien vu »');
    expect(cardJson(french)).not.toContain('Identifiant');
  });
});
