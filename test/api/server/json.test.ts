import { JsonText, sharedJson } from '../../../src/api/json';
import { odataCollection } from '../../../src/api/odata';

const template = (name: string) =>
  Object.freeze({ id: name.toLowerCase(), name, owners: Object.freeze(['Zoé']) });

describe('JSON bodies encoded once', () => {
  test('a collection of accented items is the same JSON as serialising it whole, as UTF-8', () => {
    const items = [template('Équipe Lefèvre'), template('Project'), template('Café ☕')];
    const body = odataCollection('https://steward.example', 'catalogTemplates', items);
    expect(body).toBeInstanceOf(JsonText);
    const whole = JSON.stringify({
      '@odata.context': 'https://steward.example/api/v1.0/$metadata#catalogTemplates',
      '@odata.count': 3,
      value: items,
    });
    expect(body.bytes.equals(Buffer.from(whole, 'utf8'))).toBe(true);
    expect(JSON.parse(body.bytes.toString('utf8')).value[2].name).toBe('Café ☕');
  });

  test('an empty collection is valid JSON', () => {
    const body = odataCollection('https://steward.example', 'hooks', []);
    expect(JSON.parse(body.bytes.toString('utf8'))).toEqual({
      '@odata.context': 'https://steward.example/api/v1.0/$metadata#hooks',
      '@odata.count': 0,
      value: [],
    });
  });

  test("a frozen item's bytes are encoded once and reused; an unfrozen item is serialised anew", () => {
    const frozen = template('Zoé');
    expect(sharedJson(frozen)).toBe(sharedJson(frozen));
    const open: { name: string } = { name: 'Zoé' };
    const first = sharedJson(open).toString('utf8');
    open.name = 'Zoé Lefèvre';
    expect(sharedJson(open).toString('utf8')).not.toBe(first);
    expect(JSON.parse(sharedJson(open).toString('utf8'))).toEqual({ name: 'Zoé Lefèvre' });
  });
});
