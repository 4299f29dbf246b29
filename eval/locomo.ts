/**
 * LoCoMo conversations as the retrieval evaluation sees them: every dialog turn one memory,
 * `[session date] Speaker: text`, and every question of categories 1-4 with the dialog ids of
 * its evidence turns. The data file is read at run time from wherever the caller keeps it
 * (its licence allows evaluation use; it is not part of this repository).
 */
import { readFileSync } from 'node:fs';

export const CATEGORIES = [1, 2, 3, 4] as const;
export type Category = (typeof CATEGORIES)[number];
export const CATEGORY_NAMES: Record<Category, string> = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' };

export interface Turn {
  diaId: string;
  /** What is stored: `[session date] Speaker: text`. */
  content: string;
}

export interface Question {
  question: string;
  category: Category;
  /** Evidence dialog ids that name an existing turn (normalised: `D1:3`). */
  evidence: string[];
}

export interface Conversation {
  id: string;
  turns: Turn[];
  questions: Question[];
  /** Evidence ids that were malformed or named no turn (dropped from scoring). */
  droppedEvidence: number;
}

interface RawTurn {
  dia_id: string;
  speaker: string;
  text: string;
}
interface RawSample {
  sample_id: string;
  conversation: Record<string, unknown>;
  qa: { question: string; category: number; evidence?: string[] }[];
}

function sessionTurns(conversation: Record<string, unknown>): Turn[] {
  const sessions = Object.keys(conversation)
    .map((key) => /^session_(\d+)$/.exec(key))
    .filter((m): m is RegExpExecArray => m !== null && Array.isArray(conversation[m[0]]))
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
  return sessions.flatMap((n) => {
    const date = String(conversation[`session_${n}_date_time`] ?? '');
    return (conversation[`session_${n}`] as RawTurn[]).map((t) => ({ diaId: t.dia_id, content: `[${date}] ${t.speaker}: ${t.text}` }));
  });
}

/**
 * Evidence ids as written are sometimes malformed (`D:11:26`, `D30:05`, several ids in one
 * string): each `D<session>:<turn>` found in the string counts, with leading zeros dropped.
 */
export function parseEvidence(raw: readonly string[]): string[] {
  const ids: string[] = [];
  for (const entry of raw) {
    for (const m of String(entry).matchAll(/D:?(\d+):(\d+)/g)) ids.push(`D${Number(m[1])}:${Number(m[2])}`);
  }
  return [...new Set(ids)];
}

export function loadLocomo(path: string): Conversation[] {
  const samples = JSON.parse(readFileSync(path, 'utf8')) as RawSample[];
  return samples.map((sample) => {
    const turns = sessionTurns(sample.conversation);
    const known = new Set(turns.map((t) => t.diaId));
    let droppedEvidence = 0;
    const questions: Question[] = [];
    for (const qa of sample.qa) {
      if (!(CATEGORIES as readonly number[]).includes(qa.category)) continue;
      const parsed = parseEvidence(qa.evidence ?? []);
      const evidence = parsed.filter((id) => known.has(id));
      droppedEvidence += (qa.evidence?.length ?? 0) - evidence.length;
      if (evidence.length > 0) questions.push({ question: qa.question, category: qa.category as Category, evidence });
    }
    return { id: sample.sample_id, turns, questions, droppedEvidence };
  });
}
