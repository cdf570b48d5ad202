import { readFileSync } from 'node:fs';
import path from 'node:path';
// The one place this test names where the event list lives (the wire models' events module).
import { EVENT_TYPES } from '../../src/contract/events';

/**
 * docs/reference/webhook-events.md lists exactly the events Steward emits, in their order: an
 * event added to the source and not described there fails this test, as does a documented event
 * that no longer exists.
 */

const PAGE = path.resolve(__dirname, '..', '..', 'docs', 'reference', 'webhook-events.md');

/** The event codes of the page's table: the first cell of each row, a code in backticks. */
function documentedEvents(markdown: string): string[] {
  return [...markdown.matchAll(/^\| `([a-z_]+)` \|[^\n]*\|\s*$/gm)].map((match) => match[1]!);
}

describe('the webhook events reference', () => {
  test('lists every event code Steward emits, once each, in their order', () => {
    const documented = documentedEvents(readFileSync(PAGE, 'utf8'));
    expect(documented).toEqual([...EVENT_TYPES]);
  });

  test('says when each event is sent', () => {
    const rows = readFileSync(PAGE, 'utf8')
      .split('\n')
      .filter((line) => /^\| `[a-z_]+` \|/.test(line));
    expect(rows).toHaveLength(EVENT_TYPES.length);
    for (const row of rows) {
      const when = row.split('|')[2]!.trim();
      expect(when.split(' ').length).toBeGreaterThanOrEqual(4);
    }
  });
});
