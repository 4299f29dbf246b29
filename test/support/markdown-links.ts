import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * Relative links in Markdown, and whether they resolve: the file (or folder) they name exists,
 * and an `#anchor` names a heading of that file the way GitHub renders heading ids. Used by
 * test/architecture/docs.check.spec.ts. Links inside fenced code blocks and code spans are
 * not links and are skipped; absolute URLs (`https:`, `mailto:`) are not checked.
 */

export interface MarkdownLink {
  line: number;
  target: string;
}

/** Lines outside fenced code blocks (``` or ~~~), with their 1-based numbers. */
function proseLines(markdown: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fence: string | null = null;
  markdown.split('\n').forEach((text, i) => {
    const opener = /^\s{0,3}(`{3,}|~{3,})/.exec(text);
    if (fence !== null) {
      if (opener && opener[1][0] === fence[0] && opener[1].length >= fence.length && text.trim() === opener[1]) fence = null;
      return;
    }
    if (opener) {
      fence = opener[1];
      return;
    }
    out.push({ line: i + 1, text });
  });
  return out;
}

/** The text without code spans (a `](` inside backticks is code, not a link). */
const withoutCodeSpans = (text: string): string => text.replace(/(`+)[^`]*?\1/g, '');

/** Inline links and images, `[text](target)` and `![alt](target "title")`, outside code. */
export function markdownLinks(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  for (const { line, text } of proseLines(markdown)) {
    const prose = withoutCodeSpans(text);
    for (const match of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ line, target: match[1] });
    }
  }
  return links;
}

/**
 * The id GitHub gives a heading: its rendered text lower-cased, every character that is not a
 * letter, digit, space, hyphen or underscore dropped, spaces made hyphens.
 */
export function headingSlug(heading: string): string {
  const rendered = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // links and images: their text
    .replace(/`/g, '')
    .replace(/<[^>]+>/g, '')
    .replace(/(\*{1,3}|_{1,3})(\S(?:.*?\S)?)\1/g, '$2'); // emphasis markers around words
  return rendered
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a Markdown file offers: heading ids (repeats get -1, -2, ...) and `<a id|name>`. */
export function markdownAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text } of proseLines(markdown)) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
    if (heading) {
      const slug = headingSlug(heading[1]);
      const n = seen.get(slug) ?? 0;
      seen.set(slug, n + 1);
      anchors.add(n === 0 ? slug : `${slug}-${n}`);
    }
    for (const html of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(html[1]);
  }
  return anchors;
}

const ABSOLUTE = /^[a-z][a-z0-9+.-]*:/i;

/**
 * The links of `file` that do not resolve, as `file:line target (why)`, paths relative to
 * `root`. `base` is the folder its relative links start from (the file's own by default).
 */
export function brokenLinks(file: string, root: string, base = dirname(file)): string[] {
  const markdown = readFileSync(file, 'utf8');
  const broken: string[] = [];
  const where = (link: MarkdownLink) => `${relative(root, file)}:${link.line} ${link.target}`;
  for (const link of markdownLinks(markdown)) {
    if (ABSOLUTE.test(link.target)) continue;
    const hash = link.target.indexOf('#');
    const pathPart = decodeURIComponent(hash === -1 ? link.target : link.target.slice(0, hash));
    const anchor = hash === -1 ? null : decodeURIComponent(link.target.slice(hash + 1));
    const target = pathPart === '' ? file : resolve(base, pathPart);
    if (!target.startsWith(root)) {
      broken.push(`${where(link)} (outside the repository)`);
      continue;
    }
    if (!existsSync(target)) {
      broken.push(`${where(link)} (no such file)`);
      continue;
    }
    if (anchor === null) continue;
    if (statSync(target).isDirectory() || !target.endsWith('.md')) {
      broken.push(`${where(link)} (an anchor into something that is not a Markdown file)`);
      continue;
    }
    if (!markdownAnchors(readFileSync(target, 'utf8')).has(anchor)) {
      broken.push(`${where(link)} (no heading with that anchor in ${relative(root, target)})`);
    }
  }
  return broken;
}

/** Markdown files under `dir`, recursively, skipping node_modules, dist and dot folders. */
export function markdownFilesUnder(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...markdownFilesUnder(path));
    else if (entry.name.endsWith('.md')) files.push(path);
  }
  return files.sort();
}
