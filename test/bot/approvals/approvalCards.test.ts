import {
  MAX_REFRESH_USERS,
  renderApprovalCard,
  type ApprovalCardData,
} from '../../../src/bot/approvals/approvalCard';
import { renderApprovalDecidedCard } from '../../../src/bot/approvals/approvalDecidedCard';
import { renderApprovalReadOnlyCard } from '../../../src/bot/approvals/approvalReadOnlyCard';
import { cardJson, executeActions, expectValidCard, findAll } from '../cards/cardAssertions';
import { APPROVERS, REQUESTER } from '../cards/sampleData';

const PICTURE = 'https://contoso.example/pictures/client-engagement.png';

const request: ApprovalCardData = {
  approvalId: 'approval-42',
  teamName: 'CLI-BE-Fabrikam',
  template: { name: 'Client engagement', pictureUrl: PICTURE },
  requester: { name: REQUESTER.displayName, mail: REQUESTER.mail },
  approvers: APPROVERS.map(({ name, teamsUserId }) => ({ name, teamsUserId })),
  description: 'Engagement with Fabrikam, requested by AlexW@contoso.example',
  requestedAt: '2026-05-04T09:30:12.345Z',
  privacy: 'private',
  owners: ['Alex Wilber', 'Megan Bowen'],
  members: [],
};

describe('approval card (approver view)', () => {
  it('shows the request: final name, template picture, requester and approvers', () => {
    const card = renderApprovalCard(request);
    expectValidCard(card);
    const json = cardJson(card);
    expect(json).toContain('Alex Wilber asks for a new team **CLI-BE-Fabrikam**.');
    expect(json).toContain('Alex Wilber (AlexW@contoso.example)');
    expect(json).toContain("Adele Vance and Siobhán O'Connor");
    expect(json).toContain('Alex Wilber and Megan Bowen');
    expect(json).toContain(
      'Requested on {{DATE(2026-05-04T09:30:12Z, SHORT)}} at {{TIME(2026-05-04T09:30:12Z)}}',
    );
    expect(findAll(card.content, 'Image')[0]?.url).toBe(PICTURE);
    const facts = findAll(card.content, 'FactSet').flatMap((set) => set.facts as { title: string }[]);
    expect(facts.map((fact) => fact.title)).not.toContain('Members');
  });

  it('says whether any one approver decides or each must approve, in English and French', () => {
    const FRENCH = { language: 'fr' as const, locale: 'fr-FR', timeZone: 'Europe/Paris' };
    const approvers = (mode: 'any' | 'all', reader?: typeof FRENCH) =>
      cardJson(renderApprovalCard({ ...request, mode }, reader));
    expect(approvers('any')).toContain('"Any one of Adele Vance and Siobhán O\'Connor decides"');
    expect(approvers('all')).toContain('"Each of Adele Vance and Siobhán O\'Connor must approve"');
    expect(approvers('all', FRENCH)).toContain(
      '"Chacune de ces personnes doit approuver : Adele Vance et Siobhán O\'Connor"',
    );
    const one = cardJson(renderApprovalCard({ ...request, approvers: request.approvers.slice(0, 1) }));
    expect(one).toContain('"value":"Adele Vance"');
  });

  it('offers a comment and Approve / Reject with the approval id', () => {
    const card = renderApprovalCard(request);
    const inputs = findAll(card.content, 'Input.Text');
    expect(inputs).toEqual([
      expect.objectContaining({ id: 'teamName', value: expect.any(String) }),
      expect.objectContaining({ id: 'comment', value: '' }),
    ]);
    // No maxLength: Teams cut pasted text at it without a word; the bot says what is too long instead.
    for (const text of inputs) expect(text).not.toHaveProperty('maxLength');
    for (const verb of ['approve', 'reject']) {
      expect(executeActions(card, verb)).toEqual([
        expect.objectContaining({ associatedInputs: 'auto', data: { approvalId: 'approval-42' } }),
      ]);
    }
  });

  it('refreshes automatically for every approver the bot knows, at most 60', () => {
    expect(renderApprovalCard(request).content.refresh).toEqual({
      action: expect.objectContaining({
        type: 'Action.Execute',
        verb: 'refreshApproval',
        data: { approvalId: 'approval-42' },
      }),
      userIds: ['29:adele-vance-mri', '29:siobhan-mri'],
    });
    const many = Array.from({ length: 80 }, (_, i) => ({
      name: `Approver ${i}`,
      teamsUserId: i === 3 ? null : `29:a-${i}`,
    }));
    const card = renderApprovalCard({ ...request, approvers: many });
    expectValidCard(card);
    expect(card.content.refresh?.userIds).toHaveLength(MAX_REFRESH_USERS);
    expect(card.content.refresh?.userIds).not.toContain(null);
  });
});

/** The request's decided card (`outcome` by `decidedBy` at `decidedAt`, with `message`), checked valid. */
function decided(
  outcome: 'approved' | 'rejected',
  decidedBy: string,
  decidedAt: string,
  message: string | null,
  expired?: boolean,
) {
  const card = renderApprovalDecidedCard({ ...request, outcome, decidedBy, decidedAt, message, expired });
  expectValidCard(card);
  return card;
}

describe('approval decided card', () => {
  it('tells every approver who decided, when, with what message and the outcome', () => {
    const card = decided(
      'approved',
      'Adele Vance',
      '2026-05-04T10:02:00.000Z',
      'Go ahead, the contract is signed.',
    );
    const json = cardJson(card);
    expect(json).toContain('"Approved"');
    expect(json).toContain(
      'Adele Vance approved **CLI-BE-Fabrikam** on {{DATE(2026-05-04T10:02:00Z, SHORT)}}',
    );
    expect(json).toContain('Go ahead, the contract is signed.');
    expect(findAll(card.content, 'Action.Execute').filter((a) => a.verb !== 'refreshApproval')).toEqual([]);
    expect(card.content.refresh?.userIds).toEqual(['29:adele-vance-mri', '29:siobhan-mri']);
  });

  it('shows a rejection without a message', () => {
    const card = decided('rejected', "Siobhán O'Connor", '2026-05-04T10:02:00Z', null);
    expect(cardJson(card)).toContain("Siobhán O'Connor rejected **CLI-BE-Fabrikam**");
    // The outcome sits in a semantic "attention" container, readable in every Teams theme.
    expect(cardJson(card)).toMatch(
      /"style":"attention","bleed":true,"items":\[\{"type":"TextBlock","text":"Rejected"/,
    );
  });
});

describe('approval read-only card', () => {
  it('tells someone outside the approval team who decides, without buttons', () => {
    const card = renderApprovalReadOnlyCard({
      ...request,
      decision: { status: 'pending' },
      reason: 'notApprover',
    });
    expectValidCard(card);
    const json = cardJson(card);
    // Either approver settles it; with `all`, each must approve; one approver is just named.
    expect(json).toContain("Waiting for a decision by any one of Adele Vance and Siobhán O'Connor.");
    const each = (mode: 'any' | 'all', approvers = request.approvers) =>
      cardJson(
        renderApprovalReadOnlyCard({
          ...request,
          approvers,
          mode,
          decision: { status: 'pending' },
          reason: 'notApprover',
        }),
      );
    expect(each('all')).toContain("Waiting for the approval of each of Adele Vance and Siobhán O'Connor.");
    expect(each('all', request.approvers.slice(0, 1))).toContain('Waiting for a decision by Adele Vance.');
    expect(json).toContain("Only this template's approval team");
    expect(findAll(card.content, 'Action.Execute')).toEqual([]);
    expect(findAll(card.content, 'Input.Text')).toEqual([]);
  });

  it('answers a second click with the decision already made', () => {
    const card = renderApprovalReadOnlyCard({
      ...request,
      decision: { status: 'approved', decidedBy: 'Adele Vance' },
      reason: 'alreadyDecided',
    });
    expectValidCard(card);
    expect(cardJson(card)).toContain('Approved by Adele Vance.');
    expect(cardJson(card)).toContain('already been decided');
  });
});

describe('stage notes and the expired card', () => {
  const FRENCH = { language: 'fr' as const, locale: 'fr-FR', timeZone: 'Europe/Paris' };
  const staged: ApprovalCardData = {
    ...request,
    stageNotes: [
      { kind: 'stage', number: 2, count: 3, stage: 'Legal' },
      { kind: 'earlier', stage: 'Manager', name: '', comment: 'Fine by me' },
      { kind: 'escalatedLate', stage: 'Legal', hours: 72 },
      // A note stored as written by an earlier version of the bot is shown as it is.
      'Stage 2 of 3: Legal',
    ],
  };

  it('draws each note in the reader’s language', () => {
    const english = renderApprovalCard(staged);
    expectValidCard(english);
    const lines = findAll(english.content, 'TextBlock').map((block) => String(block.text));
    expect(lines).toEqual(
      expect.arrayContaining([
        'Stage 2 of 3: Legal',
        'Manager: approved by an approver: “Fine by me”',
        'This request came to you because nobody decided on stage “Legal” within 72 hours.',
      ]),
    );
    const french = findAll(renderApprovalCard(staged, FRENCH).content, 'TextBlock').map((b) =>
      String(b.text),
    );
    expect(french).toEqual(
      expect.arrayContaining([
        'Étape 2 sur 3 : Legal',
        'Manager : approuvée par un approbateur : « Fine by me »',
        'Cette demande vous parvient car personne n’a décidé de l’étape « Legal » en 72 heures.',
        'Stage 2 of 3: Legal',
      ]),
    );
  });

  it('says an expired request expired, with no decider and no button', () => {
    const card = decided('rejected', '', '2026-05-09T09:30:00.000Z', null, true);
    const json = cardJson(card);
    expect(json).toContain('"text":"Expired"');
    expect(json).toContain('Nobody decided on **CLI-BE-Fabrikam** in time: the request expired on');
    expect(json).not.toContain('rejected');
    expect(executeActions(card, 'approve')).toEqual([]);
  });
});
