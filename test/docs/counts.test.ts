import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPORTS } from '../../src/domain/reports/catalogue';
import { seedGroups, seedLabels, seedUsers } from '../../src/store/seed/directory';
import { seedTemplates } from '../../src/store/seed/templates';

/**
 * The figures the docs quote about the demo and the reports, derived from the code they describe:
 * a template or report added without its sentence fails here, not in a reader's hands.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
const WORDS_ON = [...WORDS, 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen'];

/** The number `text` writes (digits, or a word up to fifteen). */
function numberOf(text: string): number {
  const word = WORDS_ON.indexOf(text.toLowerCase());
  return word >= 0 ? word : Number(text);
}

/** Every figure `file` quotes before `noun` (e.g. "seven reports", "11 templates"). */
function figures(file: string, noun: string): number[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8').replace(/\s+/g, ' ');
  const pattern = new RegExp(`\\b(\\d+|${WORDS_ON.join('|')}) ${noun}\\b`, 'gi');
  return [...text.matchAll(pattern)].map((match) => numberOf(match[1]!));
}

describe('figures the docs quote', () => {
  const playgroundPeople = 6;

  it('the demo tenant: its colleagues, groups, labels and templates', () => {
    expect(figures('docs/guides/demo-tenant.md', 'templates')).toEqual([seedTemplates.length]);
    expect(figures('docs/guides/demo-tenant.md', 'groups')).toEqual([seedGroups.length]);
    expect(figures('docs/guides/demo-tenant.md', 'sensitivity labels')).toEqual([seedLabels.length]);
    expect(figures('docs/guides/demo-tenant.md', 'colleagues')).toEqual([
      seedUsers.length - playgroundPeople,
    ]);
  });

  it('the reports and their categories', () => {
    const categories = new Set(REPORTS.map((report) => report.categoryId)).size;
    for (const file of ['README.md', 'docs/guides/reports.md']) {
      for (const count of figures(file, 'reports'))
        expect({ file, count }).toEqual({ file, count: REPORTS.length });
      for (const count of figures(file, 'categories'))
        expect({ file, count }).toEqual({ file, count: categories });
    }
    expect(figures('README.md', 'reports')).not.toEqual([]);
  });
});
