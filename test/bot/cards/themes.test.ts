import { readFileSync } from 'node:fs';
import path from 'node:path';
import { cardTemplateFiles } from './cardFiles';

const templates = cardTemplateFiles().map(
  (file) => [path.basename(file), JSON.parse(readFileSync(file, 'utf8')) as unknown] as const,
);

/** Every object of a card template, with the container style it sits in. */
function nodes(
  node: unknown,
  style = 'default',
  out: Array<{ node: Record<string, unknown>; style: string }> = [],
) {
  if (Array.isArray(node)) node.forEach((item) => nodes(item, style, out));
  else if (node && typeof node === 'object') {
    const record = node as Record<string, unknown>;
    out.push({ node: record, style });
    const inner = typeof record.style === 'string' && record.type !== 'TextBlock' ? record.style : style;
    for (const value of Object.values(record)) nodes(value, inner, out);
  }
  return out;
}

/**
 * Readable in Teams' light, dark and high-contrast themes. Teams picks the
 * colours of semantic names per theme; a fixed colour or a picture of text cannot follow it.
 */
describe.each(templates)('%s in every Teams theme', (_file, card) => {
  const all = nodes(card);

  it('uses no fixed colour and no background picture', () => {
    expect(JSON.stringify(card)).not.toMatch(/#[0-9a-f]{3,8}\b|rgba?\(/i);
    expect(all.filter(({ node }) => 'backgroundImage' in node)).toEqual([]);
  });

  it('colours text only with semantic colours, never in a container of its own colour', () => {
    const semantic = ['default', 'dark', 'light', 'accent', 'good', 'warning', 'attention'];
    for (const { node, style } of all) {
      if (typeof node.color !== 'string' || node.color.startsWith('${')) continue;
      expect(semantic).toContain(node.color);
      // "attention" text on an "attention" container is red on red in some themes.
      expect(node.color === style ? `${String(node.text)} (${node.color} on ${style})` : '').toBe('');
    }
  });

  it('draws no text in yellow ("warning"), hard to read on white: containers carry the warning', () => {
    expect(all.filter(({ node }) => node.color === 'warning').map(({ node }) => node.text)).toEqual([]);
  });

  it('never uses the "dark" or "light" colours, which stay dark or light in every theme', () => {
    expect(all.filter(({ node }) => node.color === 'dark' || node.color === 'light')).toEqual([]);
  });
});
