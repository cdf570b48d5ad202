import { asksToWithdraw, requestNamedIn } from '../../../src/bot/understanding/requestNamed';
import { words } from '../../../src/bot/understanding/text';

/** A person's requests, as `GET /me/jobs` names them (the convention's prefix on the team's name). */
const REQUESTS = [
  { jobId: 'j-harbor', teamName: 'PRJ-Harbor Lights Festival', requestedName: 'Harbor Lights Festival' },
  { jobId: 'j-wingtip', teamName: 'CLI-US-Wingtip Toys', requestedName: 'Wingtip Toys' },
  { jobId: 'j-sap', teamName: 'PRJ-Migration SAP', requestedName: 'Migration SAP' },
  { jobId: 'j-woodgrove', teamName: 'PTR-Contoso x Woodgrove', requestedName: 'Contoso x Woodgrove' },
  { jobId: 'j-gare', teamName: 'PRJ-Rénovation Gare Nord', requestedName: 'Rénovation Gare Nord' },
  { jobId: 'j-paie', teamName: 'PRJ-Paie 2027', requestedName: 'Paie 2027' },
];

const asked = (text: string) => requestNamedIn(text, REQUESTS);

describe('a request of the person named by part of its team’s name', () => {
  test.each([
    ['has Wingtip been signed off?', 'j-wingtip'],
    ['any update on the harbor lights thing', 'j-harbor'],
    ['what became of Woodgrove', 'j-woodgrove'],
    ['is the SAP migration live yet?', 'j-sap'],
    ['wingtip toys — still pending?', 'j-wingtip'],
    ['la rénovation de la gare nord, c’est validé ?', 'j-gare'],
    ['ma demande Woodgrove, elle en est où ?', 'j-woodgrove'],
    ['Paie 2027, c’est prêt ?', 'j-paie'],
    ['pis la migration sap, est-tu rendue?', 'j-sap'],
  ])('%s → its card', (text, jobId) => {
    expect(asked(text)).toEqual(expect.objectContaining({ jobId, withdraw: false }));
  });

  test.each([
    ['forget about Wingtip, we lost the deal', 'j-wingtip'],
    ['call off the harbor lights festival request', 'j-harbor'],
    ['please cancel Woodgrove', 'j-woodgrove'],
    ['laissez tomber la migration SAP', 'j-sap'],
    ['annulez-moi Paie 2027 svp', 'j-paie'],
    ['on abandonne la rénovation gare nord', 'j-gare'],
  ])('%s → its withdrawal', (text, jobId) => {
    expect(asked(text)).toEqual(expect.objectContaining({ jobId, withdraw: true }));
  });

  test('the name to look it up by is the team’s whole name', () => {
    expect(asked('is Wingtip approved?')?.name).toBe('CLI-US-Wingtip Toys');
  });

  test.each([
    'il pleut sur la gare ce matin ?',
    'the harbor is lovely today',
    'any plans for the festival?',
    'who approves a client team?',
  ])('%s → none of them', (text) => {
    expect(asked(text)).toBeNull();
  });

  test('a name the engine read that no request has is not another request of a shared word', () => {
    expect(
      requestNamedIn('my request for the Gare Sud renovation, approved?', REQUESTS, 'Gare Sud'),
    ).toBeNull();
  });

  test('two requests named as well: neither', () => {
    const twins = [
      { jobId: 'a', teamName: 'Wingtip Toys', requestedName: null },
      { jobId: 'b', teamName: 'Wingtip Games', requestedName: null },
    ];
    expect(requestNamedIn('is Wingtip ready?', twins)).toBeNull();
  });
});

describe('a withdrawal in people’s words', () => {
  test.each([
    'never mind the Wingtip one',
    'take back my request',
    'scratch that, drop it',
    'retirez ma demande',
    'laisse tomber',
    'oubliez ça',
  ])('%s', (text) => {
    expect(asksToWithdraw(words(text))).toBe(true);
  });
  test.each(['how is it going', 'où en est ma demande', 'is it approved'])('not: %s', (text) => {
    expect(asksToWithdraw(words(text))).toBe(false);
  });
});
