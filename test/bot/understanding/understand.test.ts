import { measure } from '../../../src/bot/understanding/measure';
import { understand } from '../../../src/bot/understanding/understand';
import { MESSAGES, TEMPLATES } from './fixtures';

const held = MESSAGES.filter((message) => message.split === 'test');

describe('the labelled messages', () => {
  it('hold at least 320 messages, about half French, a third held out', () => {
    expect(MESSAGES.length).toBeGreaterThanOrEqual(320);
    const french = MESSAGES.filter((message) => message.language === 'fr').length;
    expect(french / MESSAGES.length).toBeGreaterThan(0.4);
    expect(held.length * 3).toBeGreaterThanOrEqual(MESSAGES.length);
    const names = new Set(TEMPLATES.map((template) => template.name));
    for (const message of MESSAGES) if (message.template !== null) expect(names).toContain(message.template);
  });
});

describe('understanding held-out messages (never used to tune the engine)', () => {
  const result = measure(held, TEMPLATES, understand);

  it('finds the intent of at least 95 % of them', () => {
    expect(result.intentAccuracy).toBeGreaterThanOrEqual(0.95);
  });

  it('finds templates, names and people with an F1 of at least 0.90', () => {
    expect(result.entities.f1).toBeGreaterThanOrEqual(0.9);
    expect(result.template.f1).toBeGreaterThanOrEqual(0.9);
    expect(result.person.f1).toBeGreaterThanOrEqual(0.9);
  });

  it('tells English from French', () => {
    expect(result.languageAccuracy).toBeGreaterThanOrEqual(0.95);
  });
});

describe('the messages of the issue', () => {
  it('a new team for the Contoso deal, with Adele and Isaiah', () => {
    const got = understand(
      "I'd like a new team for the Contoso deal, with Adele and Isaiah in it",
      TEMPLATES,
    );
    expect(got).toMatchObject({
      language: 'en',
      intent: 'requestTeam',
      teamName: 'Contoso',
      description: 'the Contoso deal',
      people: [
        { text: 'Adele', role: 'member' },
        { text: 'Isaiah', role: 'member' },
      ],
    });
    expect(got.templates[0]).toMatchObject({ id: 'client-engagement', because: 'deal' });
  });

  it('a project space called Mercury that Megan co-owns', () => {
    const got = understand('please create a project space called Mercury, Megan will co-own it', TEMPLATES);
    expect(got).toMatchObject({
      intent: 'requestTeam',
      teamName: 'Mercury',
      people: [{ text: 'Megan', role: 'owner' }],
    });
    expect(got.templates[0]).toMatchObject({ id: 'project', because: 'project space' });
  });

  it('une équipe pour le projet Atlas avec Lynne Robbins', () => {
    const got = understand('il me faut une équipe pour le projet Atlas avec Lynne Robbins', TEMPLATES);
    expect(got).toMatchObject({
      language: 'fr',
      intent: 'requestTeam',
      teamName: 'Atlas',
      people: [{ text: 'Lynne Robbins', role: 'member' }],
    });
    expect(got.templates[0]).toMatchObject({ id: 'project', because: 'projet' });
  });

  it('who approves a legal matter team', () => {
    const got = understand('who has to approve a legal matter team?', TEMPLATES);
    expect(got.intent).toBe('askApprovers');
    expect(got.templates[0]).toMatchObject({ id: 'legal-matter', because: 'legal matter' });
    expect(got.people).toEqual([]);
  });

  it('the status of my Northwind request', () => {
    const got = understand("what's the status of my Northwind request?", TEMPLATES);
    expect(got).toMatchObject({ intent: 'askRequestStatus', requestName: 'Northwind', requestFilter: null });
  });
});

describe('understanding, whatever is typed', () => {
  it('reads waiting and all requests', () => {
    expect(understand('which of my requests are still waiting?', TEMPLATES)).toMatchObject({
      intent: 'askRequestStatus',
      requestFilter: 'waiting',
      requestName: null,
    });
    expect(understand('mes demandes', TEMPLATES)).toMatchObject({
      intent: 'askRequestStatus',
      requestFilter: 'all',
    });
  });

  it('points only at the templates offered to the person', () => {
    const offered = TEMPLATES.filter((template) => template.id !== 'legal-matter');
    const got = understand('I need a team for a legal matter', offered);
    expect(got.intent).toBe('requestTeam');
    expect(got.templates.map((template) => template.id)).not.toContain('legal-matter');
  });

  it('reads accents, capitals and their absence alike', () => {
    const plain = understand('equipe pour le projet atlas avec zoe lefevre', TEMPLATES);
    expect(plain).toMatchObject({ language: 'fr', intent: 'requestTeam', teamName: 'atlas' });
    expect(plain.people).toEqual([{ text: 'zoe lefevre', role: 'member' }]);
    const shouted = understand('NEW TEAM FOR PROJECT ORION WITH ADELE PLEASE', TEMPLATES);
    expect(shouted).toMatchObject({
      intent: 'requestTeam',
      teamName: 'ORION',
      people: [{ text: 'ADELE', role: 'member' }],
    });
  });

  it('reads only the start of a 10 000-character message', () => {
    const long = `a new project team called Hermes with Megan ${'blah '.repeat(2000)}`;
    expect(long.length).toBeGreaterThanOrEqual(10_000);
    const got = understand(long, TEMPLATES);
    expect(got).toMatchObject({
      intent: 'requestTeam',
      teamName: 'Hermes',
      people: [{ text: 'Megan', role: 'member' }],
    });
    expect(understand('x'.repeat(10_000), TEMPLATES).intent).toBe('none');
    expect(understand('(((('.repeat(2_500), TEMPLATES)).toMatchObject({ intent: 'none', people: [] });
    expect(understand(`"${'a '.repeat(5_000)}`, TEMPLATES).intent).toBe('none');
  });

  it('does not understand other languages, gibberish or nothing', () => {
    for (const text of [
      'Ich möchte ein neues Team für das Projekt Atlas',
      'quiero un equipo nuevo para el proyecto con Adele',
      'チームを作ってください',
      'qsdkjh zerlkj wxcvb',
      '',
      '   ',
      '🙂🙂🙂',
    ]) {
      const got = understand(text, TEMPLATES);
      expect({ text, intent: got.intent, people: got.people, teamName: got.teamName }).toEqual({
        text,
        intent: 'none',
        people: [],
        teamName: null,
      });
    }
  });

  it('answers the same message the same way, whatever was read before', () => {
    const text = 'une équipe pour le client Tailspin, Oliver sera propriétaire';
    const first = understand(text, TEMPLATES);
    for (const message of MESSAGES.slice(0, 50)) understand(message.text, TEMPLATES);
    expect(understand(text, TEMPLATES)).toEqual(first);
    expect(first).toMatchObject({ teamName: 'Tailspin', people: [{ text: 'Oliver', role: 'owner' }] });
  });
});

describe('understanding any text at all', () => {
  /** A small seeded generator, so that a failure is reproduced by the same run. */
  function random(seed: number): () => number {
    let state = seed;
    return () => {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      return state / 2 ** 31;
    };
  }
  const pieces = [
    ...MESSAGES.slice(0, 60).flatMap((message) => message.text.split(' ')),
    '"',
    '«',
    '»',
    "'",
    ',',
    '.',
    '@',
    'with',
    'avec',
    'called',
    'nommée',
    'owner',
    'propriétaire',
    '\u0000',
    '\u202e',
    '🙂',
    'ß',
    'İ',
    '\n',
    '   ',
  ];

  it('always answers, in the contract’s shape, whatever the words and their order', () => {
    const next = random(27);
    for (let i = 0; i < 2_000; i += 1) {
      const length = Math.floor(next() * 40);
      const text = Array.from({ length }, () => pieces[Math.floor(next() * pieces.length)]).join(
        next() < 0.5 ? ' ' : '',
      );
      const got = understand(text, TEMPLATES);
      expect(['en', 'fr']).toContain(got.language);
      expect(got.confidence).toBeGreaterThanOrEqual(0);
      expect(got.confidence).toBeLessThanOrEqual(1);
      for (const person of got.people) {
        expect(person.text.length).toBeGreaterThan(0);
        expect(['owner', 'member']).toContain(person.role);
      }
      for (const template of got.templates) expect(TEMPLATES.map((t) => t.id)).toContain(template.id);
      if (got.teamName !== null) expect(got.teamName.length).toBeGreaterThan(0);
    }
  });
});
