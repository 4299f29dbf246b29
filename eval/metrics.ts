/** Turn-level evidence recall: what fraction of a question's evidence turns a ranking returns. */
import { CATEGORIES, type Category } from './locomo';

export interface QuestionResult {
  category: Category;
  evidence: readonly string[];
  /** Returned dialog ids, best first. */
  ranked: readonly string[];
}

export interface Figures {
  questions: number;
  recallAt5: number;
  recallAt10: number;
  hitAt5: number;
}

function recall(evidence: readonly string[], ranked: readonly string[], k: number): number {
  const top = new Set(ranked.slice(0, k));
  return evidence.filter((id) => top.has(id)).length / evidence.length;
}

export function figures(results: readonly QuestionResult[]): Figures {
  const n = results.length;
  const mean = (f: (r: QuestionResult) => number) => (n === 0 ? 0 : results.reduce((s, r) => s + f(r), 0) / n);
  return {
    questions: n,
    recallAt5: mean((r) => recall(r.evidence, r.ranked, 5)),
    recallAt10: mean((r) => recall(r.evidence, r.ranked, 10)),
    hitAt5: mean((r) => (recall(r.evidence, r.ranked, 5) > 0 ? 1 : 0)),
  };
}

/** Figures per category, then `all` over categories 1-4. */
export function byCategory(results: readonly QuestionResult[]): Map<Category | 'all', Figures> {
  const out = new Map<Category | 'all', Figures>();
  for (const c of CATEGORIES) out.set(c, figures(results.filter((r) => r.category === c)));
  out.set('all', figures(results));
  return out;
}
