import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { anchorsOf, brokenLinks, githubSlug, linksOf, markdownFilesUnder } from './markdownLinks';

/**
 * Every relative link and anchor in the README and under docs/ leads somewhere: the file exists,
 * and a `#fragment` is a heading's slug (as GitHub makes it) or an anchor of the target. Nothing
 * goes to the network. A failure lists each broken link with its file and line.
 */

const ROOT = path.resolve(__dirname, '..', '..');

/** The pages checked: the README, every page under docs/, and the benchmark results and history they link to. */
function pages(): string[] {
  return ['README.md', ...markdownFilesUnder(ROOT, 'docs'), ...markdownFilesUnder(ROOT, 'bench')];
}

describe('the documentation links', () => {
  test('every relative link and anchor of the README and docs/ resolves', () => {
    const files = pages();
    expect(files.length).toBeGreaterThan(10);
    const checked = files.flatMap((file) => linksOf(file, readFileSync(path.join(ROOT, file), 'utf8')));
    // The README links into docs/, so a checker that found nothing would be blind, not right.
    expect(checked.filter((link) => link.file === 'README.md').length).toBeGreaterThan(10);
    expect(brokenLinks(ROOT, files)).toEqual([]);
  });
});

describe('the link checker', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'steward-links-'));
    mkdirSync(path.join(dir, 'docs', 'guides'), { recursive: true });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const write = (file: string, text: string): void => writeFileSync(path.join(dir, file), text);

  test('finds a missing file, a missing anchor, and a link leaving the repository', () => {
    write(
      'README.md',
      '# Title\n\nSee [the guide](docs/guides/gone.md) and [a part](docs/guides/here.md#nowhere).\n',
    );
    write('docs/guides/here.md', '# Here\n\n## A part\n\nBack [up](../../../outside.md).\n');
    expect(brokenLinks(dir, ['README.md', 'docs/guides/here.md'])).toEqual([
      {
        file: 'README.md',
        line: 3,
        target: 'docs/guides/gone.md',
        problem: 'no such file: docs/guides/gone.md',
      },
      {
        file: 'README.md',
        line: 3,
        target: 'docs/guides/here.md#nowhere',
        problem: 'no heading or anchor "#nowhere" in docs/guides/here.md',
      },
      {
        file: 'docs/guides/here.md',
        line: 5,
        target: '../../../outside.md',
        problem: 'leads outside the repository',
      },
    ]);
  });

  test('accepts headings, repeated headings, explicit anchors, folders and absolute links', () => {
    write(
      'README.md',
      [
        '# Steward',
        '',
        '## Several processes on one machine: `npm run start:cluster`',
        '## Notes',
        '## Notes',
        '<a name="kept"></a>',
        '',
        'Links: [a](#several-processes-on-one-machine-npm-run-startcluster), [b](#notes-1), [c](#kept),',
        '[d](docs/guides/), [e](https://example.com/#anything), [f](docs/guides/here.md#the-graph-budget-with-graph-defaults-microsofts-published-limits).',
      ].join('\n'),
    );
    write(
      'docs/guides/here.md',
      '# Here\n\n## The Graph budget (with `graph`; defaults: Microsoft’s published limits)\n',
    );
    expect(brokenLinks(dir, ['README.md'])).toEqual([]);
  });

  test('reads no link or heading inside code, and follows a link text over two lines', () => {
    const text = [
      '```sh',
      '# not a heading',
      'echo "[x](missing.md)"',
      '```',
      '',
      'Inline `[y](missing.md)` is code; [a link over',
      'two lines](docs/guides/here.md) is a link.',
    ].join('\n');
    expect(linksOf('README.md', text)).toEqual([
      { file: 'README.md', line: 6, target: 'docs/guides/here.md' },
    ]);
    expect([...anchorsOf(text)]).toEqual([]);
  });

  test('makes the slugs GitHub makes', () => {
    expect(githubSlug('5. Microsoft Graph application permissions')).toBe(
      '5-microsoft-graph-application-permissions',
    );
    expect(githubSlug('App roles: who gets what')).toBe('app-roles-who-gets-what');
    expect(githubSlug('Chatting with Steward, no Microsoft 365 tenant needed')).toBe(
      'chatting-with-steward-no-microsoft-365-tenant-needed',
    );
    expect(githubSlug('In chat: teams short of owners, guest reviews')).toBe(
      'in-chat-teams-short-of-owners-guest-reviews',
    );
    expect(githubSlug('0001: restify serves HTTP; botbuilder runs the bot')).toBe(
      '0001-restify-serves-http-botbuilder-runs-the-bot',
    );
    expect(githubSlug('graph_budget — the `tat` column')).toBe('graph_budget--the-tat-column');
  });
});
