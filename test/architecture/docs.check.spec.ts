import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';

import { NOTES_AFTER_RUNS, NOTES_BEFORE_RUNS } from '../../bench/report';
import { brokenLinks, headingSlug, markdownAnchors, markdownFilesUnder, markdownLinks } from '../support/markdown-links';

/**
 * STYLE.md rule 20: a README of one screen and a handbook in docs/. These checks keep it so:
 * the README stays short, every relative link in the repository's Markdown resolves (the file,
 * and for `#anchor` the heading), every handbook page can be reached from the README, the wire
 * contract the code comments cite is in the repository, every environment variable is on the
 * configuration page, and the fixed prose of the benchmark report lives in files the renderer
 * reads.
 */
const ROOT = resolve(__dirname, '..', '..');
const README = join(ROOT, 'README.md');
const DOCS = join(ROOT, 'docs');
const BENCH_NOTES = join(DOCS, 'bench-notes');
const README_MAX_LINES = 200;

/** The sections of docs/bench-notes are copied into docs/benchmarks.md, so their links start from docs/. */
const linkBase = (file: string): string => (dirname(file) === BENCH_NOTES && basename(file) !== 'README.md' ? DOCS : dirname(file));

describe('the README and the handbook', () => {
  it(`keeps README.md to at most ${README_MAX_LINES} lines`, () => {
    const lines = readFileSync(README, 'utf8').replace(/\n$/, '').split('\n').length;
    expect(lines).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it('resolves every relative link in the repository Markdown, to the file and, for an anchor, its heading', () => {
    const files = markdownFilesUnder(ROOT);
    expect(files).toEqual(expect.arrayContaining([README, join(DOCS, 'architecture.md'), join(DOCS, 'contract.md')]));
    expect(files.flatMap((file) => brokenLinks(file, ROOT, linkBase(file)))).toEqual([]);
  });

  it('reaches every page of docs/ from README.md through links', () => {
    const reached = new Set<string>([README]);
    const queue = [README];
    while (queue.length > 0) {
      const file = queue.shift() as string;
      for (const { target } of markdownLinks(readFileSync(file, 'utf8'))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
        const path = target.split('#')[0];
        if (!path.endsWith('.md')) continue;
        const next = resolve(linkBase(file), decodeURIComponent(path));
        if (!reached.has(next) && existsSync(next)) {
          reached.add(next);
          queue.push(next);
        }
      }
    }
    const pages = readdirSync(DOCS)
      .filter((name) => name.endsWith('.md'))
      .map((name) => join(DOCS, name));
    expect(pages.filter((page) => !reached.has(page)).map((page) => relative(ROOT, page))).toEqual([]);
  });

  it('commits the wire contract as docs/contract.md, with every section the code cites as "CONTRACT section N"', () => {
    const contract = join(DOCS, 'contract.md');
    expect(existsSync(contract) ? 'present' : 'docs/contract.md is missing').toBe('present');
    const sections = new Set([...readFileSync(contract, 'utf8').matchAll(/^## (\d+)\. /gm)].map((m) => Number(m[1])));
    expect(sections.size).toBeGreaterThanOrEqual(10);
    const cited = new Map<number, string>();
    for (const dir of ['src', 'test', 'bench', 'scripts', 'eval', 'migrations']) {
      for (const file of sourceFilesUnder(join(ROOT, dir))) {
        for (const match of readFileSync(file, 'utf8').matchAll(/CONTRACT sections? (\d+)(?:\s*(?:-|and)\s*(\d+))?/gi)) {
          for (const n of [match[1], match[2]].filter(Boolean)) cited.set(Number(n), relative(ROOT, file));
        }
      }
    }
    expect(cited.size).toBeGreaterThan(0);
    expect([...cited].filter(([n]) => !sections.has(n)).map(([n, file]) => `section ${n}, cited in ${file}`)).toEqual([]);
  });

  it('names every variable of .env.example in docs/configuration.md', () => {
    const variables = [...readFileSync(join(ROOT, '.env.example'), 'utf8').matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]);
    expect(variables.length).toBeGreaterThan(10);
    const page = readFileSync(join(DOCS, 'configuration.md'), 'utf8');
    expect(variables.filter((name) => !page.includes(`\`${name}\``))).toEqual([]);
  });

  it('keeps the fixed prose of docs/benchmarks.md in docs/bench-notes/, every file of it read by the renderer', () => {
    const notes = readdirSync(BENCH_NOTES)
      .filter((name) => name.endsWith('.md') && name !== 'README.md')
      .map((name) => name.replace(/\.md$/, ''))
      .sort();
    expect(notes).toEqual([...NOTES_BEFORE_RUNS, ...NOTES_AFTER_RUNS].sort());
    const report = readFileSync(join(DOCS, 'benchmarks.md'), 'utf8');
    for (const note of notes) expect(report).toContain(readFileSync(join(BENCH_NOTES, `${note}.md`), 'utf8'));
    expect(existsSync(join(ROOT, 'bench', 'design-notes.ts'))).toBe(false);
  });
});

describe('the link check itself', () => {
  const dir = mkdtempSync(join(tmpdir(), 'atrium-links-'));
  const page = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  page('target.md', '# Target\n\n## Running several instances\n\n## Scope: who is asking\n\n## Scope: who is asking\n');

  it('reports a link to a file that does not exist', () => {
    const file = page('missing-file.md', 'See [the guide](guide.md).\n');
    expect(brokenLinks(file, dir)).toEqual(['missing-file.md:1 guide.md (no such file)']);
  });

  it('reports an anchor that names no heading, in another file and in the same file', () => {
    const file = page('missing-anchor.md', '# Here\n\n[a](target.md#running-many-instances)\n[b](#there)\n[c](#here)\n');
    expect(brokenLinks(file, dir)).toEqual([
      'missing-anchor.md:3 target.md#running-many-instances (no heading with that anchor in target.md)',
      'missing-anchor.md:4 #there (no heading with that anchor in missing-anchor.md)',
    ]);
  });

  it('accepts links that resolve, and ignores code, code spans and absolute URLs', () => {
    const file = page(
      'fine.md',
      [
        '[a](target.md) [b](target.md#running-several-instances) [c](target.md#scope-who-is-asking-1)',
        '[d](https://example.com/nowhere.md) `[e](nowhere.md)`',
        '```md',
        '[f](nowhere.md)',
        '```',
      ].join('\n'),
    );
    expect(brokenLinks(file, dir)).toEqual([]);
  });

  it('reports a link that leaves the repository', () => {
    const file = page('outside.md', '[up](../../etc/passwd)\n');
    expect(brokenLinks(file, dir)).toEqual(['outside.md:1 ../../etc/passwd (outside the repository)']);
  });

  it.each([
    ['Running several instances', 'running-several-instances'],
    ['Scope: who is asking', 'scope-who-is-asking'],
    ['2. Scope (one parser for every memory route)', '2-scope-one-parser-for-every-memory-route'],
    ['API-key authentication (`npm run bench:keys`, issue 12)', 'api-key-authentication-npm-run-benchkeys-issue-12'],
    ['The `local` provider and **tenant_graphs**', 'the-local-provider-and-tenant_graphs'],
    ['Links: [the door](architecture.md#door)', 'links-the-door'],
  ])('gives the heading "%s" the id "%s"', (heading, slug) => {
    expect(headingSlug(heading)).toBe(slug);
  });

  it('numbers repeated headings as GitHub does', () => {
    expect([...markdownAnchors('## Steps\n## Steps\n## Steps\n')]).toEqual(['steps', 'steps-1', 'steps-2']);
  });
});

function sourceFilesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFilesUnder(path);
    return /\.(ts|mjs|js|md)$/.test(entry.name) ? [path] : [];
  });
}
