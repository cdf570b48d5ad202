import {
  editDistance,
  mostSimilar,
  nameSimilarity,
  significantWords,
  similarity,
} from '../../src/domain/similarTeams';

/**
 * The labelled pairs the thresholds were decided on: what someone would call "the same team"
 * (true) and what merely shares letters or a company name (false).
 */
const LABELLED: ReadonlyArray<[string, string, boolean]> = [
  ['Contoso deal', 'Contoso Deal Team', true],
  ['PRJ-Mercury', 'Mercury project', true],
  ['Atlas', 'Atlantic sales', false],
  ['Équipe Marketing Québec', 'equipe marketing quebec', true],
  ['Marketing Quebec', 'Marketing Québec 2026', true],
  ['Project Mercury launch', 'Mercuri launch', true],
  ['Contoso deal', 'Contoso marketing', false],
  ['Contoso deal', 'Fabrikam deal', false],
  ['Team', 'Project', false],
  ['Sales', 'Sales', true],
  ['Sales', 'Salsa', false],
  ['HR onboarding 2026', 'HR onboarding', true],
  ['Apollo', 'Artemis', false],
  ['Legal matter Fabrikam v. Contoso', 'Fabrikam v Contoso legal matter', true],
  ['Deal room', 'Room for ideas', false],
];

describe('the similarity of team names', () => {
  test.each(LABELLED)('%s ~ %s: %s', (a, b, alike) => {
    expect(similarity({ name: a }, { name: b }) !== undefined).toBe(alike);
    // The rule is symmetric.
    expect(similarity({ name: b }, { name: a }) !== undefined).toBe(alike);
  });

  test('accents, case and punctuation fold; words every team carries are left out', () => {
    expect(significantWords('PRJ-Équipe Marketing (Québec)')).toEqual(['marketing', 'quebec']);
    expect(nameSimilarity('CONTOSO DEAL', 'contoso-deal')).toBe(1);
    expect(nameSimilarity('Atlas', 'Atlantic sales')).toBe(0);
  });

  test('edit distance on words, giving up past its limit', () => {
    expect(editDistance('mercury', 'mercuri', 1)).toBe(1);
    expect(editDistance('atlas', 'atlantic', 1)).toBe(2);
    expect(editDistance('kitten', 'sitting', 5)).toBe(3);
  });

  test('purpose: the same template with descriptions sharing most words, even under another name', () => {
    const wanted = {
      name: 'Blue harbour',
      templateId: 'project',
      description: 'Rebuilding the north harbour pier with the city council',
    };
    const other = {
      name: 'Pier works',
      templateId: 'project',
      description: 'The city council and us rebuilding the harbour pier (north side)',
    };
    expect(similarity(wanted, other)).toMatchObject({ reason: 'purpose' });
    // Another template: a coincidence of words is not a duplicate.
    expect(similarity(wanted, { ...other, templateId: 'legal-matter' })).toBeUndefined();
  });

  test('most alike first, within the limit', () => {
    const teams = ['Mercury launch', 'Mercury', 'Apollo', 'Mercury launch party'].map((name) => ({ name }));
    const found = mostSimilar({ name: 'PRJ-Mercury launch' }, teams, 2);
    expect(found.map((f) => f.candidate.name)).toEqual(['Mercury launch', 'Mercury launch party']);
  });

  test('bounded: a huge input is cut, and costs about what a short one does', () => {
    const huge = `${'word '.repeat(100_000)}mercury`;
    const started = performance.now();
    for (let i = 0; i < 100; i++) similarity({ name: huge, description: huge }, { name: huge });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(significantWords(huge).length).toBeLessThanOrEqual(32);
  });
});
