import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * No source file over MAX_LINES: a file that long holds more than one idea, and is split by idea,
 * one module per idea. Tables and data may be longer: they are read a row at a time.
 */
const MAX_LINES = 300;

/** Tables and data, read a row at a time: each may stay long. */
const TABLES = new Map<string, string>([
  ['src/config/settings.ts', 'the settings table (`docs/reference/configuration.md` is written from it)'],
  ['src/store/schema.ts', 'the table types, one interface per table'],
  ['src/store/seed/directory.ts', "the seeded directory's people, groups and labels"],
  ['src/store/seed/templates.ts', 'the seeded catalog templates'],
]);

const root = path.join(__dirname, '..', '..');

function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(relative);
    return /\.(?:ts|js)$/.test(entry.name) ? [relative] : [];
  });
}

function lineCount(text: string): number {
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** The files over the limit that no list allows, with their length. */
export function oversized(files: ReadonlyMap<string, string>): string[] {
  return [...files]
    .map(([file, text]) => ({ file, lines: lineCount(text) }))
    .filter(({ file, lines }) => lines > MAX_LINES && !TABLES.has(file))
    .map(({ file, lines }) => `${file}: ${lines} lines (at most ${MAX_LINES})`);
}

describe('file size', () => {
  const files = new Map(
    sourceFiles('src').map((file) => [file, readFileSync(path.join(root, file), 'utf8')]),
  );

  it(`keeps every file under src/ at ${MAX_LINES} lines or fewer, tables and data aside`, () => {
    expect(oversized(files)).toEqual([]);
  });

  it('names a file over the limit', () => {
    const long = 'const a = 1;\n'.repeat(MAX_LINES + 1);
    expect(oversized(new Map([['src/domain/long.ts', long]]))).toEqual([
      `src/domain/long.ts: ${MAX_LINES + 1} lines (at most ${MAX_LINES})`,
    ]);
    expect(oversized(new Map([['src/domain/long.ts', 'const a = 1;\n'.repeat(MAX_LINES)]]))).toEqual([]);
  });

  it('lists only tables that exist and are long', () => {
    const stale = [...TABLES.keys()].filter(
      (file) => !files.has(file) || lineCount(files.get(file)!) <= MAX_LINES,
    );
    expect(stale).toEqual([]);
  });
});
