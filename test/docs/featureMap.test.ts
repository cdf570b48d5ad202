import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * docs/architecture.md's feature map: a row per feature, a column per layer, each cell the folders
 * and files (under that layer's folder of src/) that hold the feature's part. The map must match
 * the tree: every path a cell names exists, and every feature folder of a layer is in the map.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const SRC = path.join(ROOT, 'src');
const doc = readFileSync(path.join(ROOT, 'docs', 'architecture.md'), 'utf8');

/** The map's rows, cells split; the header row names the layers. */
function featureMap(): { layers: string[]; rows: string[][] } {
  const section = doc.split(/^## Feature map$/m)[1]?.split(/^## /m)[0] ?? '';
  const lines = section.split('\n').filter((line) => line.startsWith('|'));
  const cells = lines.map((line) =>
    line
      .slice(1, -1)
      .split('|')
      .map((cell) => cell.trim()),
  );
  const [header, , ...rows] = cells;
  return { layers: header!.slice(1), rows };
}

/** The paths a cell names: its code spans. */
function pathsIn(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
}

/** Folders of a layer that hold one feature each (shared machinery and the schema excluded). */
const SHARED: Record<string, string[]> = {
  store: ['migrations'],
  bot: ['cards', 'conversations', 'i18n'],
};

describe('the feature map in docs/architecture.md', () => {
  const { layers, rows } = featureMap();

  it('has a column per layer and rows', () => {
    expect(layers).toEqual(['contract', 'domain', 'store', 'platform', 'services', 'api', 'bot']);
    expect(rows.length).toBeGreaterThan(10);
  });

  it('names only folders and files that exist', () => {
    const missing: string[] = [];
    for (const [feature, ...cells] of rows) {
      cells.forEach((cell, i) => {
        for (const named of pathsIn(cell)) {
          const full = path.join(SRC, layers[i]!, named);
          if (!existsSync(full)) missing.push(`${feature}: ${layers[i]}/${named}`);
        }
      });
    }
    expect(missing).toEqual([]);
  });

  it.each(['services', 'store', 'bot'])('lists every feature folder of %s/', (layer) => {
    const column = layers.indexOf(layer);
    const named = new Set(
      rows.flatMap((row) => pathsIn(row[column + 1]!).map((p) => p.split('/')[0]!.replace(/\/$/, ''))),
    );
    const folders = readdirSync(path.join(SRC, layer), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !(SHARED[layer] ?? []).includes(entry.name))
      .map((entry) => entry.name);
    expect(folders.filter((folder) => !named.has(folder))).toEqual([]);
  });
});
