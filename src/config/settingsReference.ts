import { SECTIONS, type SectionId, type Setting, SETTINGS } from './settings';

/**
 * The two texts written from `SETTINGS` by `npm run settings`: `.env.example`, and the tables of
 * the configuration reference, `REFERENCE_FILE` (between `REFERENCE_START` and `REFERENCE_END`).
 */

/** The configuration reference's page, from the repository's root. */
export const REFERENCE_FILE = 'docs/reference/configuration.md';
export const REFERENCE_START = '<!-- settings: written by `npm run settings` from src/config/settings.ts -->';
export const REFERENCE_END = '<!-- /settings -->';

const ENV_HEADER = [
  '# Steward configuration. Every variable is optional: with none set, `npm start` runs the embedded',
  '# all-in-one mode (SQLite in ./data, simulated tenant, embedded tokens) on 127.0.0.1:3978.',
  '# Copy it to .env in the directory you start Steward from: Steward and its tools read .env at start,',
  '# and a variable set in the environment wins over the file. Each variable shows its default (or an',
  '# example) commented out: uncomment a line to set it.',
  '# Written by `npm run settings` from src/config/settings.ts: change that table, not this file.',
];

/** The settings of each section, in the table's order. */
function bySection(): Array<[SectionId, Array<[string, Setting]>]> {
  const groups = new Map<SectionId, Array<[string, Setting]>>();
  for (const id of Object.keys(SECTIONS) as SectionId[]) groups.set(id, []);
  for (const [name, described] of Object.entries(SETTINGS) as Array<[string, Setting]>) {
    groups.get(described.section)!.push([name, described]);
  }
  return [...groups].filter(([, settings]) => settings.length > 0);
}

/** What a value may be, in words: `whole number 0–64`, `` `true` or `false` ``… */
export function valueText(described: Setting): string {
  switch (described.type) {
    case 'integer':
      return `whole number ${described.min}–${described.max}${described.atLeast ? `, at least \`${described.atLeast}\`` : ''}`;
    case 'number':
      return 'number above 0';
    case 'share':
      return 'number above 0, at most 1';
    case 'boolean':
      return '`true` or `false`';
    case 'choice': {
      const choices = described.choices.map((choice) => `\`${choice}\``);
      return `${choices.slice(0, -1).join(', ')} or ${choices.at(-1)}`;
    }
    case 'url':
      return 'URL';
    case 'text':
      return `${described.format ?? 'text'}${described.secret ? ', secret' : ''}`;
  }
}

/** The default in words, or undefined when an unset setting is simply not used. */
export function defaultText(described: Setting): string | undefined {
  if (described.defaultText !== undefined) return described.defaultText;
  return described.default === undefined ? undefined : `\`${String(described.default)}\``;
}

/** `.env.example`: each section, each setting's help, type and default, and a line to uncomment. */
export function renderEnvExample(): string {
  const lines = [...ENV_HEADER];
  for (const [section, settings] of bySection()) {
    lines.push('', `# --- ${SECTIONS[section]}`);
    for (const [name, described] of settings) {
      const computed = described.defaultText === undefined ? '' : `; default: ${described.defaultText}`;
      lines.push(...comment(described.help), ...comment(`${valueText(described)}${computed}`));
      const shown = described.default ?? described.example ?? '';
      lines.push(`# ${name}=${String(shown)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The configuration reference's tables: one headed table per section, between the markers. */
export function renderReference(): string {
  const parts = [REFERENCE_START];
  for (const [section, settings] of bySection()) {
    parts.push(
      '',
      `## ${SECTIONS[section]}`,
      '',
      '| variable | value | default | what it does |',
      '| --- | --- | --- | --- |',
      ...settings.map(
        ([name, described]) =>
          `| \`${name}\` | ${cell(valueText(described))} | ${cell(defaultText(described) ?? '—')} | ${cell(described.help)} |`,
      ),
    );
  }
  parts.push('', REFERENCE_END);
  return parts.join('\n');
}

/** `page` (the reference's text) with its tables replaced by the ones written from `SETTINGS`. */
export function withReference(page: string): string {
  const start = page.indexOf(REFERENCE_START);
  const end = page.indexOf(REFERENCE_END);
  if (start < 0 || end < start) {
    throw new Error(
      `${REFERENCE_FILE} has no "${REFERENCE_START}" … "${REFERENCE_END}" block to write the settings into`,
    );
  }
  return page.slice(0, start) + renderReference() + page.slice(end + REFERENCE_END.length);
}

/** A table cell: a `|` would end it. */
function cell(text: string): string {
  return text.replaceAll('|', '\\|');
}

/** `text` as `#` comment lines of at most 100 characters. */
function comment(text: string): string[] {
  const lines: string[] = [];
  let line = '#';
  for (const word of text.split(' ')) {
    if (line.length + 1 + word.length > 100 && line !== '#') {
      lines.push(line);
      line = '#';
    }
    line += ` ${word}`;
  }
  lines.push(line);
  return lines;
}
