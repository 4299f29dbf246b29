/**
 * The in-script baseline: plain Okapi BM25 (k1 = 1.2, b = 0.75) over the same turns, one index
 * per conversation, lower-cased word tokens, English stop words removed, no stemming. It
 * knows nothing of Atrium; it is the bar a lexical ranker should clear.
 */
const K1 = 1.2;
const B = 0.75;

const STOP_WORDS = new Set(
  (
    'a an and are as at be but by did do does for from had has have he her his how i if in is it its me my of on or ' +
    'our she so that the their them they this to was we were what when where which who whom why will with you your'
  ).split(' '),
);

export function bm25Tokens(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !STOP_WORDS.has(w));
}

export class Bm25Index {
  private readonly docs: Map<string, number>[] = [];
  private readonly lengths: number[] = [];
  private readonly df = new Map<string, number>();
  private averageLength = 0;

  constructor(
    private readonly ids: readonly string[],
    texts: readonly string[],
  ) {
    for (const text of texts) {
      const tf = new Map<string, number>();
      const tokens = bm25Tokens(text);
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const t of tf.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1);
      this.docs.push(tf);
      this.lengths.push(tokens.length);
    }
    this.averageLength = this.lengths.reduce((s, n) => s + n, 0) / Math.max(1, this.lengths.length);
  }

  search(query: string, limit: number): string[] {
    const n = this.docs.length;
    const terms = [...new Set(bm25Tokens(query))];
    const scored: { id: string; score: number }[] = [];
    this.docs.forEach((tf, i) => {
      let score = 0;
      for (const term of terms) {
        const f = tf.get(term);
        if (!f) continue;
        const df = this.df.get(term) ?? 0;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score += (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * this.lengths[i]) / this.averageLength));
      }
      if (score > 0) scored.push({ id: this.ids[i], score });
    });
    return scored
      .sort((a, b) => b.score - a.score)
      .slice(0, limit)
      .map((s) => s.id);
  }
}
