import { dateTimeFor, dayFor, namesIn, numberFor, readerOf } from '../../../src/bot/i18n/catalog';

const AT = '2027-03-03T17:45:00Z';

describe('formatting for each reader (formatters kept between calls)', () => {
  it('formats each reader in their own locale and time zone, however the calls interleave', () => {
    const paris = readerOf('fr-FR', 'Europe/Paris');
    const newYork = readerOf('en-US', 'America/New_York');
    const tokyo = readerOf('en-GB', 'Asia/Tokyo');
    for (let round = 0; round < 3; round++) {
      expect(dateTimeFor(paris, AT)).toBe('3 mars 2027, 18:45');
      expect(dateTimeFor(newYork, AT)).toBe('Mar 3, 2027, 12:45 PM');
      expect(dateTimeFor(tokyo, AT)).toBe('4 Mar 2027, 02:45');
      expect(numberFor(paris, 1234)).toBe('1\u202f234');
      expect(numberFor(newYork, 1234)).toBe('1,234');
      expect(namesIn(paris, ['Adele', 'Lee'])).toBe('Adele et Lee');
      expect(namesIn(newYork, ['Adele', 'Lee'])).toBe('Adele and Lee');
      expect(dayFor(paris, '2027-03-03')).toBe('3 mars 2027');
    }
  });

  it('names a zone as Intl does whatever its case, and falls back to UTC for one that is not a zone', () => {
    expect(readerOf('en-US', 'europe/PARIS').timeZone).toBe('Europe/Paris');
    for (let round = 0; round < 2; round++) {
      expect(readerOf('en-US', 'Mars/Olympus').timeZone).toBe('UTC');
      expect(readerOf('en-US', '').timeZone).toBe('UTC');
    }
  });

  it('still formats correctly after more zones than it keeps formatters for', () => {
    const zones = Intl.supportedValuesOf('timeZone');
    expect(zones.length).toBeGreaterThan(300);
    for (const zone of zones) expect(readerOf('en-US', zone.toUpperCase()).timeZone).toBe(zone);
    const paris = readerOf('fr-FR', 'Europe/Paris');
    expect(paris.timeZone).toBe('Europe/Paris');
    expect(dateTimeFor(paris, AT)).toBe('3 mars 2027, 18:45');
  });
});
