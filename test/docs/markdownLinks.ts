import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Relative links in Markdown, checked as GitHub resolves them, without the network: the target
 * file or folder exists inside the repository, and a `#fragment` names a heading of the target
 * (by the slug GitHub gives it) or an explicit `<a name>` / `id` anchor. Links with a scheme
 * (`https:`, `mailto:`) and protocol-relative ones are not checked.
 */

export interface MarkdownLink {
  /** The file the link is written in, relative to the root. */
  readonly file: string;
  readonly line: number;
  readonly target: string;
}

export interface BrokenLink extends MarkdownLink {
  readonly problem: string;
}

/** The Markdown files of `dir` (relative to `root`), at any depth, in a stable order. */
export function markdownFilesUnder(root: string, dir: string): string[] {
  const found: string[] = [];
  const walk = (relative: string): void => {
    for (const entry of readdirSync(path.join(root, relative)).sort()) {
      const child = path.posix.join(relative, entry);
      if (statSync(path.join(root, child)).isDirectory()) walk(child);
      else if (entry.endsWith('.md')) found.push(child);
    }
  };
  walk(dir);
  return found;
}

/**
 * The text with fenced code blocks and inline code spans blanked out (same length, line breaks
 * kept), so neither headings nor links are read inside code.
 */
export function withoutCode(text: string): string {
  const blank = (code: string): string => code.replace(/[^\n]/g, ' ');
  const lines = text.split('\n');
  let fence: string | undefined;
  const outside = lines.map((line) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && marker !== undefined) {
      fence = marker;
      return blank(line);
    }
    if (fence !== undefined) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) {
        if (line.trim() === marker) fence = undefined;
      }
      return blank(line);
    }
    return line;
  });
  // A code span: a run of backticks, then anything up to the same run (it may wrap a line).
  return outside.join('\n').replace(/(?<!`)(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, blank);
}

/**
 * The text a heading shows: inline Markdown reduced to its words (link texts, code spans' text, no
 * emphasis markers or HTML tags). Underscores stay, as emphasis in headings is written with `*`.
 */
function headingText(raw: string): string {
  return raw
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*]/g, '')
    .trim();
}

/** GitHub's slug of a heading: lower case, punctuation dropped, spaces to hyphens. */
export function githubSlug(text: string): string {
  return headingText(text)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a Markdown text defines: its headings' slugs (numbered when repeated) and `<a>` ids. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const add = (slug: string): void => {
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  };
  const text = withoutCode(markdown);
  const lines = text.split('\n');
  const original = markdown.split('\n');
  const atx = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
  lines.forEach((line, index) => {
    // Found in the text without code, read from the original line: a code span's text is in the slug.
    if (atx.test(line)) return add(githubSlug(atx.exec(original[index]!)?.[1] ?? ''));
    const underline = /^ {0,3}(=+|-+)[ \t]*$/.test(line);
    const previous = lines[index - 1];
    if (
      underline &&
      previous !== undefined &&
      previous.trim() !== '' &&
      !/^\s*([|>*+-]|\d+[.)]|#)/.test(previous)
    ) {
      add(githubSlug(original[index - 1]!.trim()));
    }
  });
  for (const match of text.matchAll(/<a\s[^>]*?\b(?:name|id)\s*=\s*["']([^"']+)["']/gi))
    anchors.add(match[1]!);
  return anchors;
}

/** The relative links of a Markdown text: inline links and images, reference definitions, `href` / `src`. */
export function linksOf(file: string, markdown: string): MarkdownLink[] {
  const text = withoutCode(markdown);
  const lineAt = (offset: number): number => text.slice(0, offset).split('\n').length;
  const links: MarkdownLink[] = [];
  const add = (target: string, offset: number): void => {
    const bare = target.startsWith('<') && target.endsWith('>') ? target.slice(1, -1) : target;
    if (bare === '' || /^[a-z][a-z0-9+.-]*:/i.test(bare) || bare.startsWith('//')) return;
    links.push({ file, line: lineAt(offset), target: bare });
  };
  const inline =
    /!?\[(?:[^[\]]|\[[^[\]]*\])*\]\(\s*(<[^>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g;
  for (const match of text.matchAll(inline)) add(match[1]!, match.index);
  for (const match of text.matchAll(/^ {0,3}\[[^\]]+\]:\s*(\S+)/gm)) add(match[1]!, match.index);
  for (const match of text.matchAll(/\b(?:href|src)\s*=\s*["']([^"']+)["']/gi)) add(match[1]!, match.index);
  return links;
}

/** The links of `files` (relative to `root`) that lead nowhere, each with what is wrong. */
export function brokenLinks(root: string, files: readonly string[]): BrokenLink[] {
  const anchorCache = new Map<string, Set<string>>();
  const anchorsIn = (file: string): Set<string> => {
    let anchors = anchorCache.get(file);
    if (!anchors) {
      anchors = anchorsOf(readFileSync(path.join(root, file), 'utf8'));
      anchorCache.set(file, anchors);
    }
    return anchors;
  };
  const broken: BrokenLink[] = [];
  for (const file of files) {
    for (const link of linksOf(file, readFileSync(path.join(root, file), 'utf8'))) {
      const hash = link.target.indexOf('#');
      const pathPart = decodeURIComponent(hash < 0 ? link.target : link.target.slice(0, hash));
      const fragment = hash < 0 ? undefined : decodeURIComponent(link.target.slice(hash + 1));
      const resolved =
        pathPart === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), pathPart));
      if (resolved.startsWith('..') || path.posix.isAbsolute(resolved)) {
        broken.push({ ...link, problem: 'leads outside the repository' });
        continue;
      }
      if (!existsSync(path.join(root, resolved))) {
        broken.push({ ...link, problem: `no such file: ${resolved}` });
        continue;
      }
      if (fragment === undefined) continue;
      if (statSync(path.join(root, resolved)).isDirectory()) {
        broken.push({ ...link, problem: `an anchor on a folder: ${resolved}` });
      } else if (resolved.endsWith('.md')) {
        if (!anchorsIn(resolved).has(fragment)) {
          broken.push({ ...link, problem: `no heading or anchor "#${fragment}" in ${resolved}` });
        }
      } else if (!/^L\d+(-L\d+)?$/.test(fragment)) {
        broken.push({ ...link, problem: `"#${fragment}" is not a line anchor of ${resolved}` });
      }
    }
  }
  return broken;
}
