import { languageAskedFor } from '../../../src/bot/welcome/language';

/** `languageAskedFor` reads words folded as the typed commands fold them: lower case, no accents. */
describe('the language a person asks for in their own words', () => {
  it.each([
    ['please go back to the automatic language', 'auto'],
    ['reset the language to default', 'auto'],
    ['remets la langue automatique', 'auto'],
    ['reviens a la langue par defaut stp', 'auto'],
    ['can you talk to me in french', 'fr'],
    ['parle-moi en anglais', 'en'],
  ])('%s → %s', (words, language) => {
    expect(languageAskedFor(words)).toBe(language);
  });

  it.each([
    'which language is the default template in',
    'a team for french speakers',
    'automatic approval for a project team',
    'the default language of a new team',
  ])('%s asks for no language', (words) => {
    expect(languageAskedFor(words)).toBeNull();
  });
});
