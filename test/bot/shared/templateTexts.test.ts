import { templateTexts } from '../../../src/bot/shared/templateTexts';

const PROJECT = {
  name: 'Project team',
  description: 'A team for a time-boxed project.',
  translations: {
    fr: { name: 'Équipe projet', description: 'Une équipe pour un projet à durée limitée.' },
    'fr-CA': { name: 'Équipe de projet' },
  },
};

describe('templateTexts', () => {
  it('reads a template in its reader’s language, most precise first', () => {
    expect(templateTexts(PROJECT, { language: 'fr', locale: 'fr-FR' })).toEqual({
      name: 'Équipe projet',
      description: 'Une équipe pour un projet à durée limitée.',
    });
    // Québec's own name; the description it leaves out is the template's own.
    expect(templateTexts(PROJECT, { language: 'fr', locale: 'fr-CA' })).toEqual({
      name: 'Équipe de projet',
      description: 'A team for a time-boxed project.',
    });
  });

  it('keeps the template’s own texts for a language it was not given in', () => {
    expect(templateTexts(PROJECT, { language: 'en', locale: 'en-GB' })).toEqual({
      name: 'Project team',
      description: 'A team for a time-boxed project.',
    });
    expect(templateTexts({ name: 'Legal', description: '' }, { language: 'fr', locale: 'fr-FR' })).toEqual({
      name: 'Legal',
      description: '',
    });
  });

  it('takes a regional translation when the language has no plain one', () => {
    const belgian = {
      name: 'Campaign',
      description: 'One team a campaign.',
      translations: { 'FR-be': { name: 'Campagne' } },
    };
    expect(templateTexts(belgian, { language: 'fr', locale: 'fr-FR' }).name).toBe('Campagne');
  });
});
