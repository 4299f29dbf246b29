/** The figures of one evaluation run as a Markdown table and as docs/retrieval.md. */
import { existsSync, readFileSync } from 'node:fs';

import { CATEGORIES, CATEGORY_NAMES, type Category } from './locomo';
import type { Figures } from './metrics';

export interface RetrievalRun {
  provider: string;
  database: string;
  commit: string;
  date: string;
  data: string;
  conversations: string[];
  turns: number;
  stored: number;
  skipped: number;
  droppedEvidence: number;
  seconds: number;
  systems: Record<string, Map<Category | 'all', Figures>>;
}

const f3 = (n: number) => n.toFixed(3);

export function renderTable(run: RetrievalRun): string {
  const rows: string[] = ['| category | questions | system | recall@5 | recall@10 | hit@5 |', '|---|---|---|---|---|---|'];
  for (const key of [...CATEGORIES, 'all'] as const) {
    const label = key === 'all' ? '**1-4**' : `${key} ${CATEGORY_NAMES[key]}`;
    for (const [system, table] of Object.entries(run.systems)) {
      const f = table.get(key) as Figures;
      const cells = [f3(f.recallAt5), f3(f.recallAt10), f3(f.hitAt5)].map((c) => (key === 'all' ? `**${c}**` : c));
      rows.push(`| ${label} | ${f.questions} | ${system} | ${cells.join(' | ')} |`);
    }
  }
  return rows.join('\n');
}

/** Hand-written sections below this marker in docs/retrieval.md are kept across runs. */
export const NOTES_MARKER = '<!-- notes: kept across runs -->';

export function renderReport(run: RetrievalRun, existingPath = 'docs/retrieval.md'): string {
  const notes = existsSync(existingPath) ? readFileSync(existingPath, 'utf8').split(NOTES_MARKER)[1] : undefined;
  const out = [
    '# Retrieval quality on LoCoMo',
    '',
    'Written by `npm run eval:retrieval`; the section after the marker at the end is hand-written and kept.',
    '',
    `- provider: \`${run.provider}\`, database: ${run.database}, commit ${run.commit}, ${run.date}`,
    `- data: \`${run.data}\` (${run.conversations.join(', ')}): ${run.turns} turns, ${run.stored} stored, ${run.skipped} skipped at ingest; ${run.droppedEvidence} evidence ids malformed or pointing at no turn, left out`,
    `- each turn stored verbatim as \`[session date] Speaker: text\` (ingest/quick, skip_extraction), one user per conversation; limit 10; run took ${Math.round(run.seconds)} s`,
    '',
    renderTable(run),
    '',
    NOTES_MARKER,
    notes ?? '\n',
  ];
  return out.join('\n');
}
